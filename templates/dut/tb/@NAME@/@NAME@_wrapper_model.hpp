// The model-specific half of @NAME@'s wrapper: the harness core, the
// register port, the AXI master and a busy counter over one Verilated
// variant's model class. A class template, instantiated once per variant by
// the build (cosim_core_over_variants in CMakeLists.txt; a plug-in:
// cosim_core_instance_source); the wrapper reaches it through the abstract
// Wrapper::Impl, one virtual call per run or register access (the clock
// loop runs inside the template). Verilator's headers come first: include
// after the model's header, before anything SystemC.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "@NAME@/@NAME@_status.hpp"
#include "dut/@NAME@_pins.hpp"
#include "harness/axi_master_binder.hpp"
#include "harness/control.hpp"
#include "harness/core.hpp"
#include "harness/variant.hpp"
// (blank line keeps include sorters from moving the above)

#include "@NAME@/@NAME@_wrapper.hpp"

namespace cosim::tb::@NAME@ {

// What the wrapper asks of its model.
struct Wrapper::Impl {
  virtual ~Impl() = default;
  virtual void start_timeline(std::function<void()> after_cycle) = 0;
  virtual bool run(uint64_t max_cycles) = 0;
  virtual uint32_t reg_read(uint32_t offset) = 0;
  virtual void reg_write(uint32_t offset, uint32_t value) = 0;
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
class ImplOver final : public Wrapper::Impl {
 public:
  // The AXI data width the slave serves: the model's m_axi_wdata_o.
  static constexpr uint32_t kAxiDataBytes = harness::AxiMasterBinder<Model, pins::Mem>::kDataBytes;

  ImplOver(harness::AxiSlavePort& slave, const TbConfig& cfg) : axi_pins_(slave), core_("@NAME@", &cfg, {&ctrl_}) {
    core_.add_port(axi_pins_);
    core_.add_port(busy_);
  }
  static std::unique_ptr<Wrapper::Impl> make(harness::AxiSlavePort& slave, const TbConfig& cfg) {
    return std::make_unique<ImplOver>(slave, cfg);
  }

  void start_timeline(std::function<void()> after_cycle) override { core_.start_timeline(std::move(after_cycle)); }
  bool run(uint64_t max_cycles) override { return core_.run(max_cycles); }
  uint32_t reg_read(uint32_t offset) override { return ctrl_.read(core_, offset); }
  void reg_write(uint32_t offset, uint32_t value) override { ctrl_.write(core_, offset, value); }
  std::string diagnosis() const override { return core_.diagnosis(); }
  std::map<std::string, uint64_t> counters() const override {
    std::map<std::string, uint64_t> p = core_.wave_stats();  // wave_*: moved to report.json "wave"
    p["busy_cycles"] = busy_.busy_cycles;
    return p;
  }

 private:
  harness::ControlBinder<Model, pins::Top> ctrl_;  // the register port
  harness::AxiMasterBinder<Model, pins::Mem> axi_pins_;
  BusyPort<Model> busy_;
  harness::Core<Model, Status, pins::Top> core_;
};

}  // namespace model

template <class Model>
const Wrapper::Build& Over<Model>::build() {
  static const Wrapper::Build b{harness::VariantOf<Model>::kVariant, &model::ImplOver<Model>::make,
                                model::ImplOver<Model>::kAxiDataBytes};
  return b;
}

}  // namespace cosim::tb::@NAME@
