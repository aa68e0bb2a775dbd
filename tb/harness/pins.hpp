// Binding a Verilated model's ports by name: whether a model has a port
// (COSIM_HARNESS_HAS_PIN), how many bytes a port holds, and copies between a
// port (an integer, or a VlWide for more than 64 bits; bit 0 = byte 0, lowest
// bit) and a little-endian byte array.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

// has_<pin><Model>::value: whether the Verilated model has a port `pin`.
#define COSIM_HARNESS_HAS_PIN(pin)                                                     \
  template <class M, class = void>                                                     \
  struct has_##pin : std::false_type {};                                               \
  template <class M>                                                                   \
  struct has_##pin<M, std::void_t<decltype(std::declval<M&>().pin)>> : std::true_type {}

namespace cosim::tb::harness {

// Bytes of storage of a port (a Verilated top port is a reference member).
template <class PinRef>
constexpr std::size_t pin_bytes = sizeof(std::remove_reference_t<PinRef>);

template <class Pin>
void bytes_to_pin(Pin& pin, const uint8_t* src, std::size_t n) {
  if constexpr (std::is_integral_v<Pin>) {
    Pin v = 0;
    std::memcpy(&v, src, n);
    pin = v;
  } else {
    std::memcpy(pin.data(), src, n);
  }
}

template <class Pin>
void pin_to_bytes(const Pin& pin, uint8_t* dst, std::size_t n) {
  if constexpr (std::is_integral_v<Pin>) {
    std::memcpy(dst, &pin, n);
  } else {
    std::memcpy(dst, pin.data(), n);
  }
}

}  // namespace cosim::tb::harness
