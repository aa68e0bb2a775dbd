// Moving a Verilated model's port values: how many bytes a port holds, and
// copies between a port (an integer, or a VlWide for more than 64 bits; bit 0
// = byte 0, lowest bit) and a little-endian byte array; a port's bits above
// its width cleared (a word or beat that is no whole number of bytes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
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

// Bits of a bus's data when they are no whole number of bytes (the manifest's
// data_bits, Bus::kDataBits: an sram port's word, a stream's beat), else 0:
// the bits above them are cleared on the pin into the model (a Verilated input
// must not carry any).
template <class Bus, class = void>
struct DataBits : std::integral_constant<std::size_t, 0> {};
template <class Bus>
struct DataBits<Bus, std::void_t<decltype(Bus::kDataBits)>> : std::integral_constant<std::size_t, Bus::kDataBits> {};

template <class Pin>
void clear_bits_from(Pin& pin, std::size_t bits) {
  if constexpr (std::is_integral_v<Pin>) {
    if (bits < sizeof(Pin) * 8) pin = static_cast<Pin>(pin & ((Pin{1} << bits) - 1));
  } else {
    for (std::size_t w = bits / 32; w < std::size(pin.m_storage); ++w) {
      pin.m_storage[w] &= bits > w * 32 ? (1u << (bits - w * 32)) - 1 : 0u;
    }
  }
}

}  // namespace cosim::tb::harness
