// The model-specific half of @NAME@'s wrapper: the harness core, the
// control port, both AXI masters and a busy counter over one Verilated
// variant's model class. A class template, instantiated once per variant by
// the build (cosim_core_over_variants in CMakeLists.txt; a plug-in:
// cosim_core_instance_source, whose source also includes the model's root
// class: the kernel's state is read from internal signals); the wrapper
// reaches it through the abstract Wrapper::Impl, one virtual call per run or
// register access (the clock loop runs inside the template). Verilator's
// headers come first: include after the model's header, before anything
// SystemC.
#pragma once

#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "dut/@NAME@_pins.hpp"
#include "harness/axi_master_binder.hpp"
#include "harness/core.hpp"
#include "harness/core_seam_over.hpp"
#include "harness/variant.hpp"
// (blank line keeps include sorters from moving the above)

#include "@NAME@/@NAME@_wrapper.hpp"

namespace cosim::tb::@NAME@ {

// What the wrapper asks of its model, besides what every core asks
// (harness::CoreSeam, whose run() polls CTRL for ap_done).
struct Wrapper::Impl : harness::CoreSeam {
  virtual bool run_until_irq(uint64_t max_cycles) = 0;
  virtual std::string diagnosis() const = 0;
  virtual std::map<std::string, uint64_t> counters() const = 0;
  virtual std::vector<std::string> errors() const = 0;
};

namespace model {

namespace pins = cosim::@NAME@::pins;  // the generated binding (manifest ports)

// The kernel's FSM (rtl/@NAME@/@NAME@.sv state_e), read through the signals
// the manifest's waiver file makes public.
inline const char* const kStates[] = {"StIdle", "StRead", "StWriteAddr", "StWriteData", "StWriteResp"};

// Done comes from CTRL (ap_ctrl_hs), not from a pin: harness::run_to_done polls it.
struct Status : harness::NoErrorPin {
  template <class Model>
  static bool done(const Model&) {
    return false;
  }
  template <class Model>
  static std::string diagnosis(const Model& m) {
    const unsigned st = m.rootp->@NAME@__DOT__state_q;
    std::ostringstream os;
    os << "@NAME@ in state " << (st < 5 ? kStates[st] : "?") << " with " << m.rootp->@NAME@__DOT__beats_left_q
       << " beats left, interrupt=" << int(pins::Interrupt::irq(m));
    if (st == 0) os << ": idle, ap_start was never set or the kernel finished and nobody read CTRL";
    return os.str();
  }
};

// Cycles the kernel is out of its idle state.
template <class Model>
class BusyPort final : public harness::Port<Model> {
 public:
  void drive(Model&) override {}
  void sample(const Model& m, uint64_t) override { busy_cycles += m.rootp->@NAME@__DOT__state_q != 0; }
  uint64_t busy_cycles = 0;
};

template <class Model>
class ImplOver final : public harness::CoreSeamOver<Wrapper::Impl, Model, Status, pins::Top> {
  using Base = harness::CoreSeamOver<Wrapper::Impl, Model, Status, pins::Top>;

 public:
  using Gmem0 = harness::AxiMasterBinder<Model, pins::Gmem0>;
  using Gmem1 = harness::AxiMasterBinder<Model, pins::Gmem1>;

  ImplOver(harness::AxiSlavePort& s0, harness::AxiSlavePort& s1, const TbConfig& cfg)
      : Base("@NAME@", &cfg), gmem0_(s0), gmem1_(s1) {
    this->core_.add_port(gmem0_);
    this->core_.add_port(gmem1_);
    this->core_.add_port(busy_);
  }
  static std::unique_ptr<Wrapper::Impl> make(harness::AxiSlavePort& s0, harness::AxiSlavePort& s1,
                                             const TbConfig& cfg) {
    return std::make_unique<ImplOver>(s0, s1, cfg);
  }

  bool run_until_irq(uint64_t max_cycles) override { return this->core_.run_until_irq(max_cycles); }
  std::string diagnosis() const override { return this->core_.diagnosis(); }
  std::map<std::string, uint64_t> counters() const override {
    std::map<std::string, uint64_t> p = this->core_.wave_stats();  // wave_*: moved to report.json "wave"
    p["busy_cycles"] = busy_.busy_cycles;
    return p;
  }
  std::vector<std::string> errors() const override { return this->ctrl_.errors(); }  // s_axi_control's

 private:
  Gmem0 gmem0_;
  Gmem1 gmem1_;
  BusyPort<Model> busy_;
};

}  // namespace model

template <class Model>
const Wrapper::Build& Over<Model>::build() {
  using Impl = model::ImplOver<Model>;
  namespace pins = cosim::@NAME@::pins;
  static const Wrapper::Build b{
      harness::VariantOf<Model>::kVariant,
      &Impl::make,
      {{pins::Gmem0::kName, static_cast<uint32_t>(Impl::Gmem0::kDataBytes), pins::Gmem0::kStallSeed},
       {pins::Gmem1::kName, static_cast<uint32_t>(Impl::Gmem1::kDataBytes), pins::Gmem1::kStallSeed}}};
  return b;
}

}  // namespace cosim::tb::@NAME@
