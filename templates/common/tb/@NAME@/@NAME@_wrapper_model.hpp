// The model-specific half of @NAME@'s wrapper: the harness core with the
// manifest's control port, its AXI4 masters, its native memory ports (sram), its AXI-Streams and the kernel's BusyPort
// (@NAME@_status.hpp) over one Verilated variant's model class. A class
// template, instantiated once per variant by the build
// (cosim_core_over_variants in CMakeLists.txt; a plug-in:
// cosim_core_instance_source, whose source also includes the model's root
// class, where a kernel's internal signals are); the wrapper reaches it
// through the abstract Wrapper::Impl, one virtual call per run or register
// access (the clock loop runs inside the template). Verilator's headers come
// first: include after the model's header, before anything SystemC.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "@NAME@/@NAME@_status.hpp"
#include "dut/@NAME@_pins.hpp"
#include "harness/axi_masters.hpp"
#include "harness/axis_streams.hpp"
#include "harness/core.hpp"
#include "harness/core_seam_over.hpp"
#include "harness/sram_binder.hpp"
#include "harness/variant.hpp"
#include "tlm/tb_config.hpp"
// (blank line keeps include sorters from moving the above)

#include "@NAME@/@NAME@_wrapper.hpp"

namespace cosim::tb::@NAME@ {

// What the wrapper asks of its model, besides what every core asks (harness::CoreSeam).
struct Wrapper::Impl : harness::CoreSeam {
  virtual bool has_irq() const = 0;
  virtual bool run_until_irq(uint64_t max_cycles) = 0;
  virtual std::string diagnosis() const = 0;
  virtual std::map<std::string, uint64_t> counters() const = 0;
  virtual std::vector<std::string> errors() const = 0;
  // The manifest's streams, inputs then outputs (the wrapper's StreamSet).
  virtual std::vector<axis::StreamEnd*> stream_ends() = 0;
};

namespace model {

namespace pins = cosim::@NAME@::pins;  // the generated binding (manifest ports)

template <class Model>
class ImplOver final : public harness::CoreSeamOver<Wrapper::Impl, Model, Status, pins::Top> {
  using Base = harness::CoreSeamOver<Wrapper::Impl, Model, Status, pins::Top>;
  using Busy = BusyPort<Model>;

 public:
  // Every AXI4 master the manifest lists, bound in its order.
  using Masters = harness::AxiMasterBinders<Model, pins::Top::AxiMasters>;
  // Every sram interface, each on its own bridge to the DRAM.
  using Srams = harness::SramBinders<Model, pins::Top::Srams>;
  // Every AXI-Stream, its stalls drawn with the testbench's stall_probability per cycle.
  using Streams = harness::AxisStreamBinders<Model, pins::Top::AxisIns, pins::Top::AxisOuts>;

  ImplOver(const std::vector<harness::AxiSlavePort*>& slaves, const std::vector<MemoryPort*>& mems,
           const TbConfig& cfg)
      : Base("@NAME@", &cfg), masters_(slaves), srams_(mems), streams_(cfg.seed, cfg.stall_probability) {
    masters_.add_to(this->core_);
    srams_.add_to(this->core_);
    streams_.add_to(this->core_);
    if constexpr (Busy::kCounts) this->core_.add_port(busy_);
  }
  static std::unique_ptr<Wrapper::Impl> make(const std::vector<harness::AxiSlavePort*>& slaves,
                                             const std::vector<MemoryPort*>& mems, const TbConfig& cfg) {
    return std::make_unique<ImplOver>(slaves, mems, cfg);
  }

  bool has_irq() const override { return harness::Core<Model, Status, pins::Top>::kHasIrq; }
  bool run_until_irq(uint64_t max_cycles) override { return this->core_.run_until_irq(max_cycles); }
  std::string diagnosis() const override { return this->core_.diagnosis(); }
  std::map<std::string, uint64_t> counters() const override {
    std::map<std::string, uint64_t> p = this->core_.wave_stats();  // wave_*: moved to report.json "wave"
    if constexpr (Busy::kCounts) p["busy_cycles"] = busy_.busy_cycles;
    p.merge(srams_.counters());  // <sram>.reads, <sram>.writes
    p.merge(this->ctrl_.counters());  // block-level control: <port>.calls, .latency_min, ...
    return p;
  }
  // The control port's, then the sram ports' refused accesses.
  std::vector<std::string> errors() const override {
    std::vector<std::string> e = this->ctrl_.errors();
    for (std::string& s : srams_.errors()) e.push_back(std::move(s));
    return e;
  }
  std::vector<axis::StreamEnd*> stream_ends() override { return streams_.ends(); }

 private:
  Masters masters_;
  Srams srams_;
  Streams streams_;
  Busy busy_;
};

}  // namespace model

template <class Model>
const Wrapper::Build& Over<Model>::build() {
  using Impl = model::ImplOver<Model>;
  static const Wrapper::Build b{harness::VariantOf<Model>::kVariant, &Impl::make, Impl::Masters::specs(),
                                Impl::Srams::specs()};
  return b;
}

}  // namespace cosim::tb::@NAME@
