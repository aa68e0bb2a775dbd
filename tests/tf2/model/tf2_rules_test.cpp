// One test per rule of shared/spec/tf2.md for the golden model. Expected
// values are hand-computed from the spec text (or from a plain formula
// written here), never produced by the code under test.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "common/error.hpp"
#include "tf2/fmap_quant.hpp"
#include "tf2/inq.hpp"
#include "tf2/packing.hpp"
#include "tf2/reference.hpp"
#include "tf2/sac.hpp"

namespace cosim::tf2 {
namespace {

// ---- INQ weights ---------------------------------------------------------

// max|w| = 1.0: max_exp = floor(log2(4/3)) = 0, min_exp = -6.
// Code of +2^e is 8 + (e - min_exp), of -2^e is (e - min_exp).
TEST(Tf2Inq, ThresholdAtOnePointFiveTimesPowerOfTwo) {
  const float at = 0.1875f;  // 1.5 * 2^-3
  const float below = std::nextafter(at, 0.0f);
  const float above = std::nextafter(at, 1.0f);
  const InqWeights r = inq_compress({1.0f, below, at, above, -below, -at});
  EXPECT_EQ(r.min_exp, -6);
  EXPECT_EQ(r.codes[0], 14);  // +2^0
  EXPECT_EQ(r.codes[1], 11);  // just below: +2^-3
  EXPECT_EQ(r.codes[2], 12);  // at the threshold: +2^-2
  EXPECT_EQ(r.codes[3], 12);  // just above: +2^-2
  EXPECT_EQ(r.codes[4], 3);   // -2^-3
  EXPECT_EQ(r.codes[5], 4);   // -2^-2
  EXPECT_DOUBLE_EQ(inq_code_value(12, -6), 0.25);
  EXPECT_DOUBLE_EQ(inq_code_value(3, -6), -0.125);
}

TEST(Tf2Inq, MaxExponentFollowsLargestMagnitude) {
  // max|w| = 2.9 -> 4/3*2.9 = 3.87 -> max_exp 1, min_exp -5.
  EXPECT_EQ(inq_compress({0.1f, -2.9f}).min_exp, -5);
  // max|w| = 3.0 = 1.5 * 2^1 -> rounds up to 2^2 -> min_exp -4.
  const InqWeights r = inq_compress({3.0f});
  EXPECT_EQ(r.min_exp, -4);
  EXPECT_EQ(r.codes[0], 14);
}

TEST(Tf2Inq, BelowMinExpBecomesZero) {
  // min_exp = -6: 2^-6 is kept, anything below 1.5 * 2^-7 is zero.
  const float keep = 0.015625f;       // 2^-6
  const float edge = 0.01171875f;     // 1.5 * 2^-7 -> rounds up to 2^-6
  const float cut = std::nextafter(edge, 0.0f);  // -> 2^-7 < min_exp -> 0
  const InqWeights r = inq_compress({1.0f, keep, edge, cut, -cut, 0.0f});
  EXPECT_EQ(r.codes[1], 8);
  EXPECT_EQ(r.codes[2], 8);
  EXPECT_EQ(r.codes[3], 7);
  EXPECT_EQ(r.codes[4], 7);
  EXPECT_EQ(r.codes[5], 7);
}

TEST(Tf2Inq, RejectsNonFiniteWeights) {
  EXPECT_THROW(inq_compress({1.0f, NAN}), InputError);
  EXPECT_THROW(inq_compress({INFINITY}), InputError);
}

// ---- packing -------------------------------------------------------------

TEST(Tf2Packing, LeastSignificantNibbleFirst) {
  // codes 1,2,3,4 | 5,6,(pad 7),(pad 7)
  const std::vector<uint16_t> w = pack_codes({1, 2, 3, 4, 5, 6});
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[0], 0x4321);
  EXPECT_EQ(w[1], 0x7765);
  const std::vector<uint8_t> bytes = words_to_bytes(w);
  EXPECT_EQ(bytes, (std::vector<uint8_t>{0x21, 0x43, 0x65, 0x77}));
  EXPECT_EQ(unpack_codes({0xE807, 0x0009}, 5), (std::vector<uint8_t>{7, 0, 8, 14, 9}));
}

TEST(Tf2Packing, InvalidCode1111IsRejected) {
  try {
    unpack_codes({0x1111, 0x1F11}, 8, "w.bin");
    FAIL() << "1111 accepted";
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("w.bin"), std::string::npos) << m;
    EXPECT_NE(m.find("index 6"), std::string::npos) << m;
  }
  // Outside the requested count it is not a code.
  EXPECT_NO_THROW(unpack_codes({0xF111}, 3));
  EXPECT_THROW(pack_codes({1, 15}), InputError);
  EXPECT_THROW(decode_code(15), InputError);
}

// ---- shift codes and products ---------------------------------------------

TEST(Tf2Shift, DeviceCodeLayout) {
  // code 13 = +2^(min_exp+5); min_exp -8, q_in 2, q_out 1: s = 15+1-2-3 = 11.
  EXPECT_EQ(device_shift_code(13, -8, 2, 1), 0x0B);
  // code 2 = -2^(min_exp+2) = -2^-6: s = 15+1-2-6 = 8, bit 7 set.
  EXPECT_EQ(device_shift_code(2, -8, 2, 1), 0x88);
  EXPECT_EQ(device_shift_code(7, -8, 2, 1), 0x40);
}

TEST(Tf2Shift, NegativeShiftClampsToZero) {
  // weight 2^-10, q_in 8, q_out 0: 15 + 0 - 8 - 10 = -3 -> 0.
  EXPECT_EQ(shift_amount(10, 8, 0), 0);
  EXPECT_EQ(shift_amount(7, 8, 0), 0);
  EXPECT_EQ(shift_amount(6, 8, 0), 1);
  EXPECT_EQ(device_shift_code(8, -10, 8, 0), 0x00);
  EXPECT_EQ(sac_product(5, device_shift_code(8, -10, 8, 0)), 5);  // not 5 >> 3
}

// spec/tf2.md, the original loader: n is the first i in 0..14 with |w| within
// 1 % of 2^-i, else 0; |w| < 1e-5 is the zero code. Boundaries worked by hand.
TEST(Tf2Shift, LoaderMatchesPowersWithinOnePercent) {
  EXPECT_EQ(loader_exponent(1.0), 0);
  EXPECT_EQ(loader_exponent(-0.25), 2);
  EXPECT_EQ(loader_exponent(std::ldexp(1.0, -14)), 14);
  EXPECT_EQ(loader_exponent(0.25 * 1.0099), 2);   // inside 1 %
  EXPECT_EQ(loader_exponent(0.25 * 0.9901), 2);
  EXPECT_EQ(loader_exponent(0.25 * 1.0101), 0);   // just outside: no match -> 2^0
  EXPECT_EQ(loader_exponent(0.25 * 0.9899), 0);
  EXPECT_EQ(loader_exponent(2.0), 0);             // exponent 1: acts as 2^0
  EXPECT_EQ(loader_exponent(std::ldexp(1.0, -15)), 0);  // exponent -15 (3.05e-5 >= 1e-5): 2^0
  EXPECT_EQ(loader_exponent(0.99e-5), -1);        // below 1e-5: zero code
  EXPECT_EQ(loader_exponent(-0.99e-5), -1);
  EXPECT_EQ(loader_exponent(1.01e-5), 0);         // above 1e-5, matches nothing: 2^0
  EXPECT_EQ(device_shift_code_of(0.99e-5, 0, 0), 0x40);
  // Exponents 1 and -15 take the shift of 2^0: s = 15 + q_out - q_in.
  EXPECT_EQ(device_shift_code_of(2.0, 3, 4), 16);
  EXPECT_EQ(device_shift_code_of(-std::ldexp(1.0, -15), 3, 4), 0x80 | 16);
  // The same through the INQ codes: min_exp -8, code 14 = +2^(min_exp+6) = 2^-2.
  EXPECT_EQ(device_shift_code(14, -8, 0, 0), 13);
  // min_exp -16, code 8 = +2^-16 (1.5e-5): outside 0 .. -14 -> n = 0, s = 15.
  EXPECT_EQ(device_shift_code(8, -16, 0, 0), 15);
  // min_exp -17, code 8 = +2^-17 (7.6e-6 < 1e-5): the zero code.
  EXPECT_EQ(device_shift_code(8, -17, 0, 0), 0x40);
}

// s is computed in 8 bits and kept above 31: the PE shifts by s & 31, and a
// code with bit 6 set (s >= 64) is zero.
TEST(Tf2Shift, ShiftsAbove31KeepTheirLowBits) {
  EXPECT_EQ(shift_amount(0, 0, 16), 31);
  EXPECT_EQ(device_shift_code_of(1.0, 0, 16), 31);
  EXPECT_EQ(sac_product(1, device_shift_code_of(1.0, 0, 16)), INT32_MIN);  // 1 << 31
  EXPECT_EQ(shift_amount(0, 0, 17), 32);
  EXPECT_EQ(sac_product(3, device_shift_code_of(1.0, 0, 17)), 3);          // 32 & 31 = 0
  EXPECT_EQ(sac_product(3, device_shift_code_of(1.0, 0, 18)), 6);          // 33 & 31 = 1
  EXPECT_EQ(shift_amount(0, 0, 49), 64);
  EXPECT_EQ(sac_product(3, device_shift_code_of(1.0, 0, 49)), 0);          // bit 6: zero
  // s = 63: bit 6 clear, 63 & 31 = 31: -3 << 31 wraps to INT32_MIN.
  EXPECT_EQ(sac_product(3, device_shift_code_of(-1.0, 0, 48)), INT32_MIN);
  // 8-bit wrap: 15 + 120 - 0 - 0 = 135 = int8 -121 -> negative -> 0.
  EXPECT_EQ(shift_amount(0, 0, 120), 0);
  // 15 + 0 - (-113) = 128 -> int8 -128 -> 0; 127 stays 127 (bit 6 set: zero).
  EXPECT_EQ(shift_amount(0, -113, 0), 0);
  EXPECT_EQ(shift_amount(0, -112, 0), 127);
}

TEST(Tf2Shift, NegationOfMinus128StaysMinus128) {
  EXPECT_EQ(sac_product(-128, 0x80), -128);
  EXPECT_EQ(sac_product(-128, 0x81), -256);
  EXPECT_EQ(sac_product(-127, 0x80), 127);
  EXPECT_EQ(sac_product(5, 0x83), -40);
  EXPECT_EQ(sac_product(-128, 0x00), -128);
  EXPECT_EQ(sac_product(100, 0x40), 0);
  EXPECT_EQ(sac_product(100, 0xC5), 0);
}

TEST(Tf2Shift, ProductWrapsModulo2To32) {
  // 127 << 25 = 0xFE000000 as int32.
  EXPECT_EQ(sac_product(127, 25), static_cast<int32_t>(0xFE000000u));
  EXPECT_EQ(sac_product(-1, 31), INT32_MIN);
}

// ---- requantization --------------------------------------------------------

constexpr int32_t kOne = 1 << 20;  // alpha without batch-norm

TEST(Tf2Requant, RoundHalfUpAtBoundaries) {
  // alpha = 2^20: t = acc; y = round half up of acc / 2^15.
  EXPECT_EQ(requantize(3 << 14, kOne, 0, false), 2);        // 1.5 -> 2
  EXPECT_EQ(requantize(-(3 << 14), kOne, 0, false), -1);    // -1.5 -> -1
  EXPECT_EQ(requantize(1 << 14, kOne, 0, false), 1);        // 0.5 -> 1
  EXPECT_EQ(requantize(-(1 << 14), kOne, 0, false), 0);     // -0.5 -> 0
  EXPECT_EQ(requantize((1 << 14) - 1, kOne, 0, false), 0);  // just below 0.5
  EXPECT_EQ(requantize(-(1 << 14) - 1, kOne, 0, false), -1);
  // The half can come from beta: t + beta = 5 * 2^14 (2.5) -> 3.
  EXPECT_EQ(requantize(1 << 15, kOne, 3 << 14, false), 3);
  EXPECT_EQ(requantize(-(1 << 16), kOne, -(1 << 14), false), -2);  // -2.5 -> -2
}

TEST(Tf2Requant, AlphaProductShiftsArithmetically) {
  // t = (acc * alpha) >> 20 rounds toward -inf: (-1 * 1) >> 20 = -1.
  // acc = -1, alpha = 1, beta = 2^14: t + beta = 2^14 - 1 -> 0.
  EXPECT_EQ(requantize(-1, 1, 1 << 14, false), 0);
  // acc = 1, alpha = 1: t = 0; beta = 2^14 -> exactly 0.5 -> 1.
  EXPECT_EQ(requantize(1, 1, 1 << 14, false), 1);
  // alpha = 1.5 (3 << 19), acc = 2^15 * 10: t = 15 * 2^15 -> 15.
  EXPECT_EQ(requantize(10 << 15, 3 << 19, 0, false), 15);
}

// spec/tf2.md: t = (int64(acc) * alpha) >> 20 is kept in 32 bits (the
// original stores it in an int), and (((t + beta) >> 14) + 1) >> 1 wraps in
// 32 bits; only then is y saturated. Values worked by hand from the formula.
TEST(Tf2Requant, KeepsTIn32BitsAndWraps) {
  // acc = 2^30, alpha = 2^22: the product >> 20 is 2^32, whose low 32 bits
  // are 0 -> y = 0 (a saturating design would give 127).
  EXPECT_EQ(requantize(1 << 30, 1 << 22, 0, false), 0);
  // acc = 2^30 + 5 * 2^13, alpha = 2^22: >> 20 gives 2^32 + 5 * 2^15, kept
  // in 32 bits 5 * 2^15 -> 5.
  EXPECT_EQ(requantize((1 << 30) + (5 << 13), 1 << 22, 0, false), 5);
  // acc = -2^30 - 5 * 2^13: -2^32 - 5 * 2^15, kept in 32 bits -5 * 2^15 -> -5.
  EXPECT_EQ(requantize(-(1 << 30) - (5 << 13), 1 << 22, 0, false), -5);
  // acc = 2^30 - 2^13 (just inside): 2^32 - 2^15 -> low 32 bits = -2^15 -> -1
  // (((-2^15 >> 14) + 1) >> 1 = (-2 + 1) >> 1 = -1).
  EXPECT_EQ(requantize((1 << 30) - (1 << 13), 1 << 22, 0, false), -1);
  // t + beta wraps: INT32_MAX + INT32_MAX = -2 -> ((-2 >> 14) + 1) >> 1 = 0.
  EXPECT_EQ(requantize(INT32_MAX, kOne, INT32_MAX, false), 0);
  // INT32_MIN + INT32_MIN = 0 (mod 2^32) -> 0.
  EXPECT_EQ(requantize(INT32_MIN, kOne, INT32_MIN, false), 0);
  // t = 2^31 - 2^14, + beta 2^14 wraps to INT32_MIN -> ((-2^17) + 1) >> 1 = -65536 -> -128.
  EXPECT_EQ(requantize(INT32_MAX - (1 << 14) + 1, kOne, 1 << 14, false), -128);
  // acc = 2^29, alpha = 2^22: >> 20 gives 2^31, which as an int32 is INT32_MIN:
  // the sign flips -> -128 (a saturating design would give 127).
  EXPECT_EQ(requantize(1 << 29, 1 << 22, 0, false), -128);
}

// requant: saturate (designs that fixed the original's overflow): t and
// t + beta keep every bit, only y saturates. The inputs that wrap above,
// worked by hand without the wrap.
TEST(Tf2Requant, WideModeKeepsEveryBit) {
  constexpr bool kWide = true;
  EXPECT_EQ(requantize(1 << 30, 1 << 22, 0, false, kWide), 127);      // t = 2^32
  EXPECT_EQ(requantize(1 << 29, 1 << 22, 0, false, kWide), 127);      // t = 2^31 stays positive
  EXPECT_EQ(requantize(-(1 << 30) - (5 << 13), 1 << 22, 0, false, kWide), -128);
  EXPECT_EQ(requantize(INT32_MAX, kOne, INT32_MAX, false, kWide), 127);  // 2^32 - 2
  EXPECT_EQ(requantize(INT32_MIN, kOne, INT32_MIN, false, kWide), -128);  // -2^32
  EXPECT_EQ(requantize(INT32_MIN, kOne, INT32_MIN, true, kWide), 0);      // then ReLU
  // Without overflow both modes agree: 2.5 -> 3 (round half up), -2.5 -> -2.
  EXPECT_EQ(requantize(5 << 14, kOne, 0, false, kWide), 3);
  EXPECT_EQ(requantize(-(5 << 14), kOne, 0, false, kWide), -2);
}

TEST(Tf2Requant, SaturatesToInt8) {
  EXPECT_EQ(requantize(127 << 15, kOne, 0, false), 127);
  EXPECT_EQ(requantize((127 << 15) + (1 << 14), kOne, 0, false), 127);  // 127.5 -> 128 -> 127
  EXPECT_EQ(requantize(-(128 << 15), kOne, 0, false), -128);
  EXPECT_EQ(requantize(-(129 << 15), kOne, 0, false), -128);
  // Large values that stay inside 32 bits saturate.
  EXPECT_EQ(requantize(INT32_MAX, kOne, 0, false), 127);
  EXPECT_EQ(requantize(INT32_MIN, kOne, 0, false), -128);
  EXPECT_EQ(requantize(1 << 28, 1 << 22, 0, false), 127);  // t = 2^30
}

TEST(Tf2Requant, ReluAfterSaturation) {
  EXPECT_EQ(requantize(-(5 << 15), kOne, 0, true), 0);
  EXPECT_EQ(requantize(-(300 << 15), kOne, 0, true), 0);
  EXPECT_EQ(requantize(5 << 15, kOne, 0, true), 5);
  EXPECT_EQ(requantize(300 << 15, kOne, 0, true), 127);
}

TEST(Tf2Residual, SaturatingAddAndRelu) {
  EXPECT_EQ(residual_add(100, 100, false), 127);
  EXPECT_EQ(residual_add(-100, -100, false), -128);
  EXPECT_EQ(residual_add(-128, -1, false), -128);
  EXPECT_EQ(residual_add(20, -25, false), -5);
  EXPECT_EQ(residual_add(20, -25, true), 0);
  EXPECT_EQ(residual_add(-100, -100, true), 0);
  EXPECT_EQ(residual_add({1, 120}, {2, 120}, false), (std::vector<int8_t>{3, 127}));
  EXPECT_THROW(residual_add({1}, {1, 2}, false), InputError);
}

// ---- feature Q -------------------------------------------------------------

int q_of(std::vector<float> v) { return choose_channel_q(v.data(), v.size()); }

TEST(Tf2FeatureQ, RoundThenDecreaseWhilePositiveOverflows) {
  // max 1.0: log2(127) = 6.99 -> round 7 -> 128 > 127 -> 6.
  EXPECT_EQ(q_of({1.0f, -0.5f}), 6);
  // The -128 side is never used: a channel whose max |x| is a -1.0 gets the
  // same Q as +1.0 (6), although -1 * 2^7 = -128 would fit.
  EXPECT_EQ(q_of({-1.0f, 0.5f}), 6);
  EXPECT_EQ(q_of({-1.0f}), 6);
  // max 0.3: log2(423.3) = 8.73 -> 9 -> 153.6 -> 8 (76.8).
  EXPECT_EQ(q_of({0.3f}), 8);
  // max 0.9: log2(141.1) = 7.14 -> 7 -> 115.2 fits.
  EXPECT_EQ(q_of({0.9f}), 7);
  // max 127: log2(1) = 0 -> 0.
  EXPECT_EQ(q_of({127.0f}), 0);
}

// spec/tf2.md step 2 compares the unrounded max|x| * 2^Q (float32) with 127:
// a max just above 127 / 2^6 loses a step, just below or at it keeps Q 6.
TEST(Tf2FeatureQ, UnroundedMaxJustAboveAndBelow127) {
  const float edge = 127.0f / 64.0f;  // 1.984375, exact in float32
  EXPECT_EQ(q_of({edge}), 6);                                  // 127.0 is not above 127
  EXPECT_EQ(q_of({std::nextafter(edge, 0.0f)}), 6);
  EXPECT_EQ(q_of({std::nextafter(edge, 4.0f)}), 5);            // 127.0000076 -> 5 (it would round to 127)
  EXPECT_EQ(q_of({-std::nextafter(edge, 4.0f), 0.1f}), 5);
}

// spec/tf2.md step 3, per layer.
TEST(Tf2FeatureQ, PullTowardTheLayerMean) {
  // Positive Qs above the mean go to floor(mean): {6, 8, 9} mean 7.67 -> {6, 7, 7}.
  EXPECT_EQ(pull_toward_mean({6, 8, 9}), (std::vector<int>{6, 7, 7}));
  // Negative Qs below the mean go to ceil(mean): {-3, -1, 0} mean -1.33 -> {-1, -1, 0}.
  EXPECT_EQ(pull_toward_mean({-3, -1, 0}), (std::vector<int>{-1, -1, 0}));
  // Mixed signs, mean 1: 4 -> floor(1) = 1 and -2 -> ceil(1) = 1 (as written,
  // the rule moves a negative Q up to the mean even across 0).
  EXPECT_EQ(pull_toward_mean({4, -2, 1}), (std::vector<int>{1, 1, 1}));
  // A Q equal to the mean, and 0, never move.
  EXPECT_EQ(pull_toward_mean({3, 3}), (std::vector<int>{3, 3}));
  // Skipped (all-zero) channels neither count nor move: mean of {8, 6} is 7.
  EXPECT_EQ(pull_toward_mean({8, 0, 6}, {false, true, false}), (std::vector<int>{7, 0, 6}));
}

TEST(Tf2FeatureQ, FloorWhenNegative) {
  // max 127.4: log2(127/127.4) = -0.0045 -> floor -1 (round would give 0,
  // and 127.4 -> 127 would still fit, so only the floor rule gives -1).
  EXPECT_EQ(q_of({127.4f}), -1);
  // max 300: log2(0.423) = -1.24 -> -2 (75).
  EXPECT_EQ(q_of({300.0f}), -2);
  EXPECT_EQ(q_of({0.0f, 0.0f}), 0);
}

TEST(Tf2FeatureQ, QuantizeRoundsHalfAwayAndSaturates) {
  EXPECT_EQ(quantize_value(2.5f, 0), 3);
  EXPECT_EQ(quantize_value(-2.5f, 0), -3);
  EXPECT_EQ(quantize_value(0.3125f, 3), 3);    // 2.5 -> 3
  EXPECT_EQ(quantize_value(-0.3125f, 3), -3);
  EXPECT_EQ(quantize_value(2.49f, 0), 2);
  EXPECT_EQ(quantize_value(200.0f, 0), 127);
  EXPECT_EQ(quantize_value(-200.0f, 0), -128);
}

TEST(Tf2FeatureQ, LayerQIsSharedMinimum) {
  // channel 0 max 1.0 -> 6, channel 1 max 0.3 -> 8; the mean 7 pulls 8 to 7;
  // shared 6.
  const std::vector<float> chw = {1.0f, 0.5f, 0.3f, 0.1f};
  EXPECT_EQ(choose_map_q(chw, 2), (std::vector<int>{6, 7}));
  EXPECT_EQ(choose_layer_q(chw, 2), 6);
  EXPECT_EQ(quantize_map(chw, 2, {6, 8}), (std::vector<int8_t>{64, 32, 77, 26}));
  EXPECT_EQ(quantize_map(chw, 2, {6}), (std::vector<int8_t>{64, 32, 19, 6}));
}

// ---- bias, batch-norm ------------------------------------------------------

TEST(Tf2Constants, BiasTruncatesBetaRoundsHalfAway) {
  // q_out = -15 makes the scale 2^0.
  EXPECT_EQ(bias_to_int(2.7, -15), 2);
  EXPECT_EQ(bias_to_int(-2.7, -15), -2);
  EXPECT_EQ(bias_to_int(2.5, -15), 2);
  EXPECT_EQ(beta_to_int(2.5, -15), 3);
  EXPECT_EQ(beta_to_int(-2.5, -15), -3);
  EXPECT_EQ(beta_to_int(2.4, -15), 2);
  // q_out = 2: scale 2^17; 0.3 * 131072 = 39321.6 -> bias 39321, beta 39322.
  EXPECT_EQ(bias_to_int(0.3, 2), 39321);
  EXPECT_EQ(beta_to_int(0.3, 2), 39322);
  EXPECT_EQ(alpha_to_int(-1.5 / (1 << 20)), -1);
  EXPECT_EQ(alpha_to_int(0.75), 786432);
  EXPECT_THROW(bias_to_int(1e6, 10), InputError);
}

TEST(Tf2Constants, NoBatchNormMeansAlphaOneBetaZero) {
  FloatConv f;
  f.c_in = 1; f.c_out = 2; f.h_in = 1; f.w_in = 1; f.k = 1;
  f.weights = {1.0f, -0.5f};
  f.bias = {0.25f, -0.25f};
  const ConvLayer L = make_conv_layer(f, 0, 0);
  EXPECT_EQ(L.alpha, (std::vector<int32_t>{1 << 20, 1 << 20}));
  EXPECT_EQ(L.beta, (std::vector<int32_t>{0, 0}));
  EXPECT_EQ(L.bias, (std::vector<int32_t>{8192, -8192}));  // 0.25 * 2^15
}

}  // namespace
}  // namespace cosim::tf2
