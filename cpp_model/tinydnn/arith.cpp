#include "tinydnn/arith.hpp"

namespace cosim::tinydnn {

namespace {

// 32-bit two's-complement negation (wraps like the hardware's negator).
int32_t neg32(int32_t a) { return static_cast<int32_t>(0u - static_cast<uint32_t>(a)); }

// Arithmetic (flooring) right shift of a signed value, written without
// relying on the implementation's >> of negative numbers:
// floor(x / 2^sh) = ~(~x >> sh) for x < 0, where ~x >= 0.
int64_t shift_right_floor(int64_t x, int sh) {
  if (x >= 0) return static_cast<int64_t>(static_cast<uint64_t>(x) >> sh);
  return ~static_cast<int64_t>(static_cast<uint64_t>(~x) >> sh);
}

// The common alignment: A' * 2^16 >> D with its three outcomes.
enum class Align { kNoUpdate, kOk };
Align align(int32_t a_signed, int32_t d, int64_t* aligned) {
  if (d < 0) return Align::kNoUpdate;
  if (d >= 64) {
    *aligned = 0;
    return Align::kOk;
  }
  const int64_t v = shift_right_floor(static_cast<int64_t>(a_signed) * 65536, d);
  if (v < -(int64_t{1} << 30) || v >= (int64_t{1} << 30)) return Align::kNoUpdate;
  *aligned = v;
  return Align::kOk;
}

}  // namespace

int32_t wrap10(int32_t x) {
  const int32_t m = x & 0x3FF;
  return m >= 512 ? m - 1024 : m;
}

RunningSum mac_step(const RunningSum& sum, bf16 w, bf16 d) {
  const int32_t p = static_cast<int32_t>((128 + w.frac()) * (128 + d.frac()));
  const int32_t ep = static_cast<int32_t>(w.exp() + d.exp());
  const uint32_t sp = w.sign() ^ d.sign();
  const int32_t a_al = (sum.s ^ sp) ? neg32(sum.a) : sum.a;
  const int32_t dd = wrap10(ep - sum.e + 16);
  int64_t aligned = 0;
  if (align(a_al, dd, &aligned) == Align::kNoUpdate) return sum;
  RunningSum out;
  out.s = sp;
  out.e = wrap10(ep);
  out.a = static_cast<int32_t>(static_cast<uint32_t>(p) + static_cast<uint32_t>(aligned));
  return out;
}

uint32_t normalise(const RunningSum& sum) {
  uint32_t s = sum.s;
  int32_t a = sum.a;
  if (a < 0) {
    a = neg32(a);
    s ^= 1u;
  }
  const uint32_t ua = static_cast<uint32_t>(a);
  int lz = 31;  // the spec's lz for A == 0 (not 32)
  if (ua != 0) {
    lz = 0;
    while (!(ua & (0x80000000u >> lz))) ++lz;
  }
  const uint32_t n = ua << lz;
  const int32_t e = wrap10(sum.e - lz + 17 - 127);
  if (e <= 0) return 0;
  return (s << 31) | ((static_cast<uint32_t>(e) & 0xFFu) << 23) | ((n >> 8) & 0x7FFFFFu);
}

RunningSum accumulate_dest(uint32_t y, const RunningSum& in) {
  const uint32_t ey = (y >> 23) & 0xFFu;
  if (ey == 0) return in;
  const uint32_t sy = y >> 31;
  const int32_t f = static_cast<int32_t>((1u << 23) + (y & 0x7FFFFFu));
  const int32_t dd = wrap10(static_cast<int32_t>(ey) - in.e + 134);
  const int32_t a_al = (in.s ^ sy) ? neg32(in.a) : in.a;
  int64_t aligned = 0;
  if (align(a_al, dd, &aligned) == Align::kNoUpdate) return in;
  RunningSum out;
  out.s = sy;
  out.e = wrap10(static_cast<int32_t>(ey) + 118);
  out.a = static_cast<int32_t>(static_cast<uint32_t>(f) + static_cast<uint32_t>(aligned));
  return out;
}

}  // namespace cosim::tinydnn
