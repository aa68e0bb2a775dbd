// TFLite int8 requantization (spec/quantization.md s.1). Expected values are
// hand-derived constants or independent formulas in exact wide arithmetic.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "common/error.hpp"
#include "quant/tflite_quant.hpp"

namespace {

using namespace cosim::quant;
constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
using i128 = __int128;

// Floor division for a positive divisor, in 128 bits.
i128 floor_div(i128 a, i128 d) { return a >= 0 ? a / d : -((-a + d - 1) / d); }

// SRDHM = round(a*b / 2^31) with ties toward +infinity, saturated.
int32_t ref_srdhm(int32_t a, int32_t b) {
  const i128 r = floor_div(static_cast<i128>(a) * b + (i128{1} << 30), i128{1} << 31);
  return r > kMax ? kMax : static_cast<int32_t>(r);
}

// RoundingDivideByPOT = x / 2^e rounded half away from zero.
int32_t ref_rdbpot(int32_t x, int e) {
  const i128 mag = x < 0 ? -static_cast<i128>(x) : static_cast<i128>(x);
  const i128 q = e == 0 ? mag : (mag + (i128{1} << (e - 1))) >> e;
  return static_cast<int32_t>(x < 0 ? -q : q);
}

int32_t wrap(i128 v) { return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v))); }

int32_t ref_double(int32_t x, QuantizedMultiplier m) {
  const int32_t shifted = wrap(static_cast<i128>(x) * (i128{1} << (m.shift > 0 ? m.shift : 0)));
  return ref_rdbpot(ref_srdhm(shifted, m.multiplier), m.shift < 0 ? -m.shift : 0);
}

int32_t ref_single(int32_t x, QuantizedMultiplier m) {
  const int t = 31 - m.shift;
  const i128 r = floor_div(static_cast<i128>(x) * m.multiplier + (i128{1} << (t - 1)), i128{1} << t);
  return static_cast<int32_t>(r);
}

void expect_qm(double real, int32_t mult, int shift) {
  const QuantizedMultiplier q = quantize_multiplier(real);
  EXPECT_EQ(q.multiplier, mult) << real;
  EXPECT_EQ(q.shift, shift) << real;
}

TEST(QuantizeMultiplier, HandDerivedValues) {
  expect_qm(0.5, 1 << 30, 0);           // 0.5 * 2^0
  expect_qm(0.75, 1610612736, 0);       // 0.75 * 2^31
  expect_qm(0.1, 1717986918, -3);       // 0.8 * 2^31 = 1717986918.4
  expect_qm(0.0, 0, 0);
}

TEST(QuantizeMultiplier, ExactlyOneAndAboveOneGivePositiveShift) {
  expect_qm(1.0, 1 << 30, 1);           // 1.0 = 0.5 * 2^1
  expect_qm(3.0, 1610612736, 2);        // 0.75 * 2^2
  expect_qm(96.0, 1610612736, 7);       // the seed's example: 0.75 * 2^7
}

TEST(QuantizeMultiplier, RollsOverAtTwoTo31) {
  // q = 1 - 2^-33: q * 2^31 = 2^31 - 1/4 rounds to 2^31 -> 2^30, shift + 1.
  expect_qm(std::ldexp(1.0 - std::ldexp(1.0, -33), -3), 1 << 30, -2);
  // Just below the rollover: q * 2^31 = 2^31 - 1 exactly stays.
  expect_qm(std::ldexp(1.0 - std::ldexp(1.0, -31), -3), kMax, -3);
}

TEST(QuantizeMultiplier, ShiftBelowMinus31FlushesToZero) {
  expect_qm(std::ldexp(1.0, -33), 0, 0);        // 0.5 * 2^-32
  expect_qm(std::ldexp(1.0, -32), 1 << 30, -31);  // 0.5 * 2^-31 is kept
  expect_qm(1e-30, 0, 0);
}

TEST(QuantizeMultiplier, RejectsNegativeNanAndHuge) {
  EXPECT_THROW(quantize_multiplier(-0.5), cosim::InputError);
  EXPECT_THROW(quantize_multiplier(std::nan("")), cosim::InputError);
  EXPECT_THROW(quantize_multiplier(std::ldexp(1.0, 31)), cosim::InputError);
}

TEST(QuantizeMultiplier, ReconstructsWithinHalfUlp) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> exp(-30.0, 8.0);
  for (int i = 0; i < 2000; ++i) {
    const double m = std::pow(2.0, exp(rng));
    const QuantizedMultiplier q = quantize_multiplier(m);
    ASSERT_GE(q.multiplier, 1 << 30);
    const long double back = std::ldexp(static_cast<long double>(q.multiplier), q.shift - 31);
    EXPECT_LE(std::fabs(back - m), std::ldexp(0.5L, q.shift - 31) * 1.0000001L) << m;
  }
}

TEST(Srdhm, Int32MinSquaredSaturates) {
  EXPECT_EQ(saturating_rounding_doubling_high_mul(kMin, kMin), kMax);
}

TEST(Srdhm, HandDerivedValues) {
  EXPECT_EQ(saturating_rounding_doubling_high_mul(1 << 30, 1 << 30), 1 << 29);
  EXPECT_EQ(saturating_rounding_doubling_high_mul(kMin, kMax), -2147483647);
  EXPECT_EQ(saturating_rounding_doubling_high_mul(kMax, kMax), 2147483646);
  EXPECT_EQ(saturating_rounding_doubling_high_mul(kMin, 1 << 30), -(1 << 30));
}

TEST(Srdhm, TiesOnBothSigns) {
  // a*b/2^31 = +0.5, +1.5 -> 1, 2 ; -0.5, -1.5 -> 0, -1 (nudge 1 - 2^30, truncate).
  EXPECT_EQ(saturating_rounding_doubling_high_mul(1, 1 << 30), 1);
  EXPECT_EQ(saturating_rounding_doubling_high_mul(3, 1 << 30), 2);
  EXPECT_EQ(saturating_rounding_doubling_high_mul(-1, 1 << 30), 0);
  EXPECT_EQ(saturating_rounding_doubling_high_mul(-3, 1 << 30), -1);
  // Just off the tie on the negative side.
  EXPECT_EQ(saturating_rounding_doubling_high_mul(-3, (1 << 30) + 1), -2);
}

TEST(Srdhm, MatchesExactFormulaOnRandomInputs) {
  std::mt19937 rng(11);
  for (int i = 0; i < 20000; ++i) {
    const int32_t a = static_cast<int32_t>(rng()), b = static_cast<int32_t>(rng());
    ASSERT_EQ(saturating_rounding_doubling_high_mul(a, b), ref_srdhm(a, b)) << a << " " << b;
  }
}

TEST(RoundingDivideByPot, TiesAwayFromZeroOnBothSigns) {
  EXPECT_EQ(rounding_divide_by_pot(5, 1), 3);    // 2.5
  EXPECT_EQ(rounding_divide_by_pot(-5, 1), -3);  // -2.5
  EXPECT_EQ(rounding_divide_by_pot(6, 2), 2);    // 1.5
  EXPECT_EQ(rounding_divide_by_pot(-6, 2), -2);  // -1.5
  EXPECT_EQ(rounding_divide_by_pot(2, 2), 1);    // 0.5
  EXPECT_EQ(rounding_divide_by_pot(-2, 2), -1);  // -0.5
  EXPECT_EQ(rounding_divide_by_pot(-5, 2), -1);  // -1.25
  EXPECT_EQ(rounding_divide_by_pot(7, 2), 2);    // 1.75
  EXPECT_EQ(rounding_divide_by_pot(-7, 2), -2);  // -1.75
}

TEST(RoundingDivideByPot, ExponentEdges) {
  EXPECT_EQ(rounding_divide_by_pot(-12345, 0), -12345);
  EXPECT_EQ(rounding_divide_by_pot(kMin, 31), -1);
  EXPECT_EQ(rounding_divide_by_pot(1 << 30, 31), 1);     // 0.5
  EXPECT_EQ(rounding_divide_by_pot(-(1 << 30), 31), -1);  // -0.5
  EXPECT_EQ(rounding_divide_by_pot(kMax, 31), 1);
  EXPECT_THROW(rounding_divide_by_pot(1, 32), std::invalid_argument);
  EXPECT_THROW(rounding_divide_by_pot(1, -1), std::invalid_argument);
}

TEST(RoundingDivideByPot, MatchesExactFormulaOnRandomInputs) {
  std::mt19937 rng(13);
  for (int i = 0; i < 20000; ++i) {
    const int32_t x = static_cast<int32_t>(rng());
    const int e = static_cast<int>(rng() % 32);
    ASSERT_EQ(rounding_divide_by_pot(x, e), ref_rdbpot(x, e)) << x << " " << e;
  }
}

TEST(MultiplyByQuantizedMultiplier, RoundingModesDifferByOneLsbOnCraftedCase) {
  // m = 0.75 * 2^-1 = 0.375; x = 1: exact 0.375.
  // Double: SRDHM(1, 0.75*2^31) = round(0.75) = 1, then 1/2 = 0.5 -> 1.
  // Single: (0.75*2^31 + 2^31) >> 32 = floor(0.875) = 0.
  const QuantizedMultiplier m{3 << 29, -1};
  EXPECT_EQ(multiply_by_quantized_multiplier(1, m, Rounding::kDouble), 1);
  EXPECT_EQ(multiply_by_quantized_multiplier(1, m, Rounding::kSingle), 0);
  // Negative side: -0.375 -> double -1, single 0.
  EXPECT_EQ(multiply_by_quantized_multiplier(-1, m, Rounding::kDouble), -1);
  EXPECT_EQ(multiply_by_quantized_multiplier(-1, m, Rounding::kSingle), 0);
}

TEST(MultiplyByQuantizedMultiplier, SingleRoundingTiesGoUp) {
  // m = 0.5 * 2^-1 = 0.25: x = 2 -> 0.5 -> 1 ; x = -2 -> -0.5 -> 0 ; x = 6 -> 1.5 -> 2.
  const QuantizedMultiplier m{1 << 30, -1};
  EXPECT_EQ(multiply_by_quantized_multiplier(2, m, Rounding::kSingle), 1);
  EXPECT_EQ(multiply_by_quantized_multiplier(-2, m, Rounding::kSingle), 0);
  EXPECT_EQ(multiply_by_quantized_multiplier(6, m, Rounding::kSingle), 2);
  // Double rounding: exact halves round away from zero.
  EXPECT_EQ(multiply_by_quantized_multiplier(-2, m, Rounding::kDouble), -1);
  EXPECT_EQ(multiply_by_quantized_multiplier(-6, m, Rounding::kDouble), -2);
}

TEST(MultiplyByQuantizedMultiplier, PositiveShift) {
  const QuantizedMultiplier three = quantize_multiplier(3.0);  // {0.75 * 2^31, 2}
  for (Rounding r : {Rounding::kDouble, Rounding::kSingle}) {
    EXPECT_EQ(multiply_by_quantized_multiplier(5, three, r), 15);
    EXPECT_EQ(multiply_by_quantized_multiplier(-7, three, r), -21);
  }
  const QuantizedMultiplier one = quantize_multiplier(1.0);  // {2^30, 1}
  for (Rounding r : {Rounding::kDouble, Rounding::kSingle}) {
    EXPECT_EQ(multiply_by_quantized_multiplier(123456, one, r), 123456);
    EXPECT_EQ(multiply_by_quantized_multiplier(-128, one, r), -128);
  }
}

TEST(MultiplyByQuantizedMultiplier, ZeroMultiplierGivesZero) {
  for (Rounding r : {Rounding::kDouble, Rounding::kSingle}) {
    EXPECT_EQ(multiply_by_quantized_multiplier(kMax, QuantizedMultiplier{}, r), 0);
    EXPECT_EQ(multiply_by_quantized_multiplier(kMin, QuantizedMultiplier{}, r), 0);
  }
}

TEST(MultiplyByQuantizedMultiplier, BothModesMatchExactFormulasOnRandomInputs) {
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> exp(-34.0, 0.0);
  int differ = 0;
  for (int i = 0; i < 20000; ++i) {
    const QuantizedMultiplier m = quantize_multiplier(std::pow(2.0, exp(rng)));
    const int32_t x = static_cast<int32_t>(rng()) >> (rng() % 24);
    const int32_t d = multiply_by_quantized_multiplier(x, m, Rounding::kDouble);
    const int32_t s = multiply_by_quantized_multiplier(x, m, Rounding::kSingle);
    ASSERT_EQ(d, ref_double(x, m)) << x << " " << m.multiplier << " " << m.shift;
    ASSERT_EQ(s, ref_single(x, m)) << x << " " << m.multiplier << " " << m.shift;
    ASSERT_LE(std::abs(d - s), 1);
    differ += d != s;
  }
  EXPECT_GT(differ, 0);  // the modes are really different
}

TEST(ActivationRange, NoneReluRelu6) {
  const ActivationRange none = activation_range(Activation::kNone, 0.1f, 5);
  EXPECT_EQ(none.min, -128);
  EXPECT_EQ(none.max, 127);
  const ActivationRange relu = activation_range(Activation::kRelu, 0.1f, 5);
  EXPECT_EQ(relu.min, 5);
  EXPECT_EQ(relu.max, 127);
  // RELU6: zp - 10, 6 / 0.05 = 120 -> [-10, 110].
  const ActivationRange r6 = activation_range(Activation::kRelu6, 0.05f, -10);
  EXPECT_EQ(r6.min, -10);
  EXPECT_EQ(r6.max, 110);
  // 6 / 0.4f = 14.99999978: rounds to 15 (truncation would give 14).
  EXPECT_EQ(activation_range(Activation::kRelu6, 0.4f, 0).max, 15);
  // Upper clamp at 127.
  EXPECT_EQ(activation_range(Activation::kRelu6, 6.0f / 255.0f, -100).max, 127);
  EXPECT_THROW(activation_range(Activation::kRelu6, 0.0f, 0), cosim::InputError);
}

TEST(ActivationRange, ZeroPointsAtInt8Extremes) {
  EXPECT_EQ(activation_range(Activation::kRelu, 0.1f, -128).min, -128);
  EXPECT_EQ(activation_range(Activation::kRelu, 0.1f, 127).min, 127);
  const ActivationRange lo = activation_range(Activation::kRelu6, 0.1f, -128);  // 6/0.1 = 60
  EXPECT_EQ(lo.min, -128);
  EXPECT_EQ(lo.max, -68);
  const ActivationRange hi = activation_range(Activation::kRelu6, 0.1f, 127);
  EXPECT_EQ(hi.min, 127);
  EXPECT_EQ(hi.max, 127);
}

}  // namespace
