// Moving a Verilated model's port values: how many bytes a port holds, and
// copies between a port (an integer, or a VlWide for more than 64 bits; bit 0
// = byte 0, lowest bit) and a little-endian byte array; a port's bits above
// its width cleared (a word or beat that is no whole number of bytes); and
// several ports taken as one (ConcatPin: a stream whose beat is on several
// data ports).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <tuple>
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

// Copies `bits` bits of `src` from bit `from` into `dst` from bit `to` (bit 0 = byte 0's lowest);
// the other bits of `dst` keep their values.
inline void copy_bits(const uint8_t* src, std::size_t from, uint8_t* dst, std::size_t to, std::size_t bits) {
  if (from % 8 == 0 && to % 8 == 0) {  // whole bytes first: the common case of ports of whole bytes
    std::memcpy(dst + to / 8, src + from / 8, bits / 8);
    from += bits / 8 * 8;
    to += bits / 8 * 8;
    bits %= 8;
  }
  for (std::size_t i = 0; i < bits; ++i) {
    const unsigned bit = (src[(from + i) / 8] >> ((from + i) % 8)) & 1u;
    uint8_t& d = dst[(to + i) / 8];
    d = static_cast<uint8_t>((d & ~(1u << ((to + i) % 8))) | (bit << ((to + i) % 8)));
  }
}

// Ports taken as one value: the first port's `Bits` bits from bit 0, the next's above them, as
// SystemVerilog's {last, ..., first}. The generated binding's tdata() of a stream whose beat is
// several data ports (the manifest's `tdata: [a, b]`) returns one, each port its width in the RTL.
template <class Bits, class... Pins>
struct ConcatPin;
template <std::size_t... Bits, class... Pins>
struct ConcatPin<std::index_sequence<Bits...>, Pins...> {
  static constexpr std::size_t kBits = (Bits + ...);
  std::tuple<Pins&...> parts;
};

template <std::size_t... Bits, class... Pins>
ConcatPin<std::index_sequence<Bits...>, Pins...> concat_pins(Pins&... parts) {
  return {std::tuple<Pins&...>(parts...)};
}

template <class Bits, class... Pins>
constexpr std::size_t pin_bytes<ConcatPin<Bits, Pins...>> = (ConcatPin<Bits, Pins...>::kBits + 7) / 8;

// The value's bytes (at least pin_bytes of it) into the ports, each its bits.
template <std::size_t... Bits, class... Pins>
void bytes_to_pin(ConcatPin<std::index_sequence<Bits...>, Pins...>& pin, const uint8_t* src, std::size_t) {
  std::size_t at = 0;
  const auto part = [&](auto& port, std::size_t bits) {
    uint8_t buf[pin_bytes<decltype(port)>] = {};
    copy_bits(src, at, buf, 0, bits);
    bytes_to_pin(port, buf, sizeof buf);
    at += bits;
  };
  std::apply([&](auto&... ports) { (part(ports, Bits), ...); }, pin.parts);
}

// The ports' bits into the value's bytes (at least pin_bytes of them; the bits above its width 0).
template <std::size_t... Bits, class... Pins>
void pin_to_bytes(const ConcatPin<std::index_sequence<Bits...>, Pins...>& pin, uint8_t* dst, std::size_t n) {
  std::memset(dst, 0, n);
  std::size_t at = 0;
  const auto part = [&](const auto& port, std::size_t bits) {
    uint8_t buf[pin_bytes<decltype(port)>];
    pin_to_bytes(port, buf, sizeof buf);
    copy_bits(buf, 0, dst, at, bits);
    at += bits;
  };
  std::apply([&](const auto&... ports) { (part(ports, Bits), ...); }, pin.parts);
}

}  // namespace cosim::tb::harness
