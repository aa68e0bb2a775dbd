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
int32_t wrap10(int32_t x);

// The bias step uses d = 1.0 in bf16.
constexpr uint16_t kBf16One = 0x3F80;

// One MAC step: sum + w * d with the alignment rules of the spec
// (D < 0: no update; D >= 64: old sum dropped; alignment overflow: no update).
RunningSum mac_step(const RunningSum& sum, bf16 w, bf16 d);

// The shared normaliser: running sum -> float32 bits (truncating, flushes to
// +0.0 when the biased exponent is <= 0, no overflow handling).
uint32_t normalise(const RunningSum& sum);

// Destination-buffer accumulation (dW over a mini-batch): stored float32 y
// and an incoming sum give the sum that is normalised and stored next.
RunningSum accumulate_dest(uint32_t y, const RunningSum& in);

}  // namespace cosim::tinydnn
