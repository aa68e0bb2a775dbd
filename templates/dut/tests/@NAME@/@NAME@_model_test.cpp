// The golden model of @NAME@, case by case: int8 sums worked out by hand,
// including both saturation limits.
#include <gtest/gtest.h>

#include <stdexcept>

#include "@NAME@/@NAME@_model.hpp"

namespace cosim::@NAME@ {
namespace {

TEST(@NAME@Model, AddsInRange) {
  EXPECT_EQ(add_sat(3, 4), 7);
  EXPECT_EQ(add_sat(-5, 2), -3);
  EXPECT_EQ(add_sat(100, 27), 127);
  EXPECT_EQ(add_sat(-100, -28), -128);
}

TEST(@NAME@Model, SaturatesAtBothEnds) {
  EXPECT_EQ(add_sat(127, 1), 127);
  EXPECT_EQ(add_sat(100, 100), 127);
  EXPECT_EQ(add_sat(-128, -1), -128);
  EXPECT_EQ(add_sat(-128, -128), -128);
  EXPECT_EQ(add_sat(127, -128), -1);
}

TEST(@NAME@Model, TensorElementWise) {
  Tensor a(DType::kInt8, {2, 3});
  Tensor b(DType::kInt8, {2, 3});
  const int8_t va[] = {1, 120, -120, 0, 64, -1};
  const int8_t vb[] = {2, 10, -10, 0, 64, 1};
  const int8_t want[] = {3, 127, -128, 0, 127, 0};
  for (int i = 0; i < 6; ++i) {
    a.data<int8_t>()[i] = va[i];
    b.data<int8_t>()[i] = vb[i];
  }
  const Tensor out = vadd_sat(a, b);
  ASSERT_EQ(out.shape(), a.shape());
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out.data<int8_t>()[i], want[i]) << "element " << i;
}

TEST(@NAME@Model, RejectsMismatchedShapes) {
  EXPECT_THROW(vadd_sat(Tensor(DType::kInt8, {4}), Tensor(DType::kInt8, {8})), std::invalid_argument);
  EXPECT_THROW(vadd_sat(Tensor(DType::kInt16, {4}), Tensor(DType::kInt16, {4})), std::invalid_argument);
}

}  // namespace
}  // namespace cosim::@NAME@
