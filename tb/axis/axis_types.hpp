// Cycle-level AXI-Stream: the pins of one stream as a plain struct. A DUT
// wrapper copies these to and from the Verilated model's ports every cycle;
// sources, sinks and the protocol checker work on the struct only, so they
// need neither SystemC nor Verilator.
//
// Any data width: BasicPins<W, U> is a stream of W data bytes and U TUSER
// bytes (U only counts when the DUT has TUSER). A field of at most 8 bytes is
// a uint64_t (the fast path: a 64-bit stream is what it always was); a wider
// one is a Bytes<N>, little-endian (byte 0 = bits 7:0, as Verilator's VlWide
// words lie in memory). TKEEP and TSTRB have one bit per data byte. Pins and
// Beat (no template arguments) are the 64-bit stream.
//
// One cycle, in this order:
//   1. source.drive(pins), sink.drive(pins)     (TVALID/TDATA/TLAST/..., TREADY)
//   2. copy to the DUT, eval, copy the DUT's outputs back into pins
//   3. checker.observe(cycle, pins)             (what the clock edge samples)
//   4. rising edge
//   5. source.update(pins), sink.update(pins)   (handshake = TVALID && TREADY)
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <type_traits>

namespace cosim::tb::axis {

// A field wider than 64 bits: N bytes, byte 0 the lowest.
template <std::size_t N>
struct Bytes {
  std::array<uint8_t, N> b{};

  uint8_t* data() { return b.data(); }
  const uint8_t* data() const { return b.data(); }
  bool operator==(const Bytes& o) const { return b == o.b; }
  bool operator!=(const Bytes& o) const { return b != o.b; }
};

// The storage of an N-byte field: uint64_t up to 8 bytes, Bytes<N> beyond.
template <std::size_t N>
using Word = std::conditional_t<(N <= 8), uint64_t, Bytes<N>>;

// Bytes of a mask with one bit per byte of a W-byte field (TKEEP, TSTRB).
constexpr std::size_t mask_bytes(std::size_t w) { return (w + 7) / 8; }

// Byte i of a field (0 beyond it), and setting it.
inline uint8_t get_byte(uint64_t v, std::size_t i) { return i < 8 ? uint8_t(v >> (8 * i)) : 0; }
template <std::size_t N>
uint8_t get_byte(const Bytes<N>& v, std::size_t i) {
  return i < N ? v.b[i] : 0;
}
inline void set_byte(uint64_t& v, std::size_t i, uint8_t x) {
  if (i < 8) v = (v & ~(uint64_t{0xff} << (8 * i))) | (uint64_t{x} << (8 * i));
}
template <std::size_t N>
void set_byte(Bytes<N>& v, std::size_t i, uint8_t x) {
  if (i < N) v.b[i] = x;
}
// Bit i of a mask.
inline bool get_bit(uint64_t v, std::size_t i) { return i < 64 && ((v >> i) & 1); }
template <std::size_t N>
bool get_bit(const Bytes<N>& v, std::size_t i) {
  return i < 8 * N && ((v.b[i / 8] >> (i % 8)) & 1);
}

// An N-byte field with its `bits` lowest bits set (a TKEEP of `bits` bytes).
template <std::size_t N>
constexpr Word<N> low_bits(std::size_t bits) {
  if constexpr (N <= 8) {
    return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  } else {
    Bytes<N> m{};
    for (std::size_t i = 0; i < N && 8 * i < bits; ++i)
      m.b[i] = bits - 8 * i >= 8 ? 0xff : uint8_t((1u << (bits - 8 * i)) - 1);
    return m;
  }
}

// An N-byte field from / to a little-endian byte array of n <= N bytes.
template <std::size_t N>
Word<N> from_bytes(const uint8_t* src, std::size_t n) {
  Word<N> v{};
  if constexpr (N <= 8) {
    for (std::size_t i = n; i-- > 0;) v = (v << 8) | src[i];
  } else {
    for (std::size_t i = 0; i < n && i < N; ++i) v.b[i] = src[i];
  }
  return v;
}

template <std::size_t W, std::size_t U = 8>
struct BasicBeat {
  using Data = Word<W>;
  using Mask = Word<mask_bytes(W)>;
  using User = Word<U>;
  static constexpr std::size_t kDataBytes = W;
  static constexpr std::size_t kUserBytes = U;
  // Every byte kept and a data byte.
  static constexpr Mask full_mask() { return low_bits<mask_bytes(W)>(W); }

  Data data{};
  bool last = false;
  Mask keep = full_mask();
  Mask strb = full_mask();
  User user{};

  bool operator==(const BasicBeat& o) const {
    return data == o.data && last == o.last && keep == o.keep && strb == o.strb && user == o.user;
  }
  bool operator!=(const BasicBeat& o) const { return !(*this == o); }
  // The same beat as the protocol sees it: TLAST, TKEEP, TSTRB and TUSER
  // equal, and the data equal on the bytes that carry data (TKEEP and TSTRB
  // high); a null or position byte's value does not count.
  bool matches(const BasicBeat& o) const {
    if (last != o.last || keep != o.keep || strb != o.strb || user != o.user) return false;
    if (keep == full_mask() && strb == full_mask()) return data == o.data;
    for (std::size_t i = 0; i < W; ++i)
      if (get_bit(keep, i) && get_bit(strb, i) && get_byte(data, i) != get_byte(o.data, i)) return false;
    return true;
  }
};

template <std::size_t W, std::size_t U = 8>
struct BasicPins {
  using Beat = BasicBeat<W, U>;
  using Data = typename Beat::Data;
  using Mask = typename Beat::Mask;
  using User = typename Beat::User;
  static constexpr std::size_t kDataBytes = W;
  static constexpr std::size_t kUserBytes = U;

  bool tvalid = false;
  bool tready = false;
  Data tdata{};
  bool tlast = false;
  // Optional sidebands, driven when the DUT's stream has them: every byte
  // kept and a data byte unless a source says otherwise.
  Mask tkeep = Beat::full_mask();
  Mask tstrb = Beat::full_mask();
  User tuser{};

  bool fire() const { return tvalid && tready; }
  // The beat these pins carry, and presenting one.
  Beat beat() const { return Beat{tdata, tlast, tkeep, tstrb, tuser}; }
  void set_beat(const Beat& b) {
    tdata = b.data;
    tlast = b.last;
    tkeep = b.keep;
    tstrb = b.strb;
    tuser = b.user;
  }
};

// The 64-bit stream.
using Beat = BasicBeat<8>;
using Pins = BasicPins<8>;

// A stream broke the AXI-Stream rules; the message names stream and cycle.
class ProtocolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace cosim::tb::axis
