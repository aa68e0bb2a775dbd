// VTA 16-bit scheme (spec/quantization.md s.2, seed 000; ALU semantics from
// spec/vta-isa.md). Expected values are hand-computed or come from exact
// arithmetic written independently here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "common/error.hpp"
#include "vta/golden/vta_quant.hpp"

namespace {

using namespace cosim::quant;
using i128 = __int128;
constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
constexpr int32_t kMax = std::numeric_limits<int32_t>::max();

i128 floor_div_pow2(i128 a, int e) {
  const i128 d = i128{1} << e;
  return a >= 0 ? a / d : -((-a + d - 1) / d);
}

void expect_vm(double scale, int mult, int shift) {
  const VtaMultiplier m = vta_quantize_multiplier(scale);
  EXPECT_EQ(m.multiplier, mult) << scale;
  EXPECT_EQ(m.shift, shift) << scale;
}

TEST(VtaMultiplier, HandDerivedValues) {
  expect_vm(96.0, 24576, 7);  // seed: 96 = 0.75 * 2^7, 0.75 * 2^15 = 24576
  expect_vm(0.75, 24576, 0);
  expect_vm(0.5, 16384, 0);
  expect_vm(1.0, 16384, 1);
  expect_vm(0.1, 26214, -3);  // 0.8 * 32768 = 26214.4
  expect_vm(0.0, 0, 0);
}

TEST(VtaMultiplier, RollsOverAtTwoTo15) {
  expect_vm(1.0 - std::ldexp(1.0, -17), 16384, 1);  // 32767.75 -> 32768 -> rollover
  expect_vm(1.0 - std::ldexp(1.0, -16), 16384, 1);  // 32767.5 rounds up -> rollover
  expect_vm(1.0 - std::ldexp(1.0, -15), 32767, 0);  // 32767 exactly stays
  expect_vm(std::ldexp(1.0 - std::ldexp(1.0, -17), -9), 16384, -8);
}

TEST(VtaMultiplier, RejectsBadScales) {
  EXPECT_THROW(vta_quantize_multiplier(-1.0), cosim::InputError);
  EXPECT_THROW(vta_quantize_multiplier(INFINITY), cosim::InputError);
}

TEST(VtaAlu, LaneSemanticsWrapAndShift) {
  EXPECT_EQ(vta_alu(VtaAluOp::kAdd, kMax, 1), kMin);  // wraps
  EXPECT_EQ(vta_alu(VtaAluOp::kAdd, -5, 3), -2);
  EXPECT_EQ(vta_alu(VtaAluOp::kMul, 65536, 65536), 0);       // low 32 bits of 2^32
  EXPECT_EQ(vta_alu(VtaAluOp::kMul, 65536, 32768), kMin);    // 2^31 wraps
  EXPECT_EQ(vta_alu(VtaAluOp::kMul, -3, 7), -21);
  EXPECT_EQ(vta_alu(VtaAluOp::kShr, -8, 1), -4);             // arithmetic
  EXPECT_EQ(vta_alu(VtaAluOp::kShr, -1, 31), -1);
  EXPECT_EQ(vta_alu(VtaAluOp::kShr, 3, -4), 48);             // negative = left shift
  EXPECT_EQ(vta_alu(VtaAluOp::kShr, 0x40000000, -1), kMin);  // left shift wraps
  EXPECT_EQ(vta_alu(VtaAluOp::kMin, -3, 2), -3);
  EXPECT_EQ(vta_alu(VtaAluOp::kMax, -3, 2), 2);
  EXPECT_THROW(vta_alu(VtaAluOp::kShr, 1, 32), std::domain_error);
  EXPECT_THROW(vta_alu(VtaAluOp::kShr, 1, -32), std::domain_error);
}

// ---------------------------------------------------------------------------
// ADD

TEST(VtaAdd, HostDequantizationRoundsToNearest) {
  // (3 << 7) * 21845 / 2^15 = 255.996 -> 256 (truncation would give 255).
  EXPECT_EQ(vta_add_dequantize(3, 0, {21845, 0}), 256);
  EXPECT_EQ(vta_add_dequantize(-3, 0, {21845, 0}), -256);  // -255.996
  // Exact ties go up: 128 * 16512 / 2^15 = 64.5 -> 65 ; -64.5 -> -64.
  EXPECT_EQ(vta_add_dequantize(1, 0, {16512, 0}), 65);
  EXPECT_EQ(vta_add_dequantize(-1, 0, {16512, 0}), -64);
  // Then >> -shift (floor): 256 >> 2 = 64 ; -256 >> 3 = -32 ; 65 >> 1 = 32.
  EXPECT_EQ(vta_add_dequantize(3, 0, {21845, -2}), 64);
  EXPECT_EQ(vta_add_dequantize(-3, 0, {21845, -3}), -32);
  EXPECT_EQ(vta_add_dequantize(1, 0, {16512, -1}), 32);
  // offset = -zero_point: x = -128 with zp -128 is 0; x = 127 with zp -128 is 255.
  EXPECT_EQ(vta_add_dequantize(-128, 128, {16384, 0}), 0);
  EXPECT_EQ(vta_add_dequantize(127, 128, {16384, 0}), 16320);  // 255*128/2
  EXPECT_EQ(vta_add_dequantize(-128, -127, {32767, 0}), -32639);  // -255*128*32767/32768 = -32639.004
  // Shifts past 31 leave only the sign.
  EXPECT_EQ(vta_add_dequantize(-1, 0, {16384, -40}), -1);
  EXPECT_EQ(vta_add_dequantize(1, 0, {16384, -40}), 0);
}

TEST(VtaAdd, ParamsFollowTheSeedNormalisation) {
  // t = 2 * max(0.5, 0.25) = 1: s_a' = 0.5, s_b' = 0.25, s_yinv' = 1 / (128 * 1).
  const VtaAddParams p = vta_make_add_params(0.5f, -7, 0.25f, 9, 1.0f, 3);
  EXPECT_EQ(p.a_offset, 7);
  EXPECT_EQ(p.b_offset, -9);
  EXPECT_EQ(p.a_multiplier.multiplier, 16384);
  EXPECT_EQ(p.a_multiplier.shift, 0);
  EXPECT_EQ(p.b_multiplier.multiplier, 16384);
  EXPECT_EQ(p.b_multiplier.shift, -1);
  EXPECT_EQ(p.out_multiplier.multiplier, 16384);  // 2^-7 = 0.5 * 2^-6
  EXPECT_EQ(p.out_multiplier.shift, -6);
  EXPECT_EQ(p.out_zero_point, 3);
  EXPECT_THROW(vta_make_add_params(0.0f, 0, 1.0f, 0, 1.0f, 0), cosim::InputError);
}

TEST(VtaAdd, ProgramExampleByHand) {
  const VtaAddParams p = vta_make_add_params(0.5f, 0, 0.25f, 0, 1.0f, 3);
  // A' = (10 << 7) * 16384 / 2^15 = 640 ; B' = ((6 << 7) * 16384 / 2^15) >> 1 = 192.
  const int32_t a = vta_add_dequantize(10, p.a_offset, p.a_multiplier);
  const int32_t b = vta_add_dequantize(6, p.b_offset, p.b_multiplier);
  EXPECT_EQ(a, 640);
  EXPECT_EQ(b, 192);
  // A = 832 ; * 16384 = 13631488 ; >> (15 + 6) = 6 (6.5 floored) ; + 3 = 9.
  const std::vector<VtaAluStep> prog = vta_add_program(p, b);
  ASSERT_EQ(prog.size(), 6u);
  EXPECT_EQ(prog[0].op, VtaAluOp::kAdd);
  EXPECT_FALSE(prog[0].use_imm);
  EXPECT_EQ(prog[1].op, VtaAluOp::kMul);
  EXPECT_EQ(prog[1].operand, 16384);
  EXPECT_EQ(prog[2].op, VtaAluOp::kShr);
  EXPECT_EQ(prog[2].operand, 21);
  EXPECT_EQ(prog[3].op, VtaAluOp::kAdd);
  EXPECT_EQ(prog[3].operand, 3);
  EXPECT_EQ(prog[4].op, VtaAluOp::kMin);
  EXPECT_EQ(prog[4].operand, 127);  // int8 range, not the seed's 128 / -127
  EXPECT_EQ(prog[5].op, VtaAluOp::kMax);
  EXPECT_EQ(prog[5].operand, -128);
  EXPECT_EQ(vta_add_apply(a, b, p), 9);
  EXPECT_EQ(vta_add(10, 6, p), 9);
  // Clamp both ways: 127 * 0.5 + 127 * 0.25 = 95.25 -> 95 + 3 = 98 ; with zp 100 -> 127.
  EXPECT_EQ(vta_add(127, 127, p), 98);
  EXPECT_EQ(vta_add(127, 127, vta_make_add_params(0.5f, 0, 0.25f, 0, 1.0f, 100)), 127);
  EXPECT_EQ(vta_add(-128, -128, vta_make_add_params(0.5f, 0, 0.25f, 0, 1.0f, -100)), -128);
}

// Independent model of the seed's ADD: int64 throughout, floor division.
int ref_vta_add(int xa, int xb, int zpa, int zpb, VtaMultiplier ma, VtaMultiplier mb, VtaMultiplier my, int zpy) {
  auto deq = [](int x, int zp, VtaMultiplier m) {
    const int64_t v = int64_t{x - zp} * 128 * m.multiplier;
    const int64_t r = static_cast<int64_t>(floor_div_pow2(v + 16384, 15));
    return static_cast<int64_t>(floor_div_pow2(r, -m.shift));
  };
  const int64_t s = deq(xa, zpa, ma) + deq(xb, zpb, mb);
  const int64_t y = static_cast<int64_t>(floor_div_pow2(static_cast<i128>(s) * my.multiplier, 15 - my.shift)) + zpy;
  return static_cast<int>(std::clamp<int64_t>(y, -128, 127));
}

TEST(VtaAdd, AllInputPairsMatchIndependentModel) {
  struct Case { float sa; int za; float sb; int zb; float sy; int zy; };
  const Case cases[] = {{0.05f, -128, 0.02f, 127, 0.06f, -5},
                        {0.0123f, 3, 0.0456f, -17, 0.0311f, 127},
                        {1.0f, 0, 1.0f, 0, 0.001f, 0},  // large s_yinv': MUL near 2^31
                        {0.1f, 10, 1e-7f, 0, 0.1f, -128}};
  for (const Case& c : cases) {
    const VtaAddParams p = vta_make_add_params(c.sa, c.za, c.sb, c.zb, c.sy, c.zy);
    for (int xa = -128; xa <= 127; ++xa)
      for (int xb = -128; xb <= 127; ++xb)
        ASSERT_EQ(vta_add(static_cast<int8_t>(xa), static_cast<int8_t>(xb), p),
                  ref_vta_add(xa, xb, c.za, c.zb, p.a_multiplier, p.b_multiplier, p.out_multiplier, c.zy))
            << xa << " " << xb << " scales " << c.sa << " " << c.sb << " " << c.sy;
  }
}

TEST(VtaAdd, StaysCloseToRealArithmetic) {
  const VtaAddParams p = vta_make_add_params(0.05f, -3, 0.03f, 4, 0.07f, -2);
  for (int xa = -128; xa <= 127; xa += 3)
    for (int xb = -128; xb <= 127; xb += 5) {
      const double real = (0.05 * (xa + 3) + 0.03 * (xb - 4)) / 0.07 - 2;
      const double want = std::clamp(real, -128.0, 127.0);
      EXPECT_LE(std::fabs(vta_add(static_cast<int8_t>(xa), static_cast<int8_t>(xb), p) - want), 1.5)
          << xa << " " << xb;
    }
}

// ---------------------------------------------------------------------------
// CONV2D requantization plans

TEST(VtaRequant, AccBoundFromWeightsAndInputRange) {
  const int8_t w[] = {1, -2, 3};
  // zp_in -128: (x - zp) in [0, 255]; hi = 10 + 255 + 765 = 1030, lo = 10 - 510 = -500.
  EXPECT_EQ(vta_conv_acc_bound(w, 3, 10, -128, 127, -128), 1030);
  // zp_in 0: (x - zp) in [-128, 127]; hi = 10 + 127 + 256 + 381 = 774, lo = 10 - 128 - 254 - 384 = -756.
  EXPECT_EQ(vta_conv_acc_bound(w, 3, 10, -128, 127, 0), 774);
  // Negative bias dominates: lo = -1000 - 766.
  EXPECT_EQ(vta_conv_acc_bound(w, 3, -1000, -128, 127, 0), 1766);
  // Narrow input range [0, 3], zp 0: hi = 3 + 9 = 12, lo = -6.
  EXPECT_EQ(vta_conv_acc_bound(w, 3, 0, 0, 3, 0), 12);
}

TEST(VtaRequant, PreShiftAvoidsOverflowThatWouldFlipTheClamp) {
  // m = 32767, shift -4 (scale ~ 2^-5): total right shift 19. Bound 2^20:
  // 2^16 * 32767 fits int32 and 2^17 * 32767 does not, so pre = 4, post = 15.
  const VtaRequantPlan plan = vta_plan_requant({32767, -4}, 1 << 20, 0);
  EXPECT_EQ(plan.pre_shift, 4);
  EXPECT_EQ(plan.post_shift, 15);
  EXPECT_EQ(plan.multiplier, 32767);
  // acc = 10^6: exact 10^6 * 32767 / 2^19 = 62498.3 -> clamps to 127.
  EXPECT_EQ(vta_requant_apply(1000000, plan), 127);
  // Without the pre-shift the MUL wraps to -1592738368, >> 19 = -3038 -> -128.
  const std::vector<VtaAluStep> naive = {{VtaAluOp::kMul, false, 32767}, {VtaAluOp::kShr, false, 19},
                                         {VtaAluOp::kAdd, true, 0},      {VtaAluOp::kMin, true, 127},
                                         {VtaAluOp::kMax, true, -128}};
  EXPECT_EQ(vta_run_alu(1000000, naive), -128);
}

TEST(VtaRequant, PreShiftHandExampleInRange) {
  // m = 32767, shift -19: total 34. Bound 2^20 -> pre 4, post 30 (<= 31).
  const VtaRequantPlan plan = vta_plan_requant({32767, -19}, 1 << 20, 0);
  EXPECT_EQ(plan.pre_shift, 4);
  EXPECT_EQ(plan.post_shift, 30);
  // -2^20 >> 4 = -65536 ; * 32767 = -2147418112 ; >> 30 = -2.
  EXPECT_EQ(vta_requant_apply(-(1 << 20), plan), -2);
  // 2^20 - 1 >> 4 = 65535 ; * 32767 = 2147385345 ; >> 30 = 1.
  EXPECT_EQ(vta_requant_apply((1 << 20) - 1, plan), 1);
  // A small bound needs no pre-shift: 1000 * 32767 fits.
  EXPECT_EQ(vta_plan_requant({32767, -19}, 1000, 0).pre_shift, 0);
}

TEST(VtaRequant, PostShiftAbove31IsClampedExactly) {
  // shift -30: total 45 ; pre 0 for a small bound ; post clamps to 31.
  const VtaRequantPlan plan = vta_plan_requant({20000, -30}, 50000, 5);
  EXPECT_EQ(plan.pre_shift, 0);
  EXPECT_EQ(plan.post_shift, 31);
  EXPECT_EQ(vta_requant_apply(50000, plan), 5);   // floor(tiny) = 0
  EXPECT_EQ(vta_requant_apply(-1, plan), 4);      // floor(-tiny) = -1
  EXPECT_EQ(vta_requant_apply(0, plan), 5);
}

TEST(VtaRequant, ProgramListsTheSixInstructions) {
  VtaRequantPlan plan;
  plan.pre_shift = 3;
  plan.multiplier = 20000;
  plan.post_shift = 17;
  plan.zero_point = -7;
  plan.act_min = -7;
  plan.act_max = 100;
  const std::vector<VtaAluStep> p = vta_requant_program(plan);
  ASSERT_EQ(p.size(), 6u);
  const VtaAluOp ops[] = {VtaAluOp::kShr, VtaAluOp::kMul, VtaAluOp::kShr, VtaAluOp::kAdd, VtaAluOp::kMin, VtaAluOp::kMax};
  const int32_t operands[] = {3, 20000, 17, -7, 100, -7};
  const bool imm[] = {false, false, false, true, true, true};
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(p[i].op, ops[i]);
    EXPECT_EQ(p[i].operand, operands[i]);
    EXPECT_EQ(p[i].use_imm, imm[i]);
  }
  // Hand: 1000000 >> 3 = 125000 ; * 20000 = 2.5e9 wraps to -1794967296 ;
  // >> 17 = -13694.6 -> -13695 ; - 7 ; clamp -> -7.
  EXPECT_EQ(vta_requant_apply(1000000, plan), -7);
  // 5000 >> 3 = 625 ; * 20000 = 12500000 ; >> 17 = 95 ; - 7 = 88.
  EXPECT_EQ(vta_requant_apply(5000, plan), 88);
}

TEST(VtaRequant, ApplyEqualsAluProgramIncludingWraps) {
  std::mt19937 rng(21);
  for (int i = 0; i < 20000; ++i) {
    VtaRequantPlan plan;
    plan.pre_shift = static_cast<int>(rng() % 32);
    plan.multiplier = static_cast<int16_t>(rng());
    plan.post_shift = static_cast<int>(rng() % 32);
    plan.zero_point = static_cast<int32_t>(rng() % 256) - 128;
    const int32_t acc = static_cast<int32_t>(rng());
    ASSERT_EQ(vta_requant_apply(acc, plan), static_cast<int8_t>(vta_run_alu(acc, vta_requant_program(plan))));
  }
}

// Independent minimality check: extremes of floor(acc / 2^p) * m in 128 bits.
bool product_fits(int64_t bound, int p, int m) {
  const i128 hi = floor_div_pow2(bound, p) * m, lo = floor_div_pow2(-static_cast<i128>(bound), p) * m;
  auto fits = [](i128 v) { return v >= kMin && v <= kMax; };
  return fits(hi) && fits(lo);
}

// Room for the zero point added before the post-shift (post <= 30).
bool zero_point_fits(int64_t bound, int p, int m, int total, int32_t zp) {
  const int post = total - p;
  if (post < 0 || post > 30) return false;
  const i128 z = static_cast<i128>(zp) * (i128{1} << post);
  const i128 hi = floor_div_pow2(bound, p) * m + z, lo = floor_div_pow2(-static_cast<i128>(bound), p) * m + z;
  return hi >= kMin && hi <= kMax && lo >= kMin && lo <= kMax;
}

TEST(VtaRequant, PlansAreMinimalInRangeAndExact) {
  std::mt19937_64 rng(23);
  std::uniform_real_distribution<double> log_scale(-40.0, -1.0);
  std::uniform_int_distribution<int> log_bound(0, 31);
  int bumped = 0;
  for (int i = 0; i < 3000; ++i) {
    const VtaMultiplier m = vta_quantize_multiplier(std::pow(2.0, log_scale(rng)));
    const int64_t bound = std::min<int64_t>(int64_t{1} << 31, static_cast<int64_t>(rng() % (uint64_t{1} << log_bound(rng))) + 1);
    const int32_t zp = static_cast<int32_t>(rng() % 256) - 128;
    const VtaRequantPlan plan = vta_plan_requant(m, bound, zp);
    ASSERT_GE(plan.pre_shift, 0);
    ASSERT_LE(plan.pre_shift, 31);
    ASSERT_GE(plan.post_shift, 0);
    ASSERT_LE(plan.post_shift, 31);
    // The smallest pre-shift that keeps the product in int32, one more where
    // that one leaves no room for zp << post and the next does.
    const int total = 15 - m.shift;
    int smallest = 0;
    while (!product_fits(bound, smallest, m.multiplier)) ++smallest;
    const bool bump = smallest < 31 && !zero_point_fits(bound, smallest, m.multiplier, total, zp) &&
                      zero_point_fits(bound, smallest + 1, m.multiplier, total, zp);
    ASSERT_EQ(plan.pre_shift, smallest + (bump ? 1 : 0)) << "bound " << bound << " zp " << zp;
    bumped += bump ? 1 : 0;
    // Exact: clamp(floor(floor(acc / 2^pre) * m / 2^(15 - shift - pre)) + zp), no wrap anywhere.
    for (int k = 0; k < 20; ++k) {
      int64_t acc = static_cast<int64_t>(rng() % (2 * static_cast<uint64_t>(bound) + 1)) - bound;
      if (k == 0) acc = bound > kMax ? kMax : bound;
      if (k == 1) acc = -bound;
      const i128 prod = floor_div_pow2(acc, plan.pre_shift) * m.multiplier;
      const i128 y = floor_div_pow2(prod, std::min(total - plan.pre_shift, 100)) + zp;
      const int want = static_cast<int>(std::clamp<i128>(y, -128, 127));
      ASSERT_EQ(vta_requant_apply(static_cast<int32_t>(acc), plan), want) << acc << " bound " << bound;
    }
  }
  EXPECT_GT(bumped, 10);  // the zero-point clause is exercised
}

TEST(VtaRequant, RejectsWhatTheProgramCannotExpress) {
  // Scale 2^15 -> {16384, 16}: total shift -1.
  EXPECT_THROW(vta_plan_requant(vta_quantize_multiplier(32768.0), 10, 0), cosim::InputError);
  // Scale 2^14 -> {16384, 15}: total 0 ; fine with a small bound (pre 0, post 0) ...
  const VtaRequantPlan ok = vta_plan_requant(vta_quantize_multiplier(16384.0), 1000, 0);
  EXPECT_EQ(ok.pre_shift, 0);
  EXPECT_EQ(ok.post_shift, 0);
  // ... but a bound of 2^20 needs pre 4 > total 0.
  EXPECT_THROW(vta_plan_requant(vta_quantize_multiplier(16384.0), 1 << 20, 0), cosim::InputError);
  // Accumulator bound beyond int32: the GEMM itself would wrap.
  EXPECT_THROW(vta_plan_requant({16384, -10}, (int64_t{1} << 31) + 1, 0), cosim::InputError);
  // Activation range outside int8.
  EXPECT_THROW(vta_plan_requant({16384, -10}, 100, 0, -129, 127), cosim::InputError);
  try {
    vta_plan_requant(vta_quantize_multiplier(32768.0), 10, 0, -128, 127, "layer conv1 channel 3");
    FAIL() << "no error";
  } catch (const cosim::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("layer conv1 channel 3"), std::string::npos);
  }
}

TEST(VtaRequant, ZeroPointAddedWithoutShiftMustNotWrap) {
  // Scale 32767 -> {32767, 15}: total shift 0, so pre 0 and post 0 for bound
  // 65538: products span [-2147483646, 2147483646]; zp +1 and -2 still fit,
  // zp +2 and -3 would wrap int32.
  const VtaMultiplier m = vta_quantize_multiplier(32767.0);
  ASSERT_EQ(m.multiplier, 32767);
  ASSERT_EQ(m.shift, 15);
  EXPECT_NO_THROW(vta_plan_requant(m, 65538, 1));
  EXPECT_NO_THROW(vta_plan_requant(m, 65538, -2));
  EXPECT_THROW(vta_plan_requant(m, 65538, 2), cosim::InputError);
  EXPECT_THROW(vta_plan_requant(m, 65538, -3), cosim::InputError);
  // One more in the bound needs a pre-shift, which total shift 0 cannot give.
  EXPECT_THROW(vta_plan_requant(m, 65539, 0), cosim::InputError);
}

}  // namespace
