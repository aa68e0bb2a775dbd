// Golden model of @NAME@: C[i] = A[i] + B[i] on 32-bit integers, modulo 2^32
// (the kernel's adders wrap, as C's unsigned arithmetic does).
#pragma once

#include <cstdint>

#include "tensor/tensor.hpp"

namespace cosim::@NAME@ {

// One lane.
int32_t add_wrap(int32_t a, int32_t b);

// Element-wise over two int32 tensors of one shape; std::invalid_argument
// when the dtypes or shapes differ.
Tensor vadd_wrap(const Tensor& a, const Tensor& b);

}  // namespace cosim::@NAME@
