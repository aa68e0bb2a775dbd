// bfloat16 as the tiny-dnn accelerator sees it: 1 sign, 8 exponent (bias 127),
// 7 fraction bits. The host converts from float32 by truncation (keeps the
// upper 16 bits), never by rounding.
#pragma once

#include <cstdint>

namespace cosim::tinydnn {

struct bf16 {
  uint16_t bits = 0;

  static bf16 from_bits(uint16_t b) { return bf16{b}; }
  // Truncation: the low 16 bits of the float32 are dropped.
  static bf16 from_float(float f);
  float to_float() const;

  uint32_t sign() const { return bits >> 15; }
  uint32_t exp() const { return (bits >> 7) & 0xFFu; }
  uint32_t frac() const { return bits & 0x7Fu; }

  bool operator==(const bf16& o) const { return bits == o.bits; }
  bool operator!=(const bf16& o) const { return bits != o.bits; }
};

uint32_t float_bits(float f);
float bits_float(uint32_t b);

}  // namespace cosim::tinydnn
