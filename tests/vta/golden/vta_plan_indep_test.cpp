// Independent expectations for the VTA CONV_2D requantization plans
// (issue 13). ops::vta_plan_conv2d produces the per-channel plans that feed
// BOTH the VTA compiler (vta_compiler::compile_conv2d writes them into the
// ACC parameter vectors) and the golden ops::vta_conv2d, so a wrong plan
// would be invisible to a DUT-vs-golden comparison. vta_spec_plan.hpp derives
// each field from ../shared/spec/quantization.md (the multiplier without
// frexp, the bound and shifts in __int128, no cpp_model helper); this test
// compares ops::vta_plan_conv2d with it field by field on random parameters,
// and the golden requantization (quant::vta_requant_apply) with the spec's
// program on accumulators at and inside the bound.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "vta/golden/vta_conv2d.hpp"
#include "vta/golden/vta_quant.hpp"
#include "tensor/tensor.hpp"
#include "param_gen.hpp"
#include "vta_spec_plan.hpp"

namespace {

using namespace indep;
using cosim::quant::Activation;

// ---------------------------------------------------------------------------

struct Counters {
  long long calls = 0, planned = 0, rejected = 0, channels = 0, pre_nonzero = 0, post_clamped = 0, post_zero = 0,
            rollovers = 0, applies = 0;
};

// One random CONV_2D parameter set: expected plans from the spec, then
// ops::vta_plan_conv2d field by field (or its rejection).
void run_case(ParamGen& g, Counters& n, int kind) {
  const int oc = g.uni(1, 4);
  const int kh = g.uni(1, 3), kw = g.uni(1, 3), ic = g.uni(1, kind == 3 ? 64 : 20);
  const int per = kh * kw * ic;
  cosim::Tensor filter(cosim::DType::kInt8, {oc, kh, kw, ic});
  std::vector<std::vector<int>> w(static_cast<std::size_t>(oc));
  const int wmode = g.uni(0, 3);
  for (int c = 0; c < oc; ++c)
    for (int k = 0; k < per; ++k) {
      int v;
      if (wmode == 0) v = g.uni(0, 1) ? 127 : -128;  // extremes: large bounds
      else if (wmode == 1) v = g.uni(-3, 3);
      else v = g.uni(-128, 127);
      w[static_cast<std::size_t>(c)].push_back(v);
      filter.data<int8_t>()[c * per + k] = static_cast<int8_t>(v);
    }
  const bool has_bias = g.uni(0, 4) != 0;
  cosim::Tensor bias;
  std::vector<int> b(static_cast<std::size_t>(oc), 0);
  if (has_bias) {
    bias = cosim::Tensor(cosim::DType::kInt32, {oc});
    for (int c = 0; c < oc; ++c) {
      int v;
      switch (g.uni(0, 4)) {
        case 0: v = g.uni(0, 1) ? 2147483647 : -2147483647 - 1; break;  // bound near / above 2^31
        case 1: v = static_cast<int>(std::ldexp(g.uni(0, 1) ? 1.0 : -1.0, g.uni(20, 30))) + g.uni(-3, 3); break;
        default: v = g.uni(-100000, 100000);
      }
      b[static_cast<std::size_t>(c)] = v;
      bias.data<int32_t>()[c] = v;
    }
  }
  const int zp_in = g.zero_point(), zp_out = g.zero_point();
  int x_min = -128, x_max = 127;
  if (g.uni(0, 2) == 0) {
    x_min = g.uni(-128, 127);
    x_max = g.uni(x_min, 127);
  }
  const Activation act = static_cast<Activation>(g.uni(0, 2));

  // Scales: kind 0 typical, 1 multiplier near a power of two, 2 very
  // small / very large multipliers, 3 per-channel spread.
  const float s_in = g.log_scale(-12, 2);
  float s_out = g.log_scale(-10, 3);
  if (g.uni(0, 7) == 0) {  // 6 / s_out at a rounding tie of RELU6's clamp
    s_out = static_cast<float>(6.0 / (g.uni(1, 120) + 0.5));
    for (int s = g.uni(-2, 2); s != 0; s += s > 0 ? -1 : 1) s_out = std::nextafter(s_out, s > 0 ? 1e30f : 0.0f);
  }
  std::vector<float> s_w;
  const bool per_channel = kind == 3 || g.uni(0, 1) == 0;
  for (int c = 0; c < (per_channel ? oc : 1); ++c) {
    float sw;
    if (kind == 1) {
      // s_w chosen so that M lands within float rounding of 2^k (below,
      // at or above): exercises q = 0.5 exactly and the round-up to 2^15.
      const int k = g.uni(-30, 15);
      const float target = static_cast<float>(std::ldexp(static_cast<double>(s_out) / s_in, k));
      sw = target;
      for (int s = g.uni(-3, 3); s != 0; s += s > 0 ? -1 : 1) sw = std::nextafter(sw, s > 0 ? 1e30f : 0.0f);
    } else if (kind == 2) {
      sw = g.uni(0, 1) ? g.log_scale(-60, -30) : g.log_scale(10, 30);
    } else {
      sw = g.log_scale(-12, 0);
    }
    s_w.push_back(sw);
  }

  int act_min = 0, act_max = 0;
  spec_act(act, s_out, zp_out, act_min, act_max);
  std::vector<SpecPlan> want;
  bool expect_reject = false;
  for (int c = 0; c < oc; ++c) {
    const float sw = s_w[per_channel ? static_cast<std::size_t>(c) : 0];
    const double M = static_cast<double>(s_in) * static_cast<double>(sw) / static_cast<double>(s_out);
    const i128 bound = spec_bound(w[static_cast<std::size_t>(c)], b[static_cast<std::size_t>(c)], x_min, x_max, zp_in);
    const std::optional<SpecPlan> p = spec_plan(M, bound, zp_out, act_min, act_max);
    if (!p) {
      expect_reject = true;
      break;
    }
    n.rollovers += spec_q15(M).rolled_over;
    want.push_back(*p);
  }
  ++n.calls;
  const std::string ctx = "oc " + std::to_string(oc) + " per " + std::to_string(per) + " s_in " +
                          std::to_string(s_in) + " s_out " + std::to_string(s_out) + " s_w[0] " +
                          std::to_string(s_w[0]) + " zp_in " + std::to_string(zp_in) + " zp_out " +
                          std::to_string(zp_out) + " x [" + std::to_string(x_min) + ", " + std::to_string(x_max) +
                          "] act " + std::to_string(static_cast<int>(act)) + " kind " + std::to_string(kind);
  if (expect_reject) {
    ++n.rejected;
    EXPECT_THROW(cosim::ops::vta_plan_conv2d(filter, bias, s_in, zp_in, s_w, s_out, zp_out, act, x_min, x_max),
                 cosim::InputError)
        << ctx;
    return;
  }
  std::vector<cosim::quant::VtaRequantPlan> got;
  try {
    got = cosim::ops::vta_plan_conv2d(filter, bias, s_in, zp_in, s_w, s_out, zp_out, act, x_min, x_max);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "unexpected rejection: " << e.what() << " | " << ctx;
    return;
  }
  ++n.planned;
  ASSERT_EQ(got.size(), static_cast<std::size_t>(oc)) << ctx;
  for (int c = 0; c < oc; ++c) {
    const SpecPlan& e = want[static_cast<std::size_t>(c)];
    const cosim::quant::VtaRequantPlan& p = got[static_cast<std::size_t>(c)];
    ++n.channels;
    n.pre_nonzero += e.pre != 0;
    n.post_clamped += e.post == 31;
    n.post_zero += e.post == 0;
    EXPECT_EQ(p.multiplier, e.multiplier) << "channel " << c << " | " << ctx;
    EXPECT_EQ(p.pre_shift, e.pre) << "channel " << c << " | " << ctx;
    EXPECT_EQ(p.post_shift, e.post) << "channel " << c << " | " << ctx;
    EXPECT_EQ(p.zero_point, e.zp) << "channel " << c << " | " << ctx;
    EXPECT_EQ(p.act_min, e.act_min) << "channel " << c << " | " << ctx;
    EXPECT_EQ(p.act_max, e.act_max) << "channel " << c << " | " << ctx;
    // The golden requantization with this plan, at the extremes of the
    // bound and inside it.
    const i128 bound = spec_bound(w[static_cast<std::size_t>(c)], b[static_cast<std::size_t>(c)], x_min, x_max, zp_in);
    const int64_t bd = static_cast<int64_t>(std::min<i128>(bound, kI32Max));
    for (int64_t acc : {-bd, bd, int64_t{0}, bd / 3, -bd / 7, int64_t{1}, int64_t{-1}}) {
      if (acc < kI32Min || acc > kI32Max) continue;
      EXPECT_EQ(cosim::quant::vta_requant_apply(static_cast<int32_t>(acc), p),
                spec_requant(static_cast<int32_t>(acc), e))
          << "acc " << acc << " channel " << c << " | " << ctx;
      ++n.applies;
    }
  }
}

TEST(VtaPlanIndependent, SpecMultiplierHandValues) {
  EXPECT_EQ(spec_q15(0.1).multiplier, 26214);
  EXPECT_EQ(spec_q15(0.1).shift, -3);
  EXPECT_EQ(spec_q15(0.5).multiplier, 16384);
  EXPECT_EQ(spec_q15(0.5).shift, 0);
  EXPECT_EQ(spec_q15(std::ldexp(1.0 - 1e-7, -9)).multiplier, 16384);  // rolls over
  EXPECT_EQ(spec_q15(std::ldexp(1.0 - 1e-7, -9)).shift, -8);
  // The existing hand example (vta_conv2d_test): bound 194305 * 16384 > 2^31 -> pre 1.
  const auto p = spec_plan(1.0 / 16, 194305, 4, 4, 127);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->pre, 1);
  EXPECT_EQ(p->post, 17);
}

TEST(VtaPlanIndependent, Relu6ClampUsesFloatQuotient) {
  // 6.0f / 1.3333334f rounds to 5 in float (TFLite), 4 in double.
  cosim::Tensor w(cosim::DType::kInt8, {1, 1, 1, 1});
  w.data<int8_t>()[0] = 1;
  const auto p = cosim::ops::vta_plan_conv2d(w, cosim::Tensor(), 0.5f, 0, {0.5f}, 1.3333334f, -3, Activation::kRelu6);
  int lo = 0, hi = 0;
  spec_act(Activation::kRelu6, 1.3333334f, -3, lo, hi);
  EXPECT_EQ(hi, 2);
  EXPECT_EQ(p.at(0).act_max, hi);
  EXPECT_EQ(p.at(0).act_min, lo);
}

TEST(VtaPlanIndependent, RandomConvParamsFieldByField) {
  ParamGen g(0xC0DE13u);
  Counters n;
  const int kCases = 12000;
  for (int i = 0; i < kCases; ++i) {
    run_case(g, n, i % 4);
    if (::testing::Test::HasFailure()) break;
  }
  std::printf(
      "[ info ] %lld calls: %lld planned (%lld channels; %lld with pre-shift, %lld post clamped to 31, %lld post 0, "
      "%lld multipliers rolled over to 2^14), %lld rejected; %lld requant applications\n",
      n.calls, n.planned, n.channels, n.pre_nonzero, n.post_clamped, n.post_zero, n.rollovers, n.rejected, n.applies);
  // The edge classes were really reached.
  EXPECT_GT(n.pre_nonzero, 500);
  EXPECT_GT(n.post_clamped, 100);
  EXPECT_GT(n.post_zero, 0);
  EXPECT_GT(n.rejected, 100);
}

}  // namespace
