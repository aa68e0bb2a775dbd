// Golden model of @NAME@: out[i] = clamp(a[i] + b[i], -128, 127) on int8.
#pragma once

#include <cstdint>
#include <vector>

#include "tensor/tensor.hpp"

namespace cosim::@NAME@ {

// One element.
int8_t add_sat(int8_t a, int8_t b);

// Element-wise over two int8 tensors of the same shape; throws
// std::invalid_argument when dtypes or shapes differ.
Tensor vadd_sat(const Tensor& a, const Tensor& b);

}  // namespace cosim::@NAME@
