// Moving a Verilated model's port values: how many bytes a port holds, and
// copies between a port (an integer, or a VlWide for more than 64 bits; bit 0
// = byte 0, lowest bit) and a little-endian byte array.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

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
