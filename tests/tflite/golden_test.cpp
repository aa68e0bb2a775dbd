// The layer-by-layer golden run: hand-computed small models, and the real
// models checked against an independent wide-integer reimplementation of the
// spec formulas (shared/spec/quantization.md s.1).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "common/error.hpp"
#include "model_builder.hpp"
#include "support/models.hpp"
#include "tflite/layers.hpp"
#include "tflite/model.hpp"
#include "tflite/reference.hpp"

using namespace cosim;
using namespace cosim::tflite;

namespace {

Model parse(const std::vector<uint8_t>& bytes) { return parse_model(bytes.data(), bytes.size(), "mem.tflite"); }

Tensor i8(std::vector<int64_t> shape, std::vector<int> v) {
  Tensor t(DType::kInt8, std::move(shape));
  for (std::size_t i = 0; i < v.size(); ++i) t.data<int8_t>()[i] = static_cast<int8_t>(v[i]);
  return t;
}
std::vector<int> values(const Tensor& t) {
  std::vector<int> v;
  for (int64_t i = 0; i < t.numel(); ++i) v.push_back(t.data<int8_t>()[i]);
  return v;
}

using cosim::test::model_path;

// ---- independent reimplementation (spec text, 128-bit integers) ----
struct Mult {
  int64_t q;
  int shift;
};
Mult spec_multiplier(double m) {
  int shift = 0;
  const double f = std::frexp(m, &shift);
  int64_t q = std::llround(f * 2147483648.0);
  if (q == (int64_t{1} << 31)) {
    q /= 2;
    ++shift;
  }
  if (shift < -31) return {0, 0};
  return {q, shift};
}
// Single rounding: (x * q + 2^(t-1)) >> t, t = 31 - shift (floor shift).
int64_t spec_single(int64_t x, Mult m) {
  const int t = 31 - m.shift;
  const __int128 p = static_cast<__int128>(x) * m.q + (static_cast<__int128>(1) << (t - 1));
  return static_cast<int64_t>(p >> t);
}
int spec_clamp(int64_t v, int lo, int hi) { return static_cast<int>(std::min<int64_t>(std::max<int64_t>(v, lo), hi)); }

}  // namespace

// acc = {12, -4, 20, 4}, m = 1/8: 1.5, -0.5, 2.5, 0.5. Single rounding rounds
// halves up (2, 0, 3, 1); double rounding rounds the final shift half away
// from zero (2, -1, 3, 1).
TEST(TfliteGolden, OneConvHandComputedBothRoundings) {
  const Model m = parse(tfltest::build(tfltest::one_conv_model()));
  const Tensor x = i8({1, 2, 2, 1}, {5, -3, 9, 1});
  const TensorMap single = run_reference(m, x, quant::Rounding::kSingle);
  EXPECT_EQ(values(single.at(3)), std::vector<int>({2, 0, 3, 1}));
  const TensorMap dbl = run_reference(m, x, quant::Rounding::kDouble);
  EXPECT_EQ(values(dbl.at(3)), std::vector<int>({2, -1, 3, 1}));
  // The workload view carries the same data.
  const auto layers = extract_layers(m, {}, quant::Rounding::kDouble, &dbl);
  ASSERT_EQ(layers.size(), 1u);
  ASSERT_TRUE(layers[0].has_data);
  EXPECT_EQ(layers[0].inputs.at(0), x);
  EXPECT_EQ(layers[0].run(layers[0].inputs), layers[0].expected);
}

// ADD with s1 = s2 = 1, s_out = 2: y = (x1 + x2) / 2. (-5 + 2) / 2 = -1.5:
// single rounding -1, double rounding -2; (3 + 4) / 2 = 3.5 -> 4 in both.
// With RELU the output floor is zp_out = 0.
TEST(TfliteGolden, AddHandComputedBothRoundings) {
  tfltest::ModelSpec s;
  s.codes = {{0, 0}};
  s.tensors = {{{1, 1, 1, 2}, 9, 0, "a", {1.0f}, {0}, 0},
               {{1, 1, 1, 2}, 9, 0, "b", {1.0f}, {0}, 0},
               {{1, 1, 1, 2}, 9, 0, "y", {2.0f}, {0}, 0}};
  s.inputs = {0};
  s.outputs = {2};
  s.ops = {{0, {0, 0}, {2}, 11, {{0, 0, true}}}};  // y = a + a
  // Second input constant so the two operands differ.
  s.buffers.push_back(tfltest::le_bytes<int8_t>({2, 4}));
  s.tensors[1].buffer = 1;
  s.ops[0].inputs = {0, 1};
  const Model m = parse(tfltest::build(s));
  const Tensor x = i8({1, 1, 1, 2}, {-5, 3});
  EXPECT_EQ(values(run_reference(m, x, quant::Rounding::kSingle).at(2)), std::vector<int>({-1, 4}));
  EXPECT_EQ(values(run_reference(m, x, quant::Rounding::kDouble).at(2)), std::vector<int>({-2, 4}));
  s.ops[0].options = {{0, 1, true}};  // RELU
  const Model relu = parse(tfltest::build(s));
  EXPECT_EQ(values(run_reference(relu, x, quant::Rounding::kSingle).at(2)), std::vector<int>({0, 4}));
}

TEST(TfliteGolden, RejectsWrongInput) {
  const Model m = parse(tfltest::build(tfltest::one_conv_model()));
  EXPECT_THROW(run_reference(m, i8({1, 2, 1, 1}, {0, 0}), quant::Rounding::kSingle), InputError);
  EXPECT_THROW(run_reference(m, Tensor(DType::kInt32, {1, 2, 2, 1}), quant::Rounding::kSingle), InputError);
}

TEST(TfliteGolden, RandomInputIsSeeded) {
  const Model m = parse(tfltest::build(tfltest::one_conv_model()));
  EXPECT_EQ(random_input(m, 1), random_input(m, 1));
  EXPECT_NE(random_input(m, 1), random_input(m, 2));
  EXPECT_EQ(random_input(m, 1).shape(), std::vector<int64_t>({1, 2, 2, 1}));
}

// Every supported operator of both int8 models is reached by the chain, and
// each output equals an independent recomputation from the spec formulas on
// the same inputs (single rounding, per-channel multipliers, 128-bit math).
TEST(TfliteGolden, RealModelsMatchIndependentSingleRounding) {
  for (const char* file : {"resnet8_int8.tflite", "kws_dscnn_int8.tflite"}) {
    COSIM_REQUIRE_MODEL(model_path(file));
    const Model m = load_model(model_path(file));
    const SubGraph& sg = m.subgraphs[0];
    const Tensor x = random_input(m, 99);
    const TensorMap g = run_reference(m, x, quant::Rounding::kSingle);
    const auto layers = extract_layers(m, {}, quant::Rounding::kSingle, &g);
    // CONV_2D, DEPTHWISE_CONV_2D, ADD and the one FULLY_CONNECTED of each.
    EXPECT_EQ(layers.size(), std::string(file) == "resnet8_int8.tflite" ? 13u : 10u);
    for (const LayerWorkload& w : layers) {
      ASSERT_TRUE(w.has_data) << file << " " << w.name;
      const Operator& op = sg.operators[w.op_index];
      const TensorInfo& ot = sg.tensors[static_cast<std::size_t>(op.outputs[0])];
      const double so = ot.quant.scale[0];
      const int zo = static_cast<int>(ot.quant.zero_point[0]);
      const Tensor& y = w.expected;
      int64_t checked = 0;
      if (w.code == kAdd) {
        const TensorInfo& a = sg.tensors[static_cast<std::size_t>(op.inputs[0])];
        const TensorInfo& b = sg.tensors[static_cast<std::size_t>(op.inputs[1])];
        const double s1 = a.quant.scale[0], s2 = b.quant.scale[0];
        const double t = 2 * std::max(s1, s2);
        const Mult m1 = spec_multiplier(s1 / t), m2 = spec_multiplier(s2 / t),
                   mo = spec_multiplier(t / (1048576.0 * so));
        const auto act = std::get<AddOptions>(op.options).activation;
        const int lo = act == FusedActivation::kNone ? -128 : std::max(-128, zo);
        for (int64_t i = 0; i < y.numel(); ++i) {
          const int64_t av =
              spec_single((int64_t{w.inputs[0].data<int8_t>()[i]} - a.quant.zero_point[0]) * 1048576, m1);
          const int64_t bv =
              spec_single((int64_t{w.inputs[1].data<int8_t>()[i]} - b.quant.zero_point[0]) * 1048576, m2);
          ASSERT_EQ(y.data<int8_t>()[i], spec_clamp(spec_single(av + bv, mo) + zo, lo, 127)) << w.name << " @" << i;
          ++checked;
        }
      } else if (w.code == kFullyConnected) {
        // Per row and unit: bias + sum (x - zp_in) * w, one multiplier per unit or for all.
        const TensorInfo& it = sg.tensors[static_cast<std::size_t>(op.inputs[0])];
        const TensorInfo& ft = sg.tensors[static_cast<std::size_t>(op.inputs[1])];
        const Tensor f = constant_tensor(m, 0, op.inputs[1]);
        const Tensor b = constant_tensor(m, 0, op.inputs[2]);
        const int64_t units = f.dim(0), depth = f.dim(1), zi = it.quant.zero_point[0];
        const auto act = std::get<FullyConnectedOptions>(op.options).activation;
        const int lo = act == FusedActivation::kNone ? -128 : std::max(-128, zo);
        const int hi = act == FusedActivation::kRelu6 ? std::min(127, zo + static_cast<int>(std::round(6.0 / so))) : 127;
        for (int64_t r = 0; r < y.numel() / units; ++r)
          for (int64_t u = 0; u < units; ++u) {
            int64_t acc = b.data<int32_t>()[u];
            for (int64_t d = 0; d < depth; ++d)
              acc += int64_t{f.data<int8_t>()[u * depth + d]} * (w.inputs[0].data<int8_t>()[r * depth + d] - zi);
            const double fs = ft.quant.scale.size() == 1 ? ft.quant.scale[0] : ft.quant.scale[static_cast<std::size_t>(u)];
            const Mult mm = spec_multiplier(double{it.quant.scale[0]} * fs / so);
            ASSERT_EQ(y.data<int8_t>()[r * units + u], spec_clamp(spec_single(acc, mm) + zo, lo, hi))
                << file << " " << w.name << " row " << r << " unit " << u;
            ++checked;
          }
      } else {
        const bool dw = w.code == kDepthwiseConv2d;
        const TensorInfo& it = sg.tensors[static_cast<std::size_t>(op.inputs[0])];
        const TensorInfo& ft = sg.tensors[static_cast<std::size_t>(op.inputs[1])];
        const Tensor& in = w.inputs[0];
        const Tensor f = constant_tensor(m, 0, op.inputs[1]);
        const Tensor b = constant_tensor(m, 0, op.inputs[2]);
        const int64_t zi = it.quant.zero_point[0];
        int pad = 0, sh = 1, swd = 1;
        FusedActivation act;
        if (dw) {
          const auto& o = std::get<DepthwiseConv2DOptions>(op.options);
          pad = static_cast<int>(o.padding), sh = o.stride_h, swd = o.stride_w, act = o.activation;
        } else {
          const auto& o = std::get<Conv2DOptions>(op.options);
          pad = static_cast<int>(o.padding), sh = o.stride_h, swd = o.stride_w, act = o.activation;
        }
        const int64_t IH = in.dim(1), IW = in.dim(2), IC = in.dim(3), KH = f.dim(1), KW = f.dim(2);
        const int64_t OH = y.dim(1), OW = y.dim(2), OC = y.dim(3);
        // SAME: total pad = max((out-1)*stride + k - in, 0), smaller half before.
        const int64_t pt = pad == 0 ? std::max<int64_t>((OH - 1) * sh + KH - IH, 0) / 2 : 0;
        const int64_t pl = pad == 0 ? std::max<int64_t>((OW - 1) * swd + KW - IW, 0) / 2 : 0;
        int lo = -128, hi = 127;
        if (act != FusedActivation::kNone) lo = std::max(-128, zo);
        if (act == FusedActivation::kRelu6)
          hi = std::min(127, zo + static_cast<int>(std::round(6.0f / ot.quant.scale[0])));
        for (int64_t oy = 0; oy < OH; ++oy)
          for (int64_t ox = 0; ox < OW; ++ox)
            for (int64_t oc = 0; oc < OC; ++oc) {
              int64_t acc = b.data<int32_t>()[oc];
              for (int64_t ky = 0; ky < KH; ++ky)
                for (int64_t kx = 0; kx < KW; ++kx) {
                  const int64_t iy = oy * sh - pt + ky, ix = ox * swd - pl + kx;
                  if (iy < 0 || iy >= IH || ix < 0 || ix >= IW) continue;
                  if (dw) {
                    acc += int64_t{f.data<int8_t>()[(ky * KW + kx) * OC + oc]} *
                           (in.data<int8_t>()[(iy * IW + ix) * IC + oc] - zi);
                  } else {
                    for (int64_t ic = 0; ic < IC; ++ic)
                      acc += int64_t{f.data<int8_t>()[((oc * KH + ky) * KW + kx) * IC + ic]} *
                             (in.data<int8_t>()[(iy * IW + ix) * IC + ic] - zi);
                  }
                }
              const double fs =
                  ft.quant.scale.size() == 1 ? ft.quant.scale[0] : ft.quant.scale[static_cast<std::size_t>(oc)];
              const Mult mm = spec_multiplier(double{it.quant.scale[0]} * fs / so);
              const int expect = spec_clamp(spec_single(acc, mm) + zo, lo, hi);
              ASSERT_EQ(y.data<int8_t>()[(oy * OW + ox) * OC + oc], expect)
                  << file << " " << w.name << " at (" << oy << "," << ox << "," << oc << ")";
              ++checked;
            }
      }
      EXPECT_EQ(checked, y.numel()) << w.name;
    }
  }
}

// Spec: the two rounding modes differ by up to 1 LSB per layer. On identical
// inputs, each operator's double-rounding output is within 1 of the
// single-rounding one, and they do differ somewhere.
TEST(TfliteGolden, RoundingModesDifferByAtMostOneLsbPerLayer) {
  COSIM_REQUIRE_MODEL(model_path("resnet8_int8.tflite"));
  const Model m = load_model(model_path("resnet8_int8.tflite"));
  const TensorMap g = run_reference(m, random_input(m, 5), quant::Rounding::kSingle);
  const auto single = extract_layers(m, {}, quant::Rounding::kSingle, &g);
  const auto dbl = extract_layers(m, {}, quant::Rounding::kDouble, &g);
  ASSERT_EQ(single.size(), dbl.size());
  int64_t differ = 0, total = 0;
  for (std::size_t l = 0; l < single.size(); ++l) {
    ASSERT_TRUE(single[l].has_data);
    const Tensor yd = dbl[l].run(single[l].inputs);
    for (int64_t i = 0; i < yd.numel(); ++i) {
      const int d = yd.data<int8_t>()[i] - single[l].expected.data<int8_t>()[i];
      ASSERT_LE(std::abs(d), 1) << single[l].name << " @" << i;
      differ += d != 0;
    }
    total += yd.numel();
  }
  std::printf("resnet8 seed 5, same inputs: double vs single rounding differ in %lld of %lld outputs (max 1 LSB)\n",
              static_cast<long long>(differ), static_cast<long long>(total));
  EXPECT_GT(differ, 0);
}
