// Random test data for the tiny-dnn tests: mostly ordinary bf16 values, some
// raw bit patterns (any exponent, NaN, Inf, subnormal) and the special
// encodings, since the datapath has no special cases. Each suite picks its
// mix; the same seed and mix give the same values.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "tinydnn/bf16.hpp"

namespace cosim::tinydnn::testgen {

struct Bf16Mix {
  int ordinary_pct;     // values in +-[0.125, max_magnitude)
  int raw_pct;          // raw 16-bit patterns; the rest are special encodings
  float max_magnitude;
  bool with_max_finite; // 0x7F7F among the special encodings
};

class Bf16Gen {
 public:
  Bf16Gen(uint64_t seed, Bf16Mix mix) : rng_(seed), mix_(mix) {}
  int uni(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool coin(double p) { return std::bernoulli_distribution(p)(rng_); }
  uint64_t raw() { return rng_(); }  // one 64-bit draw (e.g. a seed)
  bf16 value() {
    const int kind = uni(0, 99);
    if (kind < mix_.ordinary_pct) {
      const float m = std::uniform_real_distribution<float>(0.125f, mix_.max_magnitude)(rng_);
      return bf16::from_float(coin(0.5) ? -m : m);
    }
    if (kind < mix_.ordinary_pct + mix_.raw_pct) return bf16::from_bits(uint16_t(uni(0, 0xFFFF)));
    static const uint16_t special[] = {0x0000, 0x8000, 0x7F80, 0xFF80, 0x7FC0, 0x0001, 0x0080, 0x3F80, 0x7F7F};
    return bf16::from_bits(special[uni(0, mix_.with_max_finite ? 8 : 7)]);
  }
  std::vector<bf16> values(std::size_t n) {
    std::vector<bf16> v(n);
    for (auto& e : v) e = value();
    return v;
  }

 private:
  std::mt19937_64 rng_;
  Bf16Mix mix_;
};

}  // namespace cosim::tinydnn::testgen
