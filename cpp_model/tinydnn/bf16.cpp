#include "tinydnn/bf16.hpp"

#include <cstring>

namespace cosim::tinydnn {

uint32_t float_bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

float bits_float(uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}

bf16 bf16::from_float(float f) { return bf16{static_cast<uint16_t>(float_bits(f) >> 16)}; }

float bf16::to_float() const { return bits_float(static_cast<uint32_t>(bits) << 16); }

}  // namespace cosim::tinydnn
