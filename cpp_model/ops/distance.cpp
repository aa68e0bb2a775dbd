// Element-wise distance of two int8 tensors.
#include "ops/distance.hpp"

#include <cstdlib>

#include "common/error.hpp"

namespace cosim::ops {

Distance int8_distance(const Tensor& a, const Tensor& b) {
  if (a.dtype() != DType::kInt8 || b.dtype() != DType::kInt8 || a.shape() != b.shape())
    throw InputError("int8_distance: tensors must be int8 of the same shape");
  Distance d;
  d.count = a.numel();
  for (int64_t i = 0; i < d.count; ++i) {
    const int diff = std::abs(int{a.data<int8_t>()[i]} - int{b.data<int8_t>()[i]});
    d.exact += diff == 0;
    if (diff > d.max_abs_diff) d.max_abs_diff = diff;
  }
  return d;
}

}  // namespace cosim::ops
