// Independent expectations for the VTA CONV_2D compiler's requantization
// (issue 13). The existing compiler tests compare the functional model's
// output with ops::vta_conv2d, and both use the same ops::vta_plan_conv2d
// plans. Here the expected output is computed without any cpp_model helper:
// the plans from ../tests/vta/golden/vta_spec_plan.hpp (spec text of
// quantization.md s.1/s.2), the accumulators with the spec's CONV_2D
// definition (acc = bias + sum w * (x - zp_in), SAME/VALID geometry of s.1),
// then the spec's program per channel. The plans given to the compiler
// (ops::vta_plan_conv2d) are also checked field by field against the spec's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "vta/golden/vta_spec_plan.hpp"
#include "common/error.hpp"
#include "compiler_test_util.hpp"
#include "vta/golden/vta_conv2d.hpp"
#include "vta/compiler/conv2d_compiler.hpp"

namespace {

using namespace cosim;
using indep::i128;

struct Geometry {
  int out = 0, pad_before = 0;
};

// quantization.md s.1: SAME out = ceil(in / stride), total pad
// max((out-1)*stride + k - in, 0), the smaller half before; VALID
// out = ceil((in - k + 1) / stride), no pad (dilation 1).
Geometry spec_geometry(int in, int k, int stride, bool same) {
  Geometry g;
  if (same) {
    g.out = (in + stride - 1) / stride;
    const int total = std::max((g.out - 1) * stride + k - in, 0);
    g.pad_before = total / 2;
  } else {
    g.out = (in - k + 1 + stride - 1) / stride;
  }
  return g;
}

TEST(VtaConv2dPlanIndependent, CompiledProgramMatchesSpecRequantization) {
  std::mt19937_64 rng(0x5EC13u);
  auto uni = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  auto log_scale = [&](double lo2, double hi2) {
    return static_cast<float>(std::exp2(std::uniform_real_distribution<double>(lo2, hi2)(rng)));
  };
  int cases = 0, rejected = 0;
  long long elements = 0, pre_channels = 0, channels = 0;
  for (int it = 0; it < 400; ++it) {
    const int H = uni(1, 7), W = uni(1, 7), C = uni(1, 40), O = uni(1, 36);
    const int kh = uni(1, 3), kw = uni(1, 3), sh = uni(1, 2), sw = uni(1, 2);
    const bool same = uni(0, 1) == 0 || H < kh || W < kw;
    const int zp_in = uni(-128, 127), zp_out = uni(-128, 127);
    const auto act = static_cast<quant::Activation>(uni(0, 2));
    const int wmode = uni(0, 2);  // 0: +-extremes (large bounds), 1: small (pre 0), 2: full range

    Tensor input(DType::kInt8, {1, H, W, C}, Layout::kNHWC);
    for (int64_t i = 0; i < input.numel(); ++i) input.data<int8_t>()[i] = static_cast<int8_t>(uni(-128, 127));
    Tensor filter(DType::kInt8, {O, kh, kw, C});
    for (int64_t i = 0; i < filter.numel(); ++i)
      filter.data<int8_t>()[i] =
          static_cast<int8_t>(wmode == 0 ? (uni(0, 1) ? 127 : -128) : wmode == 1 ? uni(-2, 2) : uni(-128, 127));
    Tensor bias(DType::kInt32, {O});
    for (int o = 0; o < O; ++o) bias.data<int32_t>()[o] = wmode == 1 ? uni(-2000, 2000) : uni(-300000, 300000);
    const float s_in = log_scale(-9, -2), s_out = log_scale(-6, 0);
    std::vector<float> s_w;
    const bool per_channel = uni(0, 3) != 0;
    for (int o = 0; o < (per_channel ? O : 1); ++o) s_w.push_back(log_scale(uni(0, 4) == 0 ? -40 : -12, -3));

    // Spec plans.
    int act_min = 0, act_max = 0;
    indep::spec_act(act, s_out, zp_out, act_min, act_max);
    std::vector<indep::SpecPlan> want_plans;
    bool reject = false;
    const int per = kh * kw * C;
    for (int o = 0; o < O && !reject; ++o) {
      std::vector<int> wv(filter.data<int8_t>() + o * per, filter.data<int8_t>() + (o + 1) * per);
      const double M = static_cast<double>(s_in) * s_w[per_channel ? static_cast<std::size_t>(o) : 0] / s_out;
      const auto p = indep::spec_plan(M, indep::spec_bound(wv, bias.data<int32_t>()[o], -128, 127, zp_in), zp_out,
                                      act_min, act_max);
      if (!p) reject = true;
      else want_plans.push_back(*p);
    }
    if (reject) {
      EXPECT_THROW(ops::vta_plan_conv2d(filter, bias, s_in, zp_in, s_w, s_out, zp_out, act), InputError);
      ++rejected;
      continue;
    }
    const std::vector<quant::VtaRequantPlan> plans =
        ops::vta_plan_conv2d(filter, bias, s_in, zp_in, s_w, s_out, zp_out, act);
    ASSERT_EQ(plans.size(), static_cast<std::size_t>(O));
    for (int o = 0; o < O; ++o) {
      const auto& e = want_plans[static_cast<std::size_t>(o)];
      const auto& g = plans[static_cast<std::size_t>(o)];
      ASSERT_TRUE(g.pre_shift == e.pre && g.multiplier == e.multiplier && g.post_shift == e.post &&
                  g.zero_point == e.zp && g.act_min == e.act_min && g.act_max == e.act_max)
          << "case " << it << " channel " << o << ": got {pre " << g.pre_shift << ", m " << g.multiplier << ", post "
          << g.post_shift << ", zp " << g.zero_point << ", [" << g.act_min << ", " << g.act_max << "]} want {pre "
          << e.pre << ", m " << e.multiplier << ", post " << e.post << ", zp " << e.zp << ", [" << e.act_min << ", "
          << e.act_max << "]}";
      pre_channels += e.pre != 0;
      ++channels;
    }

    ops::ConvParams p;
    p.padding = same ? ops::Padding::kSame : ops::Padding::kValid;
    p.stride_h = sh;
    p.stride_w = sw;
    p.input_zero_point = zp_in;
    const vta::CompiledProgram cp = vta::compile_conv2d(input, filter, bias, p, plans);
    const vta::testutil::RunResult r = vta::testutil::run_compiled(cp);
    ASSERT_TRUE(r.stats.finished) << "case " << it;

    // Spec output.
    const Geometry gy = spec_geometry(H, kh, sh, same), gx = spec_geometry(W, kw, sw, same);
    ASSERT_EQ(r.output.shape(), (std::vector<int64_t>{1, gy.out, gx.out, O})) << "case " << it;
    const int8_t* x = input.data<int8_t>();
    const int8_t* f = filter.data<int8_t>();
    for (int oy = 0; oy < gy.out; ++oy)
      for (int ox = 0; ox < gx.out; ++ox)
        for (int o = 0; o < O; ++o) {
          i128 acc = bias.data<int32_t>()[o];
          for (int ky = 0; ky < kh; ++ky)
            for (int kx = 0; kx < kw; ++kx) {
              const int iy = oy * sh + ky - gy.pad_before, ix = ox * sw + kx - gx.pad_before;
              if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;  // padding: x = zp_in, term 0
              for (int c = 0; c < C; ++c)
                acc += static_cast<i128>(f[((o * kh + ky) * kw + kx) * C + c]) * (x[(iy * W + ix) * C + c] - zp_in);
            }
          const int want = indep::spec_requant(static_cast<int32_t>(acc), want_plans[static_cast<std::size_t>(o)]);
          const int got = r.output.data<int8_t>()[(oy * gx.out + ox) * O + o];
          ASSERT_EQ(got, want) << "case " << it << " at (" << oy << ", " << ox << ", " << o << ") acc "
                               << static_cast<long long>(acc) << " shape " << H << "x" << W << "x" << C << " -> "
                               << O << " k " << kh << "x" << kw << " s " << sh << "x" << sw
                               << (same ? " SAME" : " VALID") << " zp_in " << zp_in;
          ++elements;
        }
    ++cases;
  }
  std::printf("[ info ] %d compiled CONV_2D cases (%lld channels, %lld with pre-shift), %d rejected plans, "
              "%lld output elements compared\n",
              cases, channels, pre_channels, rejected, elements);
  EXPECT_GT(cases, 300);
  EXPECT_GT(pre_channels, 100);
  EXPECT_GT(channels - pre_channels, 100);
}

}  // namespace
