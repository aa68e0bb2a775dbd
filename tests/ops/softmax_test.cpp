// SOFTMAX in TFLite's int8 fixed-point arithmetic: its pieces against the
// functions they approximate (computed here in double), whole rows against
// the float softmax, and cases worked by hand. The bit-exact check against
// the TFLite runtime on the shipped models is tests/tflite/referee_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "common/error.hpp"
#include "ops/softmax.hpp"

namespace {

using namespace cosim;
using namespace cosim::ops;

TEST(SoftmaxFixedPoint, ExpOnNegativeValuesTracksExp) {
  EXPECT_EQ(exp_on_negative_values_q5(0), INT32_MAX);  // exp(0) = 1, as gemmlowp's One()
  for (double v : {-0.01, -0.125, -0.25, -0.3, -1.0, -2.5, -7.75, -16.0, -31.9}) {
    const auto raw = static_cast<int32_t>(std::lround(v * (1 << 26)));  // Q5.26
    const double got = exp_on_negative_values_q5(raw) / 2147483648.0;   // Q0.31
    EXPECT_NEAR(got, std::exp(v), 2e-8 + 1e-6 * std::exp(v)) << v;
  }
}

TEST(SoftmaxFixedPoint, ReciprocalOfOnePlusX) {
  // Returns 1 / (1 + x) in Q0.31 for x in [0, 1) (at x = 0 the value 1
  // saturates to the largest Q0.31).
  for (double x : {0.0, 0.1, 0.25, 0.5, 0.75, 0.999}) {
    const auto raw = static_cast<int32_t>(std::lround(x * 2147483648.0));
    const double got = one_over_one_plus_x(raw) / 2147483648.0;
    EXPECT_NEAR(got, 1.0 / (1.0 + x), 1e-8) << x;
  }
}

TEST(Softmax, UniformRowIsOneOverDepth) {
  // Four equal logits: 1/4 = 64/256 -> 64 - 128 = -64.
  Tensor in(DType::kInt8, {1, 4});
  for (int i = 0; i < 4; ++i) in.data<int8_t>()[i] = 17;
  const Tensor y = softmax(in, make_softmax_params(1.0, 0.1));
  for (int i = 0; i < 4; ++i) EXPECT_EQ(y.data<int8_t>()[i], -64) << i;
}

TEST(Softmax, FarBelowTheMaximumIsZeroProbability) {
  // input scale 1, beta 1: beta * scale * 2^26 = 0.5 * 2^27, so the left
  // shift is 27 and the radius floor(31 * 2^26 / 2^27) = 15 (a larger
  // difference would overflow int32 when shifted). A difference of 255 is
  // below it: probability 0 -> -128; the maximum takes 255/256 -> 127.
  Tensor in(DType::kInt8, {2});
  in.data<int8_t>()[0] = 127;
  in.data<int8_t>()[1] = -128;
  const SoftmaxParams p = make_softmax_params(1.0, 1.0);
  EXPECT_EQ(p.input_left_shift, 27);
  EXPECT_EQ(p.diff_min, -15);
  const Tensor y = softmax(in, p);
  EXPECT_EQ(y.data<int8_t>()[0], 127);
  EXPECT_EQ(y.data<int8_t>()[1], -128);
}

TEST(Softmax, RowsMatchTheFloatSoftmaxWithinOneStep) {
  std::mt19937 g(7);
  for (double scale : {0.02, 0.1, 0.25}) {
    Tensor in(DType::kInt8, {16, 10});
    for (int64_t i = 0; i < in.numel(); ++i) in.data<int8_t>()[i] = static_cast<int8_t>(static_cast<int>(g() % 256) - 128);
    const Tensor y = softmax(in, make_softmax_params(1.0, scale));
    for (int r = 0; r < 16; ++r) {
      double sum = 0;
      for (int c = 0; c < 10; ++c) sum += std::exp(scale * in.data<int8_t>()[r * 10 + c]);
      for (int c = 0; c < 10; ++c) {
        const double p = std::exp(scale * in.data<int8_t>()[r * 10 + c]) / sum;
        const double want = std::min(127.0, std::floor(p * 256.0) - 128.0);  // rounded down to 8 bits
        EXPECT_NEAR(y.data<int8_t>()[r * 10 + c], want, 1.0) << "scale " << scale << " row " << r << " col " << c;
      }
    }
  }
}

TEST(Softmax, BadInputIsInputError) {
  EXPECT_THROW(make_softmax_params(1.0, 0.0), InputError);
  EXPECT_THROW(softmax(Tensor(DType::kInt32, {4}), make_softmax_params(1.0, 0.1)), InputError);
}

}  // namespace
