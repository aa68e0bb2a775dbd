// The kernels the four float MLPerf Tiny models added to the interpreter:
// float DEPTHWISE_CONV_2D and TFLite's dynamic-range ("hybrid") kernels with
// their on-the-fly activation quantization, on values worked out by hand;
// and the interpreter on a [1, N] input and on what it refuses. The same
// kernels against the TFLite runtime: tests/tflite/float_referee_test.cpp.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/error.hpp"
#include "model_builder.hpp"
#include "tflite/model.hpp"
#include "tflite_float/float_ops.hpp"
#include "tflite_float/interpreter.hpp"

namespace {

using namespace cosim::tflite_float;
using cosim::tflite::FusedActivation;
using cosim::tflite::PaddingType;

std::vector<int> ints(const std::vector<int8_t>& q) { return std::vector<int>(q.begin(), q.end()); }

TEST(DynamicRange, SymmetricQuantizationRoundsHalfAwayFromZero) {
  // range 127: scale 1, q = round(x), ties away from zero, clamped to +-127.
  const std::vector<float> x = {127.0f, 0.5f, -0.5f, 2.5f, -126.6f};
  const QuantizedRow r = quantize_symmetric(x.data(), x.size());
  EXPECT_EQ(ints(r.q), (std::vector<int>{127, 1, -1, 3, -127}));
  EXPECT_EQ(r.scale, 1.0f);
  EXPECT_EQ(r.zero_point, 0);
  // range 1.27: scale 0.01.
  const std::vector<float> y = {-1.0f, 0.5f, 0.25f, 1.27f};
  const QuantizedRow s = quantize_symmetric(y.data(), y.size());
  EXPECT_EQ(ints(s.q), (std::vector<int>{-100, 50, 25, 127}));
  EXPECT_FLOAT_EQ(s.scale, 0.01f);
}

TEST(DynamicRange, AsymmetricQuantizationTakesTheZeroPointFromTheCloserEnd) {
  // [0, 2.55]: scale 0.01, zero point at the low end, -128.
  const std::vector<float> pos = {0.0f, 1.0f, 2.55f};
  const QuantizedRow a = quantize_asymmetric(pos.data(), pos.size());
  EXPECT_EQ(a.zero_point, -128);
  EXPECT_FLOAT_EQ(a.scale, 0.01f);
  EXPECT_EQ(ints(a.q), (std::vector<int>{-128, -28, 127}));
  // [-2.55, 0] (0 is always in the range): zero point 127.
  const std::vector<float> neg = {-2.55f, -1.0f};
  const QuantizedRow b = quantize_asymmetric(neg.data(), neg.size());
  EXPECT_EQ(b.zero_point, 127);
  EXPECT_EQ(ints(b.q), (std::vector<int>{-128, 27}));
  // [-0.5, 1]: scale 1.5/255, zero point -43 (from either end).
  const std::vector<float> mixed = {1.0f, -0.5f};
  const QuantizedRow c = quantize_asymmetric(mixed.data(), mixed.size());
  EXPECT_EQ(c.zero_point, -43);
  EXPECT_EQ(ints(c.q), (std::vector<int>{127, -128}));
}

TEST(DynamicRange, AnAllZeroRowQuantizesToZeroWithScaleOne) {
  const std::vector<float> z(5, 0.0f);
  for (const QuantizedRow& r : {quantize_symmetric(z.data(), z.size()), quantize_asymmetric(z.data(), z.size())}) {
    EXPECT_EQ(ints(r.q), std::vector<int>(5, 0));
    EXPECT_EQ(r.scale, 1.0f);
    EXPECT_EQ(r.zero_point, 0);
  }
}

TEST(DynamicRange, ConvPerTensorIsSymmetric) {
  // x = {1, -0.5} -> q {127, -64}, s_in 1/127; w {2, 3} s_w 0.5: acc 254 - 192 = 62.
  const Map in{1, 1, 2, {1.0f, -0.5f}};
  cosim::tflite::Conv2DOptions o;
  o.padding = PaddingType::kValid;
  const Map y = hybrid_conv2d(in, {{2, 3}, {0.5f}}, 1, 1, 1, {1.0f}, o);
  ASSERT_EQ(y.v.size(), 1u);
  EXPECT_NEAR(y.v[0], 1.0 + 62.0 * 0.5 / 127.0, 1e-6);
}

TEST(DynamicRange, ConvPerChannelIsAsymmetricAndPadsAtTheZeroPoint) {
  // x = {1, -0.5} -> q {127, -128}, zp -43, s_in 1.5/255. A 3x3 SAME filter
  // on a 1x1 map: only the centre tap is inside; the outer taps (all 5) must
  // add nothing, which they do only if the padding is the zero point.
  const Map in{1, 1, 2, {1.0f, -0.5f}};
  std::vector<int8_t> w(2 * 9 * 2, 5);
  const int centre = (1 * 3 + 1) * 2;
  w[centre] = 2, w[centre + 1] = 3;                  // channel 0: 2*170 + 3*(-85) = 85
  w[18 + centre] = 1, w[18 + centre + 1] = -1;       // channel 1: 170 + 85 = 255
  cosim::tflite::Conv2DOptions o;
  o.padding = PaddingType::kSame;
  const Map y = hybrid_conv2d(in, {w, {0.5f, 0.25f}}, 2, 3, 3, {}, o);
  ASSERT_EQ(y.v.size(), 2u);
  EXPECT_NEAR(y.v[0], 85 * 0.5 * 1.5 / 255, 1e-6);   // 0.25
  EXPECT_NEAR(y.v[1], 255 * 0.25 * 1.5 / 255, 1e-6); // 0.375
}

TEST(DynamicRange, ConvRefusesDilation) {
  const Map in{3, 3, 1, std::vector<float>(9, 1.0f)};
  cosim::tflite::Conv2DOptions o;
  o.dilation_h = 2;
  EXPECT_THROW(hybrid_conv2d(in, {std::vector<int8_t>(9, 1), {1.0f}}, 1, 3, 3, {}, o), cosim::InputError);
}

TEST(DynamicRange, DepthwisePerChannel) {
  const Map in{1, 1, 2, {1.0f, -0.5f}};
  std::vector<int8_t> w(9 * 2, 7);  // outer taps fall on the padding
  w[8] = 2, w[9] = -1;              // centre (1,1): channel 0 -> 2, channel 1 -> -1
  cosim::tflite::DepthwiseConv2DOptions o;
  o.padding = PaddingType::kSame;
  o.activation = FusedActivation::kRelu6;
  const Map y = hybrid_depthwise_conv2d(in, {w, {0.5f, 0.25f}}, 3, 3, {0.0f, 0.0f}, o);
  ASSERT_EQ(y.v.size(), 2u);
  EXPECT_NEAR(y.v[0], 2 * 170 * (1.5 / 255) * 0.5, 1e-6);    // 1.0
  EXPECT_NEAR(y.v[1], -1 * -85 * (1.5 / 255) * 0.25, 1e-6);  // 0.125
  EXPECT_THROW(hybrid_depthwise_conv2d(in, {w, {0.5f}}, 3, 3, {}, o), cosim::InputError);  // TFLite needs per channel
}

TEST(DynamicRange, FullyConnectedQuantizesEachRow) {
  // Two rows: {1, -0.5} and zeros; one unit, w {2, 3}, s_w 0.5, bias 1.
  const std::vector<float> x = {1.0f, -0.5f, 0.0f, 0.0f};
  const HybridWeights w{{2, 3}, {0.5f}};
  const std::vector<float> sym = hybrid_fully_connected(x, w, 1, {1.0f}, FusedActivation::kNone, false);
  ASSERT_EQ(sym.size(), 2u);
  EXPECT_NEAR(sym[0], 1.0 + 62 * 0.5 / 127.0, 1e-6);
  EXPECT_EQ(sym[1], 1.0f);  // an all-zero row gives the bias
  // Asymmetric: q {127, -128}, zp -43: 2*127 + 3*(-128) - (2+3)*(-43) = 85.
  const std::vector<float> asym = hybrid_fully_connected(x, w, 1, {1.0f}, FusedActivation::kNone, true);
  EXPECT_NEAR(asym[0], 1.0 + 85 * 0.5 * 1.5 / 255, 1e-6);  // 1.25
  EXPECT_EQ(asym[1], 1.0f);
  EXPECT_THROW(hybrid_fully_connected(x, {{2, 3, 4, 5}, {0.5f, 0.25f}}, 2, {}, FusedActivation::kNone, false),
               cosim::InputError);  // per-channel FC scales
}

TEST(DynamicRange, SumsThatCouldOverflowInt32AreRefused) {
  // 66312 products of up to 127 * 255 can pass 2^31.
  const std::vector<float> x(66312, 1.0f);
  const HybridWeights w{std::vector<int8_t>(66312, 1), {1.0f}};
  EXPECT_THROW(hybrid_fully_connected(x, w, 1, {}, FusedActivation::kNone, false), cosim::InputError);
  const HybridWeights ok{std::vector<int8_t>(66311, 1), {1.0f}};
  EXPECT_NO_THROW(hybrid_fully_connected(std::vector<float>(66311, 1.0f), ok, 1, {}, FusedActivation::kNone, false));
}

TEST(FloatDepthwise, SameWithDilationCountsOnlyTapsInsideTheMap) {
  // 3x3 map of ones, 3x3 filter of ones, dilation 2, SAME (pad 2 each side):
  // the corners see the four corner pixels, the centre only itself.
  const Map in{3, 3, 1, std::vector<float>(9, 1.0f)};
  cosim::tflite::DepthwiseConv2DOptions o;
  o.padding = PaddingType::kSame;
  o.dilation_h = o.dilation_w = 2;
  const Map y = depthwise_conv2d(in, std::vector<float>(9, 1.0f), 3, 3, {}, o);
  ASSERT_EQ(y.v.size(), 9u);
  EXPECT_EQ(y.v[0], 4.0f);
  EXPECT_EQ(y.v[4], 1.0f);
  EXPECT_EQ(y.v[1], 2.0f);
}

TEST(FloatDepthwise, DepthMultiplierMapsOutputChannelToInputChannel) {
  // 1x1 map {2, 3}, multiplier 2: outputs 0,1 read channel 0, outputs 2,3 channel 1.
  const Map in{1, 1, 2, {2.0f, 3.0f}};
  cosim::tflite::DepthwiseConv2DOptions o;
  o.padding = PaddingType::kValid;
  o.depth_multiplier = 2;
  const Map y = depthwise_conv2d(in, {1.0f, -1.0f, 10.0f, 0.5f}, 1, 1, {0.5f, 0.0f, 0.0f, 1.0f}, o);
  EXPECT_EQ(y.c, 4);
  EXPECT_EQ(y.v, (std::vector<float>{2.5f, -2.0f, 30.0f, 2.5f}));
}

// ---- the interpreter ---------------------------------------------------------

using namespace tfltest;
namespace tf = cosim::tflite_float;

// in [1, 2] -> FULLY_CONNECTED (weights [1, 2], bias [1]) -> out [1, 1];
// int8 weights {2, 3} with scale 0.5 when `int8`, else float {2, 3}.
ModelSpec dense_model(bool int8, int64_t zero_point = 0) {
  ModelSpec m;
  m.codes = {{9, 9}};
  m.buffers.push_back({});
  m.buffers.push_back(int8 ? le_bytes<int8_t>({2, 3}) : le_bytes<float>({2.0f, 3.0f}));
  m.buffers.push_back(le_bytes<float>({1.0f}));
  m.buffers.push_back({});
  m.tensors = {{{1, 2}, 0, 1, "in", {}, {}, 0},
               {{1, 2}, static_cast<int8_t>(int8 ? 9 : 0), 2, "w", int8 ? std::vector<float>{0.5f} : std::vector<float>{},
                int8 ? std::vector<int64_t>{zero_point} : std::vector<int64_t>{}, 0},
               {{1}, 0, 3, "bias", {}, {}, 0},
               {{1, 1}, 0, 4, "out", {}, {}, 0}};
  m.inputs = {0};
  m.outputs = {3};
  m.ops = {{0, {0, 1, 2}, {3}, 8, {{0, 0, true}, {1, 0, true}, {2, 0, true}, {3, 0, true}}}};
  return m;
}

cosim::tflite::Model parse(const std::vector<uint8_t>& bytes, const char* name) {
  return cosim::tflite::parse_model(bytes.data(), bytes.size(), name);
}

TEST(FloatInterpreter, FullyConnectedOnATwoDimensionalInput) {
  const auto bytes = build(dense_model(false));
  const auto m = parse(bytes, "dense.tflite");
  const tf::Values v = tf::run(m, {1.0f, -0.5f});
  EXPECT_EQ(v[3], (std::vector<float>{1.0f + 2.0f - 1.5f}));
}

TEST(FloatInterpreter, Int8WeightsRunTheHybridKernel) {
  const auto bytes = build(dense_model(true));
  const auto m = parse(bytes, "hybrid.tflite");
  const tf::Values v = tf::run(m, {1.0f, -0.5f});
  ASSERT_EQ(v[3].size(), 1u);
  EXPECT_NEAR(v[3][0], 1.0 + 62 * 0.5 / 127.0, 1e-6);  // symmetric: asymmetric_quantize_inputs is false
}

TEST(FloatInterpreter, Int8WeightsWithAZeroPointAreOneInputError) {
  const auto bytes = build(dense_model(true, 3));
  const auto m = parse(bytes, "zp.tflite");
  try {
    tf::check_supported(m);
    FAIL() << "no error";
  } catch (const cosim::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("operator 0 (FULLY_CONNECTED): int8 weights 'w' have zero point 3"), std::string::npos)
        << e.what();
  }
}

TEST(FloatInterpreter, HybridDepthwiseWithOneScaleIsOneInputError) {
  ModelSpec s;
  s.codes = {{4, 4}};
  s.buffers = {{}, {}, le_bytes<int8_t>(std::vector<int8_t>(18, 1)), {}};
  s.tensors = {{{1, 3, 3, 2}, 0, 1, "in", {}, {}, 0},
               {{1, 3, 3, 2}, 9, 2, "dw", {0.5f}, {0}, 3},
               {{1, 3, 3, 2}, 0, 3, "out", {}, {}, 0}};
  s.inputs = {0};
  s.outputs = {2};
  s.ops = {{0, {0, 1, -1}, {2}, 2, {{0, 0, true}, {1, 1, false}, {2, 1, false}, {3, 1, false}}}};
  const auto bytes = build(s);
  const auto m = parse(bytes, "dw.tflite");
  try {
    tf::check_supported(m);
    FAIL() << "no error";
  } catch (const cosim::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("needs one per output channel (2)"), std::string::npos) << e.what();
  }
}

}  // namespace
