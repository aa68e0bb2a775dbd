// FULLY_CONNECTED as its 1x1 CONV_2D (tflite/fully_connected_as_conv.hpp):
// on random shapes, quantizations, activations and both roundings, the
// CONV_2D view run by ops::conv2d gives the bytes ops::fully_connected gives
// for the FULLY_CONNECTED itself. The two kernels are written separately, so
// a wrong reshape, filter layout, zero point or multiplier broadcast fails.
#include <gtest/gtest.h>

#include <random>

#include "common/error.hpp"
#include "tflite/fully_connected_as_conv.hpp"

namespace {

using cosim::DType;
using cosim::Tensor;
using cosim::tflite::LayerWorkload;

Tensor random_tensor(DType t, std::vector<int64_t> shape, std::mt19937& rng, int lo, int hi) {
  Tensor x(t, std::move(shape));
  std::uniform_int_distribution<int> d(lo, hi);
  for (int64_t i = 0; i < x.numel(); ++i) {
    if (t == DType::kInt8) x.data<int8_t>()[i] = static_cast<int8_t>(d(rng));
    else x.data<int32_t>()[i] = d(rng);
  }
  return x;
}

LayerWorkload random_fc(std::mt19937& rng, cosim::quant::Rounding rounding) {
  std::uniform_int_distribution<int> rows_d(1, 5), depth_d(1, 80), units_d(1, 40), zp_d(-128, 127), act_d(0, 2);
  std::uniform_real_distribution<float> scale_d(0.001f, 0.1f);
  const int64_t rows = rows_d(rng), depth = depth_d(rng), units = units_d(rng);
  LayerWorkload fc;
  fc.code = cosim::tflite::kFullyConnected;
  fc.op = "FULLY_CONNECTED";
  fc.name = "fc";
  fc.output_shape = {rows, units};
  fc.filter = random_tensor(DType::kInt8, {units, depth}, rng, -127, 127);
  if (rng() % 4 != 0) fc.bias = random_tensor(DType::kInt32, {units}, rng, -20000, 20000);
  std::vector<float> filter_scales(rng() % 2 == 0 ? 1 : static_cast<std::size_t>(units));
  for (float& s : filter_scales) s = scale_d(rng);
  const auto act = static_cast<cosim::quant::Activation>(act_d(rng));
  fc.fc = cosim::ops::make_fully_connected_params(scale_d(rng), zp_d(rng), filter_scales, scale_d(rng), zp_d(rng), act,
                                                  rounding);
  fc.inputs = {random_tensor(DType::kInt8, {rows, depth}, rng, -128, 127)};
  fc.expected = fc.run(fc.inputs);
  fc.has_data = true;
  return fc;
}

TEST(FullyConnectedAsConv, RandomLayersGiveTheSameBytesInBothRoundings) {
  std::mt19937 rng(20261128);
  for (const auto rounding : {cosim::quant::Rounding::kDouble, cosim::quant::Rounding::kSingle}) {
    for (int k = 0; k < 300; ++k) {
      const LayerWorkload fc = random_fc(rng, rounding);
      const LayerWorkload conv = cosim::tflite::fully_connected_as_conv2d(fc);
      ASSERT_EQ(conv.code, cosim::tflite::kConv2d);
      const int64_t rows = fc.output_shape[0], units = fc.output_shape[1], depth = fc.filter.dim(1);
      ASSERT_EQ(conv.inputs.at(0).shape(), (std::vector<int64_t>{1, 1, rows, depth}));
      const Tensor y = conv.run(conv.inputs);
      ASSERT_EQ(y.shape(), (std::vector<int64_t>{1, 1, rows, units})) << "case " << k;
      ASSERT_EQ(conv.expected.shape(), y.shape());
      for (int64_t i = 0; i < y.numel(); ++i)
        ASSERT_EQ(y.data<int8_t>()[i], fc.expected.data<int8_t>()[i]) << "case " << k << " element " << i;
    }
  }
}

TEST(FullyConnectedAsConv, OnlyAFullyConnectedAndWholeRows) {
  std::mt19937 rng(7);
  LayerWorkload fc = random_fc(rng, cosim::quant::Rounding::kDouble);
  LayerWorkload add = fc;
  add.code = cosim::tflite::kAdd;
  add.op = "ADD";
  EXPECT_THROW(cosim::tflite::fully_connected_as_conv2d(add), cosim::InputError);
  fc.output_shape = {fc.output_shape[0] * fc.output_shape[1] + 1};  // not a whole number of rows
  if (fc.filter.dim(0) > 1) EXPECT_THROW(cosim::tflite::fully_connected_as_conv2d(fc), cosim::InputError);
}

}  // namespace
