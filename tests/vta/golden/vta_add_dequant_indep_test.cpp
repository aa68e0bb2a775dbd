// Independent expectations for VTA ADD's host-side dequantization
// (issue 13). quant::vta_add_dequantize prepares the DUT's ACC inputs AND is
// called by the golden quant::vta_add, so a bug there would be invisible to a
// DUT-vs-golden comparison. Here every expected value is computed from the
// text of ../shared/spec/quantization.md s.2 and seed 000 only:
//
//   Q15 multiplier: q = frexp(scale, &shift); q_fixed = round(q * 2^15);
//                   q_fixed == 2^15 -> q_fixed / 2, shift + 1
//   ADD scales:     t = 2 * max(s_a, s_b); s_a / t, s_b / t, t / (2^7 * s_y)
//   dequantization: v = (x + offset) << 7, offset = -zero_point
//                   v = round-to-nearest(v * multiplier / 2^15)
//                   v = v >> -shift   (arithmetic: floor)
//   on VTA:         A + B, * m_y, >> (15 - shift_y), + zp_y, MIN 127, MAX -128
//
// Nothing here calls a cpp_model helper other than the functions under test.
// The multiplier is derived without frexp (binade search with ldexp), the
// rounding and shifts with exact __int128 floor divisions.
//
// Ties: the spec says "round to nearest" without naming the tie direction;
// the seed says "nudge ... for rounding to nearest". The project documents
// ties toward +infinity (vta_quant.hpp: "+ 2^14 then >> 15"); that is what
// this test pins (kTiesUp), and it counts how many ties it exercised.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>

#include "common/error.hpp"
#include "vta/golden/vta_quant.hpp"

#include "param_gen.hpp"

namespace {

using i128 = __int128;

// ---------------------------------------------------------------------------
// Spec arithmetic, written here.

// floor(a / 2^e) for any e >= 0 (e large: the sign only).
i128 spec_floor_pow2(i128 a, int e) {
  if (e >= 120) return a < 0 ? -1 : 0;
  const i128 d = i128{1} << e;
  i128 q = a / d;                       // truncates toward zero
  if (a % d != 0 && a < 0) q -= 1;      // -> floor
  return q;
}

// Round-to-nearest of a / 2^e, ties toward +infinity (see the header).
i128 spec_round_pow2(i128 a, int e) {
  const i128 d = i128{1} << e;
  const i128 q = spec_floor_pow2(a, e);
  const i128 r = a - q * d;  // 0 <= r < d
  if (2 * r > d) return q + 1;
  if (2 * r == d) return q + 1;  // tie: toward +infinity
  return q;
}

bool spec_is_tie(i128 a, int e) {
  const i128 d = i128{1} << e;
  const i128 r = a - spec_floor_pow2(a, e) * d;
  return 2 * r == d;
}

struct SpecQ15 {
  int multiplier = 0;
  int shift = 0;
};

// scale = q * 2^shift with q in [0.5, 1), found without frexp; then
// q_fixed = round(q * 2^15) (half away from zero, as C's round), roll-over.
SpecQ15 spec_q15(double scale) {
  if (scale == 0.0) return {};
  int e = 0;
  // Coarse then fine: bring scale * 2^-e into [0.5, 1).
  while (std::ldexp(scale, -e) >= 1.0) ++e;
  while (std::ldexp(scale, -e) < 0.5) --e;
  const double q = std::ldexp(scale, -e);   // exact (power-of-two scaling)
  const double x = q * 32768.0;             // exact, in [16384, 32768)
  const double fl = std::floor(x);
  long long qf = static_cast<long long>(fl) + ((x - fl) >= 0.5 ? 1 : 0);
  if (qf == 32768) {
    qf /= 2;
    ++e;
  }
  return {static_cast<int>(qf), e};
}

// Host-side dequantization, spec text, shift <= 0 (always the case for ADD:
// s / (2 max(s_a, s_b)) <= 1/2).
int64_t spec_dequant(int x, int zero_point, SpecQ15 m, bool* tie = nullptr) {
  const i128 v = static_cast<i128>(x - zero_point) * 128;  // (x + offset) << 7
  const i128 raw = v * m.multiplier;
  if (tie) *tie = spec_is_tie(raw, 15);
  const i128 scaled = spec_round_pow2(raw, 15);
  return static_cast<int64_t>(spec_floor_pow2(scaled, -m.shift));
}

int32_t wrap32(i128 v) { return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v))); }

// Whole ADD on VTA (32-bit wrapping ALU lane), from the dequantized inputs.
int spec_add(int64_t a, int64_t b, SpecQ15 my, int zp_y) {
  int32_t acc = wrap32(static_cast<i128>(a) + b);
  acc = wrap32(static_cast<i128>(acc) * my.multiplier);
  const int sh = 15 - my.shift;  // SHR immediate; negative = left shift
  if (sh >= 0) {
    acc = static_cast<int32_t>(spec_floor_pow2(acc, sh));
  } else {
    acc = wrap32(static_cast<i128>(acc) * (i128{1} << -sh));
  }
  acc = wrap32(static_cast<i128>(acc) + zp_y);
  acc = std::min(acc, 127);
  acc = std::max(acc, -128);
  return acc;
}

// ---------------------------------------------------------------------------
// Random parameters with edge values mixed in.

class Gen : public ParamGen {
 public:
  using ParamGen::ParamGen;
  // A positive float32 scale: log-uniform over a wide range, or an edge.
  float scale() {
    switch (uni(0, 9)) {
      case 0: return std::ldexp(1.0f, uni(-40, 40));                            // power of two
      case 1: return std::nextafter(std::ldexp(1.0f, uni(-40, 40)), 0.0f);       // just below
      case 2: return std::nextafter(std::ldexp(1.0f, uni(-40, 40)), 1e30f);      // just above
      case 3: return log_scale(-120.0, 120.0);                                   // extreme
      default: return log_scale(-16.0, 4.0);                                     // typical
    }
  }
};

TEST(VtaAddDequantIndependent, SpecMultiplierMatchesHandValues) {
  // Sanity of the test's own Q15 derivation against hand-derived numbers.
  EXPECT_EQ(spec_q15(96.0).multiplier, 24576);  // seed: 96 = 0.75 * 2^7
  EXPECT_EQ(spec_q15(96.0).shift, 7);
  EXPECT_EQ(spec_q15(0.5).multiplier, 16384);
  EXPECT_EQ(spec_q15(0.5).shift, 0);
  EXPECT_EQ(spec_q15(0.1).multiplier, 26214);
  EXPECT_EQ(spec_q15(0.1).shift, -3);
  EXPECT_EQ(spec_q15(1.0 - 1e-9).multiplier, 16384);  // rolls over
  EXPECT_EQ(spec_q15(1.0 - 1e-9).shift, 1);
  // Hand: x = 3, zp = 0, m = 21845 (~2/3), shift 0: 384 * 21845 / 32768 = 255.996 -> 256.
  EXPECT_EQ(spec_dequant(3, 0, {21845, 0}), 256);
  EXPECT_EQ(spec_dequant(-3, 0, {21845, 0}), -256);
  // Tie: 1 * 128 * 16512 / 32768 = 64.5 -> 65; -64.5 -> -64 (toward +inf).
  EXPECT_EQ(spec_dequant(1, 0, {16512, 0}), 65);
  EXPECT_EQ(spec_dequant(-1, 0, {16512, 0}), -64);
}

// The dequantization on its own, for arbitrary Q15 multipliers and shifts
// (biased toward rounding ties) and every int8 input.
TEST(VtaAddDequantIndependent, RandomMultipliersAllInputs) {
  Gen g(0x13D0u);
  int64_t checks = 0, ties = 0, neg_ties = 0;
  const int kParams = 20000;
  for (int i = 0; i < kParams; ++i) {
    SpecQ15 m;
    switch (g.uni(0, 4)) {
      case 0: m.multiplier = (g.uni(64, 127) << 8) | 128; break;  // d * m = 128 mod 256 for odd d: ties
      case 1: m.multiplier = g.uni(0, 1) ? 16384 : 32767; break;
      default: m.multiplier = g.uni(16384, 32767);
    }
    switch (g.uni(0, 5)) {
      case 0: m.shift = 0; break;
      case 1: m.shift = -g.uni(25, 300); break;  // beyond the 32-bit shift range
      default: m.shift = -g.uni(0, 24);
    }
    const int zp = g.zero_point();
    for (int x = -128; x <= 127; ++x) {
      bool tie = false;
      const int64_t want = spec_dequant(x, zp, m, &tie);
      ties += tie;
      neg_ties += tie && x - zp < 0;
      const int32_t got = cosim::quant::vta_add_dequantize(
          static_cast<int8_t>(x), -zp, {static_cast<int16_t>(m.multiplier), static_cast<int16_t>(m.shift)});
      ASSERT_EQ(got, want) << "x " << x << " zp " << zp << " multiplier " << m.multiplier << " shift " << m.shift;
      ++checks;
    }
  }
  std::printf("[ info ] %d random multipliers x 256 inputs = %lld checks, %lld rounding ties (%lld negative)\n",
              kParams, static_cast<long long>(checks), static_cast<long long>(ties),
              static_cast<long long>(neg_ties));
  EXPECT_GT(neg_ties, 1000);  // the tie direction was really exercised
}

// From the float32 scales: the normalisation, the three Q15 multipliers, the
// dequantized ACC values and the whole ADD, for random scales/zero points.
TEST(VtaAddDequantIndependent, RandomScalesParamsDequantAndAdd) {
  Gen g(0xADD13u);
  int64_t sets = 0, deq_checks = 0, add_checks = 0, rejected = 0;
  for (int i = 0; i < 20000; ++i) {
    float sa = g.scale(), sb = g.scale(), sy = g.scale();
    switch (g.uni(0, 6)) {
      case 0: sb = sa; break;                                   // equal scales: s/t = 1/2 exactly
      case 1: sb = std::nextafter(sa, 1e30f); break;            // almost equal
      case 2: sy = static_cast<float>(sa * std::exp2(g.unif(-30, 30))); break;
      default: break;
    }
    if (!(sy > 0.0f) || !std::isfinite(sy)) sy = sa;
    const int za = g.zero_point(), zb = g.zero_point(), zy = g.zero_point();

    const double t = 2.0 * std::max(static_cast<double>(sa), static_cast<double>(sb));
    const SpecQ15 ma = spec_q15(static_cast<double>(sa) / t);
    const SpecQ15 mb = spec_q15(static_cast<double>(sb) / t);
    const SpecQ15 my = spec_q15(t / (128.0 * static_cast<double>(sy)));

    if (15 - my.shift < -31) {  // the SHR immediate cannot express it
      EXPECT_THROW(cosim::quant::vta_make_add_params(sa, za, sb, zb, sy, zy), cosim::InputError)
          << sa << " " << sb << " " << sy;
      ++rejected;
      continue;
    }
    const cosim::quant::VtaAddParams p = cosim::quant::vta_make_add_params(sa, za, sb, zb, sy, zy);
    ASSERT_EQ(p.a_offset, -za);
    ASSERT_EQ(p.b_offset, -zb);
    ASSERT_EQ(p.a_multiplier.multiplier, ma.multiplier) << sa << " / " << t;
    ASSERT_EQ(p.a_multiplier.shift, ma.shift) << sa << " / " << t;
    ASSERT_EQ(p.b_multiplier.multiplier, mb.multiplier) << sb << " / " << t;
    ASSERT_EQ(p.b_multiplier.shift, mb.shift) << sb << " / " << t;
    ASSERT_EQ(p.out_multiplier.multiplier, my.multiplier) << t << " / 128 " << sy;
    ASSERT_EQ(p.out_multiplier.shift, my.shift) << t << " / 128 " << sy;
    ASSERT_EQ(p.out_zero_point, zy);
    ASSERT_LE(ma.shift, 0);
    ASSERT_LE(mb.shift, 0);
    ++sets;

    int64_t deq_a[256], deq_b[256];
    for (int x = -128; x <= 127; ++x) {
      deq_a[x + 128] = spec_dequant(x, za, ma);
      deq_b[x + 128] = spec_dequant(x, zb, mb);
      ASSERT_EQ(cosim::quant::vta_add_dequantize(static_cast<int8_t>(x), p.a_offset, p.a_multiplier),
                deq_a[x + 128])
          << "a: x " << x << " zp " << za << " s_a " << sa << " s_b " << sb;
      ASSERT_EQ(cosim::quant::vta_add_dequantize(static_cast<int8_t>(x), p.b_offset, p.b_multiplier),
                deq_b[x + 128])
          << "b: x " << x << " zp " << zb << " s_a " << sa << " s_b " << sb;
      // "16-bit values A', B' loaded into ACC".
      ASSERT_LE(std::abs(deq_a[x + 128]), 32767);
      deq_checks += 2;
    }
    // The golden ADD on a random sample of input pairs.
    for (int k = 0; k < 64; ++k) {
      const int xa = g.uni(-128, 127), xb = g.uni(-128, 127);
      const int want = spec_add(deq_a[xa + 128], deq_b[xb + 128], my, zy);
      ASSERT_EQ(cosim::quant::vta_add(static_cast<int8_t>(xa), static_cast<int8_t>(xb), p), want)
          << xa << " " << xb << " scales " << sa << " " << sb << " " << sy << " zps " << za << " " << zb << " "
          << zy;
      ++add_checks;
    }
  }
  std::printf("[ info ] %lld parameter sets (%lld rejected), %lld dequantizations, %lld ADDs\n",
              static_cast<long long>(sets), static_cast<long long>(rejected), static_cast<long long>(deq_checks),
              static_cast<long long>(add_checks));
  EXPECT_GT(sets, 15000);
  EXPECT_GT(rejected, 0);
}

}  // namespace
