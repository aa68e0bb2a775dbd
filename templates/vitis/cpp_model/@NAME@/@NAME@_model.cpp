#include "@NAME@/@NAME@_model.hpp"

#include <stdexcept>

namespace cosim::@NAME@ {

int32_t add_wrap(int32_t a, int32_t b) {
  // In unsigned arithmetic, where overflow is defined to wrap.
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}

Tensor vadd_wrap(const Tensor& a, const Tensor& b) {
  if (a.dtype() != DType::kInt32 || b.dtype() != DType::kInt32) {
    throw std::invalid_argument("@NAME@: vadd_wrap takes int32 tensors");
  }
  if (a.shape() != b.shape()) throw std::invalid_argument("@NAME@: vadd_wrap takes two tensors of one shape");
  Tensor sum(DType::kInt32, a.shape(), a.layout());
  for (int64_t i = 0; i < a.numel(); ++i) sum.data<int32_t>()[i] = add_wrap(a.data<int32_t>()[i], b.data<int32_t>()[i]);
  return sum;
}

}  // namespace cosim::@NAME@
