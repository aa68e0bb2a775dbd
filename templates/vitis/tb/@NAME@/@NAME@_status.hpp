// What the wrapper knows of @NAME@'s insides: the harness core's Status
// (harness/core.hpp; done comes from CTRL, harness::run_to_done polls it)
// with the hang diagnosis, and the BusyPort counting busy_cycles. Both read
// the kernel's FSM (rtl/@NAME@/@NAME@.sv state_e) and its beats left through
// the signals the manifest's waiver file makes public; the rest of the
// wrapper (@NAME@_wrapper*.{hpp,cpp}) knows only the manifest. A kernel put
// in the template's place without these signals still builds and runs (its
// diagnosis then gives the pins, and busy_cycles is left out) until you name
// its own signals here and in the waiver file's public_flat_rd lines.
// Include after the model's header (and its root class's), before any
// SystemC header.
#pragma once

#include <cstdint>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

#include "dut/@NAME@_pins.hpp"
#include "harness/core.hpp"
#include "harness/port.hpp"

namespace cosim::tb::@NAME@ {

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

// The interrupt pins the manifest lists, "interrupt=0" (none: empty).
template <class Model>
std::string irq_pins(const Model& m) {
  std::string s;
  cosim::@NAME@::pins::Top::Irqs::for_each([&](auto bus) {
    s += (s.empty() ? "" : ", ") + std::string(decltype(bus)::kName) + "=" + std::to_string(int(decltype(bus)::irq(m)));
  });
  return s;
}

struct Status : harness::NoErrorPin {
  template <class Model>
  static bool done(const Model&) {
    return false;
  }
  template <class Model>
  static std::string diagnosis(const Model& m) {
    const std::string irqs = irq_pins(m);
    std::ostringstream os;
    if constexpr (kHasKernelState<Model>) {
      const unsigned st = m.rootp->@NAME@__DOT__state_q;
      os << "@NAME@ in state " << (st < 5 ? kStates[st] : "?") << " with " << m.rootp->@NAME@__DOT__beats_left_q
         << " beats left" << (irqs.empty() ? "" : ", " + irqs);
      if (st == 0) os << ": idle, ap_start was never set or the kernel finished and nobody read CTRL";
    } else {
      os << "@NAME@" << (irqs.empty() ? "" : ": " + irqs);
    }
    return os.str();
  }
};

// Cycles the kernel is out of its idle state (busy_cycles), where it has its FSM.
template <class Model>
class BusyPort final : public harness::Port<Model> {
 public:
  static constexpr bool kCounts = kHasKernelState<Model>;
  void drive(Model&) override {}
  void sample(const Model& m, uint64_t) override {
    if constexpr (kCounts) busy_cycles += m.rootp->@NAME@__DOT__state_q != 0;
  }
  uint64_t busy_cycles = 0;
};

}  // namespace cosim::tb::@NAME@
