// A seeded coin that comes up "stall" with probability p once per cycle:
// std::bernoulli_distribution(p) over std::mt19937_64, draw for draw (the
// same 64-bit number, the same double u = x / 2^64 kept below 1, stall when
// u < p: what libstdc++'s generate_canonical and bernoulli compute), without
// the two long-double logarithms libstdc++'s generate_canonical takes on
// every call (13 % of a tiny-dnn network run went to them). With p = 0 no
// number is drawn: the coin never stalls either way. tests/axis holds the
// check against std::bernoulli_distribution.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>

namespace cosim::tb::axis {

class StallCoin {
 public:
  StallCoin(uint64_t seed, double p) : rng_(seed), p_(p) {}

  bool operator()() {
    if (!(p_ > 0.0)) return false;
    double u = static_cast<double>(rng_()) / 18446744073709551616.0;  // 2^64
    if (u >= 1.0) u = std::nextafter(1.0, 0.0);
    return u < p_;
  }

 private:
  std::mt19937_64 rng_;
  double p_;
};

}  // namespace cosim::tb::axis
