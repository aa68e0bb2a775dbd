// Random quantization parameters for the independent golden tests
// (vta_plan_indep_test, vta_add_dequant_indep_test), with the int8 edges
// mixed in.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>

class ParamGen {
 public:
  explicit ParamGen(uint64_t seed) : rng_(seed) {}
  int uni(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  double unif(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng_); }

  // An int8 zero point: an edge (-128, 127, 0) half of the time.
  int zero_point() {
    switch (uni(0, 5)) {
      case 0: return -128;
      case 1: return 127;
      case 2: return 0;
      default: return uni(-128, 127);
    }
  }
  // A float32 scale 2^e, e uniform in [lo2, hi2).
  float log_scale(double lo2, double hi2) { return static_cast<float>(std::exp2(unif(lo2, hi2))); }
  std::mt19937_64& rng() { return rng_; }

 private:
  std::mt19937_64 rng_;
};
