// AVERAGE_POOL_2D and FULLY_CONNECTED in TFLite int8 reference semantics, on
// values worked by hand (the bit-exact check against the TFLite runtime on
// the shipped models is tests/tflite/referee_test.cpp).
#include <gtest/gtest.h>

#include <vector>

#include "common/error.hpp"
#include "ops/fully_connected.hpp"
#include "ops/pool.hpp"
#include "ops_test_util.hpp"

namespace {

using namespace cosim;
using namespace cosim::ops;

using opstest::i8;
std::vector<int> values(const Tensor& t) { return opstest::values<int8_t>(t); }

TEST(AveragePool, RoundsHalfAwayFromZeroOverTheTapsInside) {
  // 2x2 map, one channel, SAME 2x2 window stride 1: the windows at the right
  // and bottom edges count only the taps inside.
  PoolParams p;
  p.padding = Padding::kSame;
  p.filter_h = p.filter_w = 2;
  const Tensor y = average_pool2d(i8({1, 2, 2, 1}, {1, 2, 4, 6}), p);
  // (1+2+4+6)/4 = 3.25 -> 3; (2+6)/2 = 4; (4+6)/2 = 5; 6/1 = 6.
  EXPECT_EQ(values(y), (std::vector<int>{3, 4, 5, 6}));
  // Halves go away from zero: 5/2 = 2.5 -> 3 and -5/2 -> -3; -7/4 = -1.75 -> -2.
  p.padding = Padding::kValid;
  p.filter_h = 1;
  EXPECT_EQ(values(average_pool2d(i8({1, 1, 2, 1}, {2, 3}), p)), (std::vector<int>{3}));
  EXPECT_EQ(values(average_pool2d(i8({1, 1, 2, 1}, {-2, -3}), p)), (std::vector<int>{-3}));
  p.filter_h = 2;
  EXPECT_EQ(values(average_pool2d(i8({1, 2, 2, 1}, {-1, -2, -2, -2}), p)), (std::vector<int>{-2}));
}

TEST(AveragePool, GlobalPoolPerChannelAndClampToTheActivation) {
  // 2x2 map, two channels: channel 0 averages 10, 20, 30, 41 = 25.25 -> 25,
  // channel 1 -100, -100, -100, -101 = -100.25 -> -100, clamped to RELU's
  // lower bound (the zero point, here -20).
  PoolParams p;
  p.filter_h = p.filter_w = 2;
  p.act = {-20, 127};
  const Tensor y = average_pool2d(i8({1, 2, 2, 2}, {10, -100, 20, -100, 30, -100, 41, -101}), p);
  EXPECT_EQ(y.shape(), (std::vector<int64_t>{1, 1, 1, 2}));
  EXPECT_EQ(values(y), (std::vector<int>{25, -20}));
}

TEST(AveragePool, BadShapeIsInputError) {
  PoolParams p;
  p.filter_h = p.filter_w = 3;
  EXPECT_THROW(average_pool2d(i8({1, 2, 2, 1}, {0, 0, 0, 0}), p), InputError);  // VALID 3x3 on 2x2
  EXPECT_THROW(average_pool2d(i8({2, 2}, {0, 0, 0, 0}), PoolParams{}), InputError);
}

TEST(FullyConnected, IntegerDotThenRequantize) {
  // Input zero point -1: values 2, 0, -3 are 3, 1, -2 above it. Units:
  // w0 = (1, 2, 3): 3 + 2 - 6 = -1, + bias 10 = 9;
  // w1 = (-4, 0, 5): -12 + 0 - 10 = -22, + bias 0 = -22.
  // Multiplier 0.5 (s_in 0.5 * s_f 1 / s_out 1): 4.5 and -11, rounded half
  // away from zero by the fixed-point multiply (both roundings agree here:
  // 9 * 2^30 / 2^31 = 4.5 -> 5, -22 / 2 = -11); + output zero point 3.
  const Tensor filter = i8({2, 3}, {1, 2, 3, -4, 0, 5});
  Tensor bias(DType::kInt32, {2});
  bias.data<int32_t>()[0] = 10;
  bias.data<int32_t>()[1] = 0;
  for (quant::Rounding r : {quant::Rounding::kDouble, quant::Rounding::kSingle}) {
    const FullyConnectedParams p = make_fully_connected_params(0.5f, -1, {1.0f}, 1.0f, 3, quant::Activation::kNone, r);
    EXPECT_EQ(values(fully_connected(i8({1, 3}, {2, 0, -3}), filter, bias, p)), (std::vector<int>{8, -8}));
  }
  // Per-channel: unit 1 at filter scale 0.25 -> multiplier 0.125: -22 / 8 =
  // -2.75 -> -3, + 3 = 0. Without bias, unit 0 is -1 * 0.5 = -0.5: the
  // fixed-point multiply rounds a tie up, (-2^30 + (1 - 2^30)) / 2^31
  // truncates to 0 (double rounding; single rounding adds 2^30 then shifts:
  // 0 as well), + 3 = 3.
  for (quant::Rounding r : {quant::Rounding::kDouble, quant::Rounding::kSingle}) {
    const FullyConnectedParams pc =
        make_fully_connected_params(0.5f, -1, {1.0f, 0.25f}, 1.0f, 3, quant::Activation::kNone, r);
    EXPECT_EQ(values(fully_connected(i8({1, 3}, {2, 0, -3}), filter, Tensor(), pc)), (std::vector<int>{3, 0}));
  }
}

TEST(FullyConnected, AccumulatorWrapsLikeInt32) {
  // Bias 2^31 - 1 plus 1 * 1 is 2^31, which an int32 accumulator wraps to
  // -2^31; times the multiplier 0.5 that is -2^30, clamped to -128. A
  // saturating (or 64-bit) sum would give 2^30 and 127. Found by libFuzzer
  // (fuzz_tflite, UBSan: signed overflow in the int32 sum).
  Tensor bias(DType::kInt32, {1});
  bias.data<int32_t>()[0] = 2147483647;
  for (quant::Rounding r : {quant::Rounding::kDouble, quant::Rounding::kSingle}) {
    const FullyConnectedParams p = make_fully_connected_params(0.5f, 0, {1.0f}, 1.0f, 0, quant::Activation::kNone, r);
    EXPECT_EQ(values(fully_connected(i8({1, 1}, {1}), i8({1, 1}, {1}), bias, p)), (std::vector<int>{-128}));
  }
}

TEST(FullyConnected, RowsClampAndShapeErrors) {
  // Two rows of depth 1, weight 100, multiplier 1: 100 and -200 -> clamp to
  // [-128, 127] then RELU's range from output zero point 0.
  const FullyConnectedParams p = make_fully_connected_params(1.0f, 0, {1.0f}, 1.0f, 0, quant::Activation::kRelu);
  EXPECT_EQ(values(fully_connected(i8({2, 1}, {1, -2}), i8({1, 1}, {100}), Tensor(), p)), (std::vector<int>{100, 0}));
  const FullyConnectedParams q = make_fully_connected_params(1.0f, 0, {1.0f}, 1.0f, 0, quant::Activation::kNone);
  EXPECT_EQ(values(fully_connected(i8({2, 1}, {2, -2}), i8({1, 1}, {100}), Tensor(), q)), (std::vector<int>{127, -128}));
  EXPECT_THROW(fully_connected(i8({1, 3}, {0, 0, 0}), i8({1, 2}, {0, 0}), Tensor(), q), InputError);  // 3 % 2
}

}  // namespace
