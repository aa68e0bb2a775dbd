// VTA golden model over tensors: plans from real weights, the requantization
// program per channel, ADD with broadcast, and the measured distance from the
// TFLite semantics in both rounding modes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>

#include "common/error.hpp"
#include "ops/add.hpp"
#include "ops/distance.hpp"
#include "vta/golden/vta_conv2d.hpp"
#include "ops/ops_test_util.hpp"

namespace {

using namespace cosim;
using namespace cosim::ops;
using namespace opstest;  // i8, i32, values

int64_t floor_shift(int64_t v, int e) {
  const int64_t d = int64_t{1} << e;
  return v >= 0 ? v / d : -((-v + d - 1) / d);
}

// `n` values rng() % (hi - lo + 1) + lo, in [lo, hi].
std::vector<int32_t> random_ints(std::mt19937& rng, int n, int32_t lo, int32_t hi) {
  std::vector<int32_t> v(static_cast<std::size_t>(n));
  for (int32_t& e : v) e = static_cast<int32_t>(rng() % static_cast<uint32_t>(hi - lo + 1)) + lo;
  return v;
}

// A random convolution's tensors, drawn in this order: the int8 input
// 1xHxWxC, the int8 weights OxKxKxC (from w_lo to 127), the int32 biases
// (within +-b_max).
struct RandomConv {
  Tensor x, w, b;
};
RandomConv random_conv(std::mt19937& rng, int H, int W, int C, int O, int K, int32_t w_lo, int32_t b_max) {
  Tensor x = i8({1, H, W, C}, random_ints(rng, H * W * C, -128, 127));
  Tensor w = i8({O, K, K, C}, random_ints(rng, O * K * K * C, w_lo, 127));
  Tensor b = i32({O}, random_ints(rng, O, -b_max, b_max));
  return {x, w, b};
}

TEST(VtaConv2d, PlanUsesChannelWeightsAndInputRange) {
  // Two channels, 1x1x6 filters. in 0.5 * w 0.25 / out 2.0 = 1/16 -> {16384, -3}.
  const Tensor w = i8({2, 1, 1, 6}, {1, -2, 3, 0, 0, 0, 127, 127, 127, 127, 127, 127});
  const Tensor b = i32({2}, {10, -5});
  const auto plans = vta_plan_conv2d(w, b, 0.5f, -128, {0.25f}, 2.0f, 4, quant::Activation::kRelu);
  ASSERT_EQ(plans.size(), 2u);
  // ch0 bound (x - zp in [0, 255]) = 10 + 255 + 765 = 1030: 1030 * 16384 fits -> pre 0, post 18.
  EXPECT_EQ(plans[0].multiplier, 16384);
  EXPECT_EQ(plans[0].pre_shift, 0);
  EXPECT_EQ(plans[0].post_shift, 18);
  EXPECT_EQ(plans[0].zero_point, 4);
  EXPECT_EQ(plans[0].act_min, 4);  // RELU: max(-128, zp)
  EXPECT_EQ(plans[0].act_max, 127);
  // ch1 bound = -5 + 6 * 127 * 255 = 194305: * 16384 > 2^31 ; >> 1 = 97152 (and -97153) * 16384
  // fit -> pre 1, post 17.
  EXPECT_EQ(plans[1].pre_shift, 1);
  EXPECT_EQ(plans[1].post_shift, 17);
  // A narrower input range lowers the bound: x in [-128, -1] -> (x - zp) in [0, 127]:
  // -5 + 6 * 127 * 127 = 96769 -> pre 0.
  EXPECT_EQ(vta_plan_conv2d(w, b, 0.5f, -128, {0.25f}, 2.0f, 4, quant::Activation::kNone, -128, -1)[1].pre_shift, 0);
  EXPECT_THROW(vta_plan_conv2d(w, b, 0.5f, 0, {0.25f, 0.25f, 0.25f}, 2.0f, 0, quant::Activation::kNone), InputError);
}

TEST(VtaConv2d, EqualsAccumulatorsThroughTheProgram) {
  std::mt19937 rng(41);
  const int H = 7, W = 6, C = 5, O = 4, K = 3;
  const auto [xt, wt, bt] = random_conv(rng, H, W, C, O, K, -128, 10000);
  const std::vector<float> fs = {0.004f, 0.011f, 0.0007f, 0.02f};
  const auto plans = vta_plan_conv2d(wt, bt, 0.05f, 3, fs, 0.09f, -6, quant::Activation::kNone);
  ConvParams p;
  p.input_zero_point = 3;
  p.stride_w = 2;
  const Tensor y = vta_conv2d(xt, wt, bt, p, plans);
  const Tensor acc = conv2d_accumulators(xt, wt, bt, p);
  int pre_used = 0;
  for (int64_t i = 0; i < acc.numel(); ++i) {
    const auto& pl = plans[static_cast<std::size_t>(i % O)];
    pre_used += pl.pre_shift > 0;
    const int64_t v = floor_shift(floor_shift(acc.data<int32_t>()[i], pl.pre_shift) * pl.multiplier, pl.post_shift) - 6;
    ASSERT_EQ(y.data<int8_t>()[i], std::clamp<int64_t>(v, -128, 127)) << i;
  }
  EXPECT_GT(pre_used, 0);  // the case exercises the pre-shift
}

TEST(VtaConv2d, DistanceFromTfliteIsMeasuredAndSmall) {
  std::mt19937 rng(43);
  const int H = 8, W = 8, C = 16, O = 16, K = 3;
  const auto [xt, wt, bt] = random_conv(rng, H, W, C, O, K, -127, 1000);
  std::vector<float> fs(O);
  for (int o = 0; o < O; ++o) fs[static_cast<std::size_t>(o)] = 0.0005f * static_cast<float>(1 + o % 5);
  const float s_in = 0.02f, s_out = 0.15f;
  const int32_t zp_in = -7, zp_out = 2;
  ConvParams geo;
  geo.input_zero_point = zp_in;
  const Tensor vta = vta_conv2d(xt, wt, bt, geo, vta_plan_conv2d(wt, bt, s_in, zp_in, fs, s_out, zp_out, quant::Activation::kNone));
  for (quant::Rounding r : {quant::Rounding::kDouble, quant::Rounding::kSingle}) {
    const ConvParams p = make_conv_params(s_in, zp_in, fs, s_out, zp_out, quant::Activation::kNone, r);
    const Distance d = int8_distance(vta, conv2d(xt, wt, bt, p));
    std::printf("VTA vs TFLite %s rounding: %.1f%% exact, max |diff| %d over %lld outputs\n",
                r == quant::Rounding::kDouble ? "double" : "single", d.exact_pct(), d.max_abs_diff,
                static_cast<long long>(d.count));
    EXPECT_LE(d.max_abs_diff, 2);   // floor instead of round, Q15 multiplier, pre-shift
    EXPECT_GT(d.exact_pct(), 30.0);
  }
}

TEST(VtaAddTensor, BroadcastMatchesElementwise) {
  const quant::VtaAddParams p = quant::vta_make_add_params(0.05f, 1, 0.03f, -2, 0.06f, 0);
  const Tensor a = i8({2, 3}, {-128, -5, 0, 7, 100, 127});
  const Tensor b = i8({3}, {127, -128, 9});
  const Tensor y = vta_add(a, b, p);
  ASSERT_EQ(y.shape(), (std::vector<int64_t>{2, 3}));
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      EXPECT_EQ(y.at<int8_t>({i, j}), quant::vta_add(a.at<int8_t>({i, j}), b.at<int8_t>({j}), p));
  EXPECT_THROW(vta_add(a, i8({2}, {0, 0}), p), InputError);
}

TEST(Distance, CountsExactAndMax) {
  const Distance d = int8_distance(i8({4}, {1, 2, 3, -128}), i8({4}, {1, 3, 3, 127}));
  EXPECT_EQ(d.count, 4);
  EXPECT_EQ(d.exact, 2);
  EXPECT_EQ(d.max_abs_diff, 255);
  EXPECT_DOUBLE_EQ(d.exact_pct(), 50.0);
  EXPECT_THROW(int8_distance(i8({2}, {0, 0}), i8({3}, {0, 0, 0})), InputError);
}

}  // namespace
