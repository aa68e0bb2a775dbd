// The model-specific half of @NAME@'s wrapper: the harness core, the
// control port, the manifest's AXI masters and a busy counter over one Verilated
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
#include <type_traits>
#include <utility>
#include <vector>

#include "dut/@NAME@_pins.hpp"
#include "harness/axi_masters.hpp"
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

// The kernel's FSM (rtl/@NAME@/@NAME@.sv state_e) and its beats left, read
// through the signals the manifest's waiver file makes public: the only code
// here that knows the kernel's insides. A kernel put in the template's place
// without these signals still builds and runs (its diagnosis then gives the
// pins, and busy_cycles is left out) until you name its own signals here and
// in the waiver file's public_flat_rd lines.
inline const char* const kStates[] = {"StIdle", "StRead", "StWriteAddr", "StWriteData", "StWriteResp"};

template <class Root, class = void>
struct HasKernelState : std::false_type {};
template <class Root>
struct HasKernelState<Root, std::void_t<decltype(std::declval<const Root&>().@NAME@__DOT__state_q),
                                        decltype(std::declval<const Root&>().@NAME@__DOT__beats_left_q)>>
    : std::true_type {};
template <class Model>
constexpr bool kHasKernelState =
    HasKernelState<std::remove_pointer_t<decltype(std::declval<const Model&>().rootp)>>::value;

// Done comes from CTRL (ap_ctrl_hs), not from a pin: harness::run_to_done polls it.
struct Status : harness::NoErrorPin {
  template <class Model>
  static bool done(const Model&) {
    return false;
  }
  template <class Model>
  static std::string diagnosis(const Model& m) {
    std::ostringstream os;
    if constexpr (kHasKernelState<Model>) {
      const unsigned st = m.rootp->@NAME@__DOT__state_q;
      os << "@NAME@ in state " << (st < 5 ? kStates[st] : "?") << " with " << m.rootp->@NAME@__DOT__beats_left_q
         << " beats left, interrupt=" << int(pins::Interrupt::irq(m));
      if (st == 0) os << ": idle, ap_start was never set or the kernel finished and nobody read CTRL";
    } else {
      os << "@NAME@: interrupt=" << int(pins::Interrupt::irq(m));
    }
    return os.str();
  }
};

// Cycles the kernel is out of its idle state.
template <class Model>
class BusyPort final : public harness::Port<Model> {
 public:
  void drive(Model&) override {}
  void sample(const Model& m, uint64_t) override {
    if constexpr (kHasKernelState<Model>) busy_cycles += m.rootp->@NAME@__DOT__state_q != 0;
  }
  uint64_t busy_cycles = 0;
};

template <class Model>
class ImplOver final : public harness::CoreSeamOver<Wrapper::Impl, Model, Status, pins::Top> {
  using Base = harness::CoreSeamOver<Wrapper::Impl, Model, Status, pins::Top>;

 public:
  // Every AXI4 master the manifest lists, bound in its order.
  using Masters = harness::AxiMasterBinders<Model, pins::Top::AxiMasters>;

  ImplOver(const std::vector<harness::AxiSlavePort*>& slaves, const TbConfig& cfg)
      : Base("@NAME@", &cfg), masters_(slaves) {
    masters_.add_to(this->core_);
    if constexpr (kHasKernelState<Model>) this->core_.add_port(busy_);
  }
  static std::unique_ptr<Wrapper::Impl> make(const std::vector<harness::AxiSlavePort*>& slaves,
                                             const TbConfig& cfg) {
    return std::make_unique<ImplOver>(slaves, cfg);
  }

  bool run_until_irq(uint64_t max_cycles) override { return this->core_.run_until_irq(max_cycles); }
  std::string diagnosis() const override { return this->core_.diagnosis(); }
  std::map<std::string, uint64_t> counters() const override {
    std::map<std::string, uint64_t> p = this->core_.wave_stats();  // wave_*: moved to report.json "wave"
    if constexpr (kHasKernelState<Model>) p["busy_cycles"] = busy_.busy_cycles;
    return p;
  }
  std::vector<std::string> errors() const override { return this->ctrl_.errors(); }  // s_axi_control's

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
