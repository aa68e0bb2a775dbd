// What the generated pin binding of a DUT (include/dut/<dut>_pins.hpp, from
// its manifest's `ports`, scripts/dutgen_ports.py) is made of. Each interface
// is a struct of static accessors, one per signal of its kind:
//
//   template <class M> static auto arvalid(M& m) -> decltype((m.<port>))
//
// returns the Verilated model's member for that signal, and
// has_arvalid<Model>::value says whether the model has it, so optional
// signals (IDs, tkeep, tuser, ...) are bound when the top has them. The
// binders in this folder are written against these accessors only: no port
// name appears in shared code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "harness/pins.hpp"  // ConcatPin: a generated tdata() on several ports

// One signal `sig` of an interface, on the model's member `port`. Verilator
// names a port that is a C++ word (`interrupt`, say) __SYM__<port>; either
// spelling is found.
#define COSIM_PIN(sig, port)                                                                          \
  template <class M_, class = void>                                                                   \
  struct sym_##sig : std::false_type {};                                                              \
  template <class M_>                                                                                 \
  struct sym_##sig<M_, std::void_t<decltype(std::declval<M_&>().__SYM__##port)>> : std::true_type {};  \
  template <class M_, class = void>                                                                   \
  struct has_##sig : sym_##sig<M_> {};                                                                \
  template <class M_>                                                                                 \
  struct has_##sig<M_, std::void_t<decltype(std::declval<M_&>().port)>> : std::true_type {};          \
  template <class M_, std::enable_if_t<!sym_##sig<M_>::value, int> = 0>                               \
  static auto sig(M_& m) -> decltype((m.port)) {                                                      \
    return m.port;                                                                                    \
  }                                                                                                   \
  template <class M_, std::enable_if_t<sym_##sig<M_>::value, int> = 0>                                \
  static auto sig(M_& m) -> decltype((m.__SYM__##port)) {                                             \
    return m.__SYM__##port;                                                                           \
  }

// A signal the interface does not have on any model (an sram interface's
// pins are those its `signals` names when it has no prefix).
#define COSIM_NO_PIN(sig)   \
  template <class M_>       \
  struct has_##sig : std::false_type {};

// Whether interface `Bus` of model `Model` has signal `sig`.
#define COSIM_HAS(Bus, sig, Model) (Bus::template has_##sig<Model>::value)

namespace cosim::tb::harness {

enum class BusKind { kAxi4, kAxi4Lite, kReg, kApCtrl, kAxisIn, kAxisOut, kSram, kIrq };

// How the host starts the DUT and learns that it finished (manifest `control`).
enum class ControlProtocol {
  kReg,          // the DUT's own register map; done from its status pins
  kApCtrlHs,     // the Vitis control map (CTRL at 0x00: ap_start, ap_done, ap_idle, ap_ready)
  kApCtrlChain,  // the same with ap_continue
  kNone,         // no control port
};

// No control interface.
struct NoBus {};

// The interfaces of one kind, in manifest order.
template <class... Buses>
struct BusList {
  static constexpr std::size_t size = sizeof...(Buses);
  // f(Bus{}) for each, in order (the Bus value is an empty tag).
  template <class F>
  static void for_each(F&& f) {
    (f(Buses{}), ...);
  }
};

// The clock interface `Bus` runs on: its generated kClock (the index of the
// manifest's interface `clock:` among ports.clocks), else -1, the primary
// clock (ports.clock).
template <class Bus, class = void>
struct BusClock : std::integral_constant<int, -1> {};
template <class Bus>
struct BusClock<Bus, std::void_t<decltype(Bus::kClock)>> : std::integral_constant<int, Bus::kClock> {};
template <class Bus>
constexpr int bus_clock = BusClock<Bus>::value;

// The testbench ends given to the binders of a list of `count` interfaces:
// one each, or std::logic_error naming `who` (the binders) and `what` (the
// ends and the interfaces, "slaves for" ... "AXI4 masters").
template <class End>
const std::vector<End*>& one_per_interface(const std::vector<End*>& ends, std::size_t count, const char* who,
                                           const char* ends_for, const char* interfaces) {
  if (ends.size() != count) {
    throw std::logic_error(std::string(who) + ": " + std::to_string(ends.size()) + " " + ends_for + " " +
                           std::to_string(count) + " " + interfaces);
  }
  return ends;
}

// Writes `v` to an input pin of any integer width (Verilated ports are
// CData / SData / IData / QData), truncated to the pin's storage.
template <class Pin, class V>
inline void set_pin(Pin& pin, V v) {
  pin = static_cast<std::remove_reference_t<Pin>>(v);
}

// 32-bit word `word` (bits 32*word+31 .. 32*word) of a pin of any width: an
// integer port (CData .. QData) or a wide one (VlWide, words of 32 bits).
template <class Pin>
inline void set_pin_word(Pin& pin, unsigned word, uint32_t v) {
  using P = std::remove_reference_t<Pin>;
  if constexpr (std::is_integral_v<P>) {
    if (word * 32 >= sizeof(P) * 8) return;
    if constexpr (sizeof(P) <= 4) {
      pin = static_cast<P>(v);
    } else {
      const unsigned shift = word * 32;
      pin = static_cast<P>((pin & ~(static_cast<P>(0xffffffffu) << shift)) | (static_cast<P>(v) << shift));
    }
  } else {
    pin[word] = v;
  }
}
template <class Pin>
inline uint32_t pin_word(const Pin& pin, unsigned word) {
  using P = std::remove_cv_t<std::remove_reference_t<Pin>>;
  if constexpr (std::is_integral_v<P>) {
    return word * 32 >= sizeof(P) * 8 ? 0 : static_cast<uint32_t>(static_cast<uint64_t>(pin) >> (word * 32));
  } else {
    return static_cast<uint32_t>(pin[word]);
  }
}

}  // namespace cosim::tb::harness
