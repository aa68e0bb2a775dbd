// Distance between two int8 results (a golden model vs the reference
// semantics, or DUT vs golden): share of exact elements and max |diff|.
#pragma once

#include <cstdint>

#include "tensor/tensor.hpp"

namespace cosim::ops {

struct Distance {
  int64_t count = 0;
  int64_t exact = 0;
  int max_abs_diff = 0;
  double exact_pct() const { return count ? 100.0 * static_cast<double>(exact) / static_cast<double>(count) : 100.0; }
};

// Both int8 with the same shape, else cosim::InputError.
Distance int8_distance(const Tensor& a, const Tensor& b);

}  // namespace cosim::ops
