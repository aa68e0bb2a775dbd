// The golden model of @NAME@ against sums worked out by hand, across the
// 32-bit wrap in both directions.
#include <gtest/gtest.h>

#include <stdexcept>

#include "@NAME@/@NAME@_model.hpp"

namespace cosim::@NAME@ {
namespace {

TEST(@NAME@Model, AddsAndWraps) {
  EXPECT_EQ(add_wrap(2, 3), 5);
  EXPECT_EQ(add_wrap(-7, 4), -3);
  EXPECT_EQ(add_wrap(2147483647, 1), -2147483647 - 1);  // 0x7fffffff + 1 = 0x80000000
  EXPECT_EQ(add_wrap(-2147483647 - 1, -1), 2147483647);
  EXPECT_EQ(add_wrap(-1, -1), -2);
}

TEST(@NAME@Model, Tensors) {
  Tensor a(DType::kInt32, {4}), b(DType::kInt32, {4});
  const int32_t va[] = {1, -1, 1000000000, 2000000000};
  const int32_t vb[] = {2, 1, 1000000000, 2000000000};
  const int32_t want[] = {3, 0, 2000000000, -294967296};  // 4e9 - 2^32
  for (int i = 0; i < 4; ++i) {
    a.data<int32_t>()[i] = va[i];
    b.data<int32_t>()[i] = vb[i];
  }
  const Tensor c = vadd_wrap(a, b);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(c.data<int32_t>()[i], want[i]) << i;
}

TEST(@NAME@Model, Rejects) {
  EXPECT_THROW(vadd_wrap(Tensor(DType::kInt32, {4}), Tensor(DType::kInt32, {5})), std::invalid_argument);
  EXPECT_THROW(vadd_wrap(Tensor(DType::kInt8, {4}), Tensor(DType::kInt8, {4})), std::invalid_argument);
}

}  // namespace
}  // namespace cosim::@NAME@
