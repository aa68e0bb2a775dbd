#include "@NAME@/@NAME@_model.hpp"

#include <algorithm>
#include <stdexcept>

namespace cosim::@NAME@ {

int8_t add_sat(int8_t a, int8_t b) {
  const int wide = static_cast<int>(a) + static_cast<int>(b);
  return static_cast<int8_t>(std::clamp(wide, -128, 127));
}

Tensor vadd_sat(const Tensor& a, const Tensor& b) {
  if (a.dtype() != DType::kInt8 || b.dtype() != DType::kInt8) {
    throw std::invalid_argument("@NAME@: vadd_sat expects int8 tensors");
  }
  if (a.shape() != b.shape()) throw std::invalid_argument("@NAME@: vadd_sat expects tensors of the same shape");
  Tensor out(DType::kInt8, a.shape(), a.layout());
  const int8_t* pa = a.data<int8_t>();
  const int8_t* pb = b.data<int8_t>();
  int8_t* po = out.data<int8_t>();
  for (int64_t i = 0; i < a.numel(); ++i) po[i] = add_sat(pa[i], pb[i]);
  return out;
}

}  // namespace cosim::@NAME@
