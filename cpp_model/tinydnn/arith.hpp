// The accelerator's bit-exact arithmetic (spec: shared/spec/tinydnn.md).
//
// The running sum is not IEEE: sign S, exponent E (10-bit two's complement)
// and an unnormalised 32-bit two's-complement mantissa A; its value is
// (-1)^S * A * 2^(E - 268). Results leave as float32 bit patterns.
#pragma once

#include <cstdint>

#include "tinydnn/bf16.hpp"

namespace cosim::tinydnn {

struct RunningSum {
  uint32_t s = 0;  // 0 or 1
  int32_t e = 0;   // 10-bit two's complement, held sign-extended: [-512, 511]
  int32_t a = 0;   // 32-bit two's complement

  bool operator==(const RunningSum& o) const { return s == o.s && e == o.e && a == o.a; }
  bool operator!=(const RunningSum& o) const { return !(*this == o); }
};

// Value of x wrapped to 10-bit two's complement, in [-512, 511].
inline int32_t wrap10(int32_t x) {
  const int32_t m = x & 0x3FF;
  return m >= 512 ? m - 1024 : m;
}

// The helpers of the steps below (inline: mac_step runs once per MAC of
// every golden layer).
namespace detail {

// 32-bit two's-complement negation (wraps like the hardware's negator).
inline int32_t neg32(int32_t a) { return static_cast<int32_t>(0u - static_cast<uint32_t>(a)); }

// Arithmetic (flooring) right shift of a signed value, written without
// relying on the implementation's >> of negative numbers:
// floor(x / 2^sh) = ~(~x >> sh) for x < 0, where ~x >= 0.
inline int64_t shift_right_floor(int64_t x, int sh) {
  if (x >= 0) return static_cast<int64_t>(static_cast<uint64_t>(x) >> sh);
  return ~static_cast<int64_t>(static_cast<uint64_t>(~x) >> sh);
}

// The common alignment: A' * 2^16 >> D; false when the sum is not updated
// (D < 0, or the aligned value overflows), else *aligned (0 for D >= 64).
inline bool align(int32_t a_signed, int32_t d, int64_t* aligned) {
  if (d < 0) return false;
  if (d >= 64) {
    *aligned = 0;
    return true;
  }
  const int64_t v = shift_right_floor(static_cast<int64_t>(a_signed) * 65536, d);
  if (v < -(int64_t{1} << 30) || v >= (int64_t{1} << 30)) return false;
  *aligned = v;
  return true;
}

}  // namespace detail

// The bias step uses d = 1.0 in bf16.
constexpr uint16_t kBf16One = 0x3F80;

// One MAC step: sum + w * d with the alignment rules of the spec
// (D < 0: no update; D >= 64: old sum dropped; alignment overflow: no update).
inline RunningSum mac_step(const RunningSum& sum, bf16 w, bf16 d) {
  const int32_t p = static_cast<int32_t>((128 + w.frac()) * (128 + d.frac()));
  const int32_t ep = static_cast<int32_t>(w.exp() + d.exp());
  const uint32_t sp = w.sign() ^ d.sign();
  const int32_t a_al = (sum.s ^ sp) ? detail::neg32(sum.a) : sum.a;
  const int32_t dd = wrap10(ep - sum.e + 16);
  int64_t aligned = 0;
  if (!detail::align(a_al, dd, &aligned)) return sum;
  RunningSum out;
  out.s = sp;
  out.e = wrap10(ep);
  out.a = static_cast<int32_t>(static_cast<uint32_t>(p) + static_cast<uint32_t>(aligned));
  return out;
}

// The shared normaliser: running sum -> float32 bits (truncating, flushes to
// +0.0 when the biased exponent is <= 0, no overflow handling).
uint32_t normalise(const RunningSum& sum);

// Destination-buffer accumulation (dW over a mini-batch): stored float32 y
// and an incoming sum give the sum that is normalised and stored next.
RunningSum accumulate_dest(uint32_t y, const RunningSum& in);

}  // namespace cosim::tinydnn
