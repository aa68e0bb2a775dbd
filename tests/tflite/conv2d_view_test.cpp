// The CONV_2D views of other operators, for accelerators whose matrix engine
// runs convolutions: FULLY_CONNECTED as a 1x1 CONV_2D
// (tflite/fully_connected_as_conv.hpp) and DEPTHWISE_CONV_2D as a
// block-diagonal CONV_2D (tflite/depthwise_as_conv.hpp). On random shapes,
// quantizations, activations, windows and both roundings, ops::conv2d on the
// view gives the bytes the operator's own kernel (ops::fully_connected,
// ops::depthwise_conv2d) gives. The kernels are written separately, so a
// wrong reshape, filter layout, zero point or multiplier broadcast fails.
#include <gtest/gtest.h>

#include <random>

#include "common/error.hpp"
#include "tflite/depthwise_as_conv.hpp"
#include "tflite/fully_connected_as_conv.hpp"

namespace {

using cosim::DType;
using cosim::Tensor;
using cosim::tflite::LayerWorkload;

void fill(Tensor& t, std::mt19937& rng, int lo, int hi) {
  std::uniform_int_distribution<int> d(lo, hi);
  for (int64_t i = 0; i < t.numel(); ++i) {
    if (t.dtype() == DType::kInt8) t.data<int8_t>()[i] = static_cast<int8_t>(d(rng));
    else t.data<int32_t>()[i] = d(rng);
  }
}

LayerWorkload random_depthwise(std::mt19937& rng, cosim::quant::Rounding rounding) {
  std::uniform_int_distribution<int> hw_d(1, 12), c_d(1, 20), k_d(1, 4), s_d(1, 2), m_d(1, 3), zp_d(-128, 127),
      act_d(0, 2);
  std::uniform_real_distribution<float> scale_d(0.001f, 0.1f);
  const int64_t ic = c_d(rng), m = m_d(rng), kh = k_d(rng), kw = k_d(rng);
  LayerWorkload dw;
  dw.code = cosim::tflite::kDepthwiseConv2d;
  dw.op = "DEPTHWISE_CONV_2D";
  dw.name = "dw";
  dw.filter = Tensor(DType::kInt8, {1, kh, kw, ic * m});
  fill(dw.filter, rng, -127, 127);
  if (rng() % 4 != 0) {
    dw.bias = Tensor(DType::kInt32, {ic * m});
    fill(dw.bias, rng, -20000, 20000);
  }
  std::vector<float> filter_scales(rng() % 2 == 0 ? 1 : static_cast<std::size_t>(ic * m));
  for (float& s : filter_scales) s = scale_d(rng);
  dw.conv = cosim::ops::make_conv_params(scale_d(rng), zp_d(rng), filter_scales, scale_d(rng), zp_d(rng),
                                         static_cast<cosim::quant::Activation>(act_d(rng)), rounding);
  dw.conv.padding = rng() % 2 == 0 ? cosim::ops::Padding::kSame : cosim::ops::Padding::kValid;
  dw.conv.stride_h = s_d(rng), dw.conv.stride_w = s_d(rng);
  dw.conv.dilation_h = s_d(rng), dw.conv.dilation_w = s_d(rng);
  dw.conv.depth_multiplier = static_cast<int>(m);
  // Big enough for a VALID window.
  const int64_t h = hw_d(rng) + (kh - 1) * dw.conv.dilation_h, w = hw_d(rng) + (kw - 1) * dw.conv.dilation_w;
  Tensor in(DType::kInt8, {1, h, w, ic});
  fill(in, rng, -128, 127);
  dw.inputs = {in};
  dw.expected = dw.run(dw.inputs);
  dw.output_shape = dw.expected.shape();
  dw.has_data = true;
  return dw;
}

Tensor random_tensor(DType t, std::vector<int64_t> shape, std::mt19937& rng, int lo, int hi) {
  Tensor x(t, std::move(shape));
  fill(x, rng, lo, hi);
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

// 300 random layers per rounding from `make`, each equal to its CONV_2D `view` byte for byte.
template <class Make, class View>
void expect_views_equal(Make make, View view) {
  std::mt19937 rng(20261128);
  for (const auto rounding : {cosim::quant::Rounding::kDouble, cosim::quant::Rounding::kSingle}) {
    for (int k = 0; k < 300; ++k) {
      const LayerWorkload layer = make(rng, rounding);
      const LayerWorkload conv = view(layer);
      ASSERT_EQ(conv.code, cosim::tflite::kConv2d);
      const Tensor y = conv.run(conv.inputs);
      ASSERT_EQ(y.shape(), conv.expected.shape()) << "case " << k;
      ASSERT_EQ(y.bytes(), layer.expected.bytes()) << "case " << k;
    }
  }
}

TEST(FullyConnectedAsConv, RandomLayersGiveTheSameBytesInBothRoundings) {
  expect_views_equal(random_fc, [](const LayerWorkload& fc) {
    const LayerWorkload conv = cosim::tflite::fully_connected_as_conv2d(fc);
    const int64_t rows = fc.output_shape[0], units = fc.output_shape[1], depth = fc.filter.dim(1);
    EXPECT_EQ(conv.inputs.at(0).shape(), (std::vector<int64_t>{1, 1, rows, depth}));
    EXPECT_EQ(conv.output_shape, (std::vector<int64_t>{1, 1, rows, units}));
    return conv;
  });
}

TEST(DepthwiseAsConv, RandomLayersGiveTheSameBytesInBothRoundings) {
  expect_views_equal(random_depthwise, [](const LayerWorkload& dw) {
    const LayerWorkload conv = cosim::tflite::depthwise_as_conv2d(dw);
    EXPECT_EQ(conv.filter.dim(0), dw.filter.dim(3));
    EXPECT_EQ(conv.filter.dim(3), dw.inputs[0].dim(3));
    return conv;
  });
}

TEST(FullyConnectedAsConv, OnlyAFullyConnectedAndWholeRows) {
  std::mt19937 rng(7);
  LayerWorkload fc = random_fc(rng, cosim::quant::Rounding::kDouble);
  LayerWorkload add = fc;
  add.code = cosim::tflite::kAdd;
  add.op = "ADD";
  EXPECT_THROW(cosim::tflite::fully_connected_as_conv2d(add), cosim::InputError);
  fc.output_shape = {fc.output_shape[0] * fc.output_shape[1] + 1};  // not a whole number of rows
  if (fc.filter.dim(0) > 1) {
    EXPECT_THROW(cosim::tflite::fully_connected_as_conv2d(fc), cosim::InputError);
  }
}

TEST(DepthwiseAsConv, OnlyADepthwiseConvolution) {
  std::mt19937 rng(3);
  LayerWorkload dw = random_depthwise(rng, cosim::quant::Rounding::kDouble);
  dw.code = cosim::tflite::kConv2d;
  EXPECT_THROW(cosim::tflite::depthwise_as_conv2d(dw), cosim::InputError);
}

}  // namespace
