// The fused VTA 16-bit requantization (vta_compiler/fused_requant.hpp) on one
// lane: the ALU steps the compiler emits, run here with the ISA's 32-bit
// wrapping ADD / MUL and arithmetic SHR, must give the spec's
// clamp(floor(floor(acc / 2^pre) * m / 2^post) + zp) (quantization.md s.2,
// written below in 128-bit arithmetic) for every accumulator inside the
// plan's bound, whatever clamped output the entry held before.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>

#include "vta/golden/vta_quant.hpp"
#include "vta/compiler/fused_requant.hpp"

namespace cosim::vta {
namespace {

using i128 = __int128;

int32_t wrap(i128 v) { return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v))); }
int32_t sar(int32_t v, int n) { return v >> std::min(n, 31); }
i128 floor_div(i128 a, int e) {
  const i128 d = i128{1} << e;
  i128 q = a / d;
  if (a % d != 0 && a < 0) --q;
  return q;
}

int spec_output(i128 acc, const quant::VtaRequantPlan& p) {
  const i128 y = floor_div(floor_div(acc, p.pre_shift) * p.multiplier, p.post_shift) + p.zero_point;
  return static_cast<int>(std::clamp<i128>(y, p.act_min, p.act_max));
}

// The steps as the compiler emits them for one lane.
int fused_lane(int32_t prior, int32_t gemm_sum, int32_t start, int32_t offset, bool fold,
               const quant::VtaRequantPlan& p) {
  int32_t v = std::min(prior, start);
  v = wrap(static_cast<i128>(v) + gemm_sum);
  v = sar(v, p.pre_shift);
  v = wrap(static_cast<i128>(v) * p.multiplier);
  v = wrap(static_cast<i128>(v) + offset);
  v = sar(v, p.post_shift);
  if (!fold) v = wrap(static_cast<i128>(v) + p.zero_point);
  v = std::min(v, p.act_max);
  return std::max(v, p.act_min);
}

TEST(FusedRequant, LaneStepsEqualTheSpecRequantization) {
  std::mt19937_64 rng(2026);
  auto any = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
  int folded = 0, unfolded = 0, declined = 0, lanes = 0;
  for (int it = 0; it < 4000; ++it) {
    const int channels = static_cast<int>(any(1, 4)), classes = static_cast<int>(any(0, 3));
    // Half the cases with scales so small that post is clamped to 31: the
    // zero point cannot ride on the product there.
    const bool tiny = any(0, 3) == 0;
    std::vector<quant::VtaRequantPlan> plans;
    std::vector<int64_t> bias_terms;
    std::vector<std::vector<int64_t>> corr(static_cast<std::size_t>(classes));
    for (int c = 0; c < channels; ++c) {
      const double scale = std::ldexp(0.5 + 0.5 * (static_cast<double>(any(0, 1 << 20)) / (1 << 20)),
                                      static_cast<int>(tiny ? any(-50, -36) : any(-24, -1)));
      const int64_t bound = std::min<int64_t>(int64_t{1} << 31, any(1, int64_t{1} << any(1, 31)));
      const int32_t lo = static_cast<int32_t>(any(-128, 0)), hi = static_cast<int32_t>(any(lo, 127));
      plans.push_back(quant::vta_plan_requant(quant::vta_quantize_multiplier(scale), bound,
                                              static_cast<int32_t>(any(-128, 127)), lo, hi));
      bias_terms.push_back(any(-(int64_t{1} << any(0, 30)), int64_t{1} << any(0, 30)));
      for (auto& k : corr) k.push_back(any(-(int64_t{1} << 20), int64_t{1} << 20));
    }
    const std::optional<FusedRequant> f = fuse_requant(plans, bias_terms, corr);
    if (!f) {
      ++declined;
      continue;
    }
    ++(f->fold_zero_point ? folded : unfolded);
    for (int c = 0; c < channels; ++c) {
      const quant::VtaRequantPlan& p = plans[static_cast<std::size_t>(c)];
      for (int k = 0; k <= classes; ++k) {
        const int32_t start = f->start[static_cast<std::size_t>(k)][static_cast<std::size_t>(c)];
        ASSERT_LE(start, -128);  // below every clamped output
        const int64_t extra = bias_terms[static_cast<std::size_t>(c)] +
                              (k == 0 ? 0 : corr[static_cast<std::size_t>(k - 1)][static_cast<std::size_t>(c)]);
        for (int s = 0; s < 12; ++s) {
          int64_t acc = any(-p.acc_bound, p.acc_bound);
          if (s == 0) acc = p.acc_bound;
          if (s == 1) acc = -p.acc_bound;
          if (acc > INT32_MAX) acc = INT32_MAX;
          // What the GEMMs add: the raw sum, as the 32-bit accumulator holds it.
          const int32_t gemm_sum = wrap(static_cast<i128>(acc) - extra);
          const int32_t prior = static_cast<int32_t>(s == 2 ? 0 : any(-128, 127));
          ASSERT_EQ(fused_lane(prior, gemm_sum, start, f->offset[static_cast<std::size_t>(c)], f->fold_zero_point, p),
                    spec_output(acc, p))
              << "case " << it << " channel " << c << " class " << k << " acc " << acc << " pre " << p.pre_shift
              << " m " << p.multiplier << " post " << p.post_shift << " zp " << p.zero_point;
          ++lanes;
        }
      }
    }
  }
  std::printf("[ info ] %d lanes: %d layers with the zero point folded, %d without, %d declined\n", lanes, folded,
              unfolded, declined);
  EXPECT_GT(folded, 500);
  EXPECT_GT(unfolded, 100);
}

TEST(FusedRequant, DeclinesWhatWouldLeaveInt32) {
  const quant::VtaRequantPlan p = quant::vta_plan_requant(quant::vta_quantize_multiplier(0.001), 1 << 20, 0);
  // A bias term near 2^31 needs a lift the accumulator cannot take.
  EXPECT_FALSE(fuse_requant({p}, {int64_t{1} << 31}, {}).has_value());
  // A plan without a bound (built by hand) cannot be fused.
  quant::VtaRequantPlan unknown = p;
  unknown.acc_bound = -1;
  EXPECT_FALSE(fuse_requant({unknown}, {0}, {}).has_value());
  // A small bias needs no lift beyond -128: start = bias - lift <= -128.
  const auto f = fuse_requant({p}, {-1000}, {{5}});
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->start[0][0], -1000);
  EXPECT_EQ(f->start[1][0], -995);
}

}  // namespace
}  // namespace cosim::vta
