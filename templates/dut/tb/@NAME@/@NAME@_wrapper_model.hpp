// The model-specific half of @NAME@'s wrapper: the harness core, the
// register port, the AXI master and a busy counter over one Verilated
// variant's model class. A class template, instantiated once per variant by
// the build (cosim_core_over_variants in CMakeLists.txt; a plug-in:
// cosim_core_instance_source); the wrapper reaches it through the abstract
// Wrapper::Impl, one virtual call per run or register access (the clock
// loop runs inside the template). Verilator's headers come first: include
// after the model's header, before anything SystemC.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "@NAME@/@NAME@_status.hpp"
#include "dut/@NAME@_pins.hpp"
#include "harness/axi_masters.hpp"
#include "harness/core.hpp"
#include "harness/core_seam_over.hpp"
#include "harness/variant.hpp"
// (blank line keeps include sorters from moving the above)

#include "@NAME@/@NAME@_wrapper.hpp"

namespace cosim::tb::@NAME@ {

// What the wrapper asks of its model, besides what every core asks (harness::CoreSeam).
struct Wrapper::Impl : harness::CoreSeam {
  virtual std::string diagnosis() const = 0;
  virtual std::map<std::string, uint64_t> counters() const = 0;
};

namespace model {

namespace pins = cosim::@NAME@::pins;  // the generated binding (manifest ports)

// Cycles the adder is out of its idle state.
template <class Model>
class BusyPort final : public harness::Port<Model> {
 public:
  void drive(Model& m) override { (void)m; }
  void sample(const Model& m, uint64_t time) override {
    (void)time;
    if (m.state_o != cosim::@NAME@::regs::state_e::kStIdle) ++busy_cycles;
  }
  uint64_t busy_cycles = 0;
};

template <class Model>
class ImplOver final : public harness::CoreSeamOver<Wrapper::Impl, Model, Status, pins::Top> {
  using Base = harness::CoreSeamOver<Wrapper::Impl, Model, Status, pins::Top>;

 public:
  // Every AXI4 master the manifest lists (here the one, m_axi_*), bound in its order.
  using Masters = harness::AxiMasterBinders<Model, pins::Top::AxiMasters>;

  ImplOver(const std::vector<harness::AxiSlavePort*>& slaves, const TbConfig& cfg)
      : Base("@NAME@", &cfg), masters_(slaves) {
    masters_.add_to(this->core_);
    this->core_.add_port(busy_);
  }
  static std::unique_ptr<Wrapper::Impl> make(const std::vector<harness::AxiSlavePort*>& slaves,
                                             const TbConfig& cfg) {
    return std::make_unique<ImplOver>(slaves, cfg);
  }

  std::string diagnosis() const override { return this->core_.diagnosis(); }
  std::map<std::string, uint64_t> counters() const override {
    std::map<std::string, uint64_t> p = this->core_.wave_stats();  // wave_*: moved to report.json "wave"
    p["busy_cycles"] = busy_.busy_cycles;
    return p;
  }

 private:
  Masters masters_;
  BusyPort<Model> busy_;
};

}  // namespace model

template <class Model>
const Wrapper::Build& Over<Model>::build() {
  using Impl = model::ImplOver<Model>;
  static const Wrapper::Build b{harness::VariantOf<Model>::kVariant, &Impl::make, Impl::Masters::specs()};
  return b;
}

}  // namespace cosim::tb::@NAME@
