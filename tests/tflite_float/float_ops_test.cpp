// Float kernels on maps small enough to work out by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "common/error.hpp"
#include "tflite_float/float_ops.hpp"

namespace {

using namespace cosim::tflite_float;
using cosim::tflite::FusedActivation;
using cosim::tflite::PaddingType;

TEST(FloatOps, SamePaddingPutsTheOddPixelAfterTheMap) {
  EXPECT_EQ(output_size(32, 3, 2, 1, PaddingType::kSame), 16);
  EXPECT_EQ(padding_before(32, 3, 2, 1, PaddingType::kSame), 0);  // total 1: 0 before, 1 after
  EXPECT_EQ(padding_before(32, 3, 1, 1, PaddingType::kSame), 1);
  EXPECT_EQ(output_size(32, 3, 1, 1, PaddingType::kValid), 30);
}

TEST(FloatOps, Conv3x3Stride2Same) {
  // 4x4 map 1..16, all-ones 3x3 filter, bias 1: windows rows/cols 0..2 and 2..4 (4 = padding).
  Map in{4, 4, 1, {}};
  for (int i = 1; i <= 16; ++i) in.v.push_back(static_cast<float>(i));
  cosim::tflite::Conv2DOptions o;
  o.padding = PaddingType::kSame;
  o.stride_h = o.stride_w = 2;
  const Map y = conv2d(in, std::vector<float>(9, 1.0f), 1, 3, 3, {1.0f}, o);
  ASSERT_EQ(y.h, 2);
  ASSERT_EQ(y.w, 2);
  EXPECT_EQ(y.v, (std::vector<float>{1 + 54, 1 + 45, 1 + 72, 1 + 54}));
}

TEST(FloatOps, Conv1x1ReadsOhwiAndAppliesRelu) {
  Map in{1, 1, 2, {1.0f, -2.0f}};
  cosim::tflite::Conv2DOptions o;
  o.padding = PaddingType::kValid;
  o.activation = FusedActivation::kRelu;
  // o0 = 1*1 + 1*(-2) = -1 -> 0; o1 = 3*1 + 1*(-2) = 1.
  const Map y = conv2d(in, {1, 1, 3, 1}, 2, 1, 1, {}, o);
  EXPECT_EQ(y.v, (std::vector<float>{0.0f, 1.0f}));
}

TEST(FloatOps, AveragePoolCountsOnlyTapsInsideTheMap) {
  Map in{3, 3, 1, {1, 2, 3, 4, 5, 6, 7, 8, 9}};
  cosim::tflite::Pool2DOptions o;
  o.padding = PaddingType::kSame;
  o.stride_h = o.stride_w = 2;
  o.filter_height = o.filter_width = 2;
  const Map y = average_pool2d(in, o);
  // (1+2+4+5)/4, (3+6)/2, (7+8)/2, 9/1
  EXPECT_EQ(y.v, (std::vector<float>{3.0f, 4.5f, 7.5f, 9.0f}));
}

TEST(FloatOps, FullyConnectedAndAddWithRelu6) {
  EXPECT_EQ(fully_connected({1, 2}, {1, 0, 2, -1, 0.5f, 0.5f}, 3, {0, 1, -1}, FusedActivation::kNone),
            (std::vector<float>{1.0f, 1.0f, 0.5f}));
  EXPECT_EQ(add({1, 5}, {-3, 2}, FusedActivation::kRelu6), (std::vector<float>{0.0f, 6.0f}));
  EXPECT_THROW(add({1}, {1, 2}, FusedActivation::kNone), cosim::InputError);
}

TEST(FloatOps, SoftmaxWithBeta) {
  const std::vector<float> y = softmax({0.0f, std::log(2.0f)}, 2, 1.0f);  // 1 : 2
  EXPECT_NEAR(y[0], 1.0 / 3, 1e-6);
  EXPECT_NEAR(y[1], 2.0 / 3, 1e-6);
  const std::vector<float> z = softmax({0.0f, std::log(2.0f)}, 2, 2.0f);  // 1 : 4
  EXPECT_NEAR(z[0], 0.2, 1e-6);
  EXPECT_NEAR(z[1], 0.8, 1e-6);
}

TEST(FloatOps, UnsupportedActivationIsInputError) {
  std::vector<float> v{1.0f};
  EXPECT_THROW(activate(v, FusedActivation::kTanh), cosim::InputError);
}

}  // namespace
