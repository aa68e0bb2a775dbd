// One test per arithmetic rule of shared/spec/tinydnn.md. Every expected value
// is derived by hand in the comment next to it (P = (128+fw)(128+fd),
// Ep = ew + ed, D = Ep - E + 16, value = A * 2^(E-268)).
#include <gtest/gtest.h>

#include "tinydnn/arith.hpp"
#include "tinydnn/bf16.hpp"

namespace cosim::tinydnn {
namespace {

bf16 B(uint16_t bits) { return bf16::from_bits(bits); }
RunningSum S(uint32_t s, int32_t e, int32_t a) { return RunningSum{s, e, a}; }

// 1.0 * 1.0 from the zero sum: P = 128*128 = 16384, Ep = 127+127 = 254,
// D = 254 - 0 + 16 = 270 >= 64 -> aligned 0 -> (0, 254, 16384).
const RunningSum kOne = S(0, 254, 16384);

TEST(TinyDnnRule, Float32ToBf16Truncates) {
  // 0x3F80FFFF = 1.0078124: truncation keeps 0x3F80 (rounding would give 0x3F81).
  EXPECT_EQ(bf16::from_float(1.0078124f).bits, 0x3F80);
  EXPECT_EQ(bf16::from_float(1.0f).bits, 0x3F80);
  // -1.9999999 = 0xBFFFFFFF -> 0xBFFF (rounding would carry to 0xC000).
  EXPECT_EQ(bf16::from_float(-1.9999999f).bits, 0xBFFF);
  // 3.0f = 0x40400000 -> 0x4040; the low half is simply dropped.
  EXPECT_EQ(bf16::from_float(3.0f).bits, 0x4040);
  EXPECT_EQ(B(0x4040).to_float(), 3.0f);
}

TEST(TinyDnnRule, InitialSumAndFirstStep) {
  EXPECT_EQ(RunningSum{}, S(0, 0, 0));
  EXPECT_EQ(mac_step(RunningSum{}, B(0x3F80), B(0x3F80)), kOne);
  // normalise(kOne): A = 2^14 -> lz = 17, N = 2^31, e = 254-17+17-127 = 127
  // -> {0, 0x7F, 0} = 0x3F800000 = 1.0.
  EXPECT_EQ(normalise(kOne), 0x3F800000u);
}

TEST(TinyDnnRule, ZeroGetsTheImplicitOne) {
  // w = +0.0 (0x0000), d = 0x7F00 (2^127): P = 128*128 = 16384 (zero's frac 0
  // plus the implicit one), Ep = 0 + 254 = 254 -> (0, 254, 16384) = 1.0.
  // IEEE would give 0; this arithmetic reads 0x0000 as 2^-127.
  const RunningSum s = mac_step(RunningSum{}, B(0x0000), B(0x7F00));
  EXPECT_EQ(s, S(0, 254, 16384));
  EXPECT_EQ(normalise(s), 0x3F800000u);
  // -0.0 * 2^127: sign 1, same magnitude -> -1.0 = 0xBF800000.
  EXPECT_EQ(normalise(mac_step(RunningSum{}, B(0x8000), B(0x7F00))), 0xBF800000u);
}

TEST(TinyDnnRule, NegativeDistanceDoesNotUpdate) {
  // kOne has E = 254. w = 1.0 (e 127), d = 0x3700 (e 110): Ep = 237,
  // D = 237 - 254 + 16 = -1 < 0 -> no update.
  EXPECT_EQ(mac_step(kOne, B(0x3F80), B(0x3700)), kOne);
  // Far smaller: d = 0x0B80 (e 23): D = 150 - 254 + 16 = -88 -> no update.
  EXPECT_EQ(mac_step(kOne, B(0x3F80), B(0x0B80)), kOne);
}

TEST(TinyDnnRule, DistanceSixtyFourDropsTheOldSum) {
  // d = 0xD780 (-, e 175): Ep = 302, D = 302 - 254 + 16 = 64 -> aligned 0:
  // (1, 302, P = 128*128 = 16384).
  EXPECT_EQ(mac_step(kOne, B(0x3F80), B(0xD780)), S(1, 302, 16384));
  // D = 63 (d = 0xD700, e 174, Ep 301): opposite signs, A' = -16384,
  // aligned = floor(-16384 * 2^16 / 2^63) = -1 -> A = 16384 - 1 = 16383.
  EXPECT_EQ(mac_step(kOne, B(0x3F80), B(0xD700)), S(1, 301, 16383));
  // D = 112: also dropped. d = 0x6F80 (e 223): Ep = 350 -> (0, 350, 16384).
  EXPECT_EQ(mac_step(kOne, B(0x3F80), B(0x6F80)), S(0, 350, 16384));
}

TEST(TinyDnnRule, AlignmentOverflowDoesNotUpdate) {
  // d = 0x3780 (e 111): Ep = 238, D = 0, aligned = 16384 * 2^16 = 2^30,
  // not < 2^30 -> no update.
  EXPECT_EQ(mac_step(kOne, B(0x3F80), B(0x3780)), kOne);
  // d = 0xB780 (-): A' = -16384, aligned = -2^30, inside [-2^30, 2^30)
  // -> (1, 238, 16384 - 2^30 = -1073725440).
  EXPECT_EQ(mac_step(kOne, B(0x3F80), B(0xB780)), S(1, 238, -1073725440));
  // D = 16 (same exponent) with A = 2^30: aligned = 2^30 -> overflow, kept.
  const RunningSum big = S(0, 254, 1 << 30);
  EXPECT_EQ(mac_step(big, B(0x3F80), B(0x3F80)), big);
}

TEST(TinyDnnRule, ArithmeticShiftTruncatesTowardMinusInfinity) {
  // Sum (0, 254, 3); product 1.0 * 0x4780 (e 143): Ep = 270, D = 32,
  // aligned = 3 * 2^16 >> 32 = 0; with the sign flipped (d = 0xC780)
  // A' = -3 -> floor(-3 * 2^16 / 2^32) = -1 -> A = 16384 - 1.
  EXPECT_EQ(mac_step(S(0, 254, 3), B(0x3F80), B(0x4780)), S(0, 270, 16384));
  EXPECT_EQ(mac_step(S(0, 254, 3), B(0x3F80), B(0xC780)), S(1, 270, 16383));
}

TEST(TinyDnnRule, DistanceWrapsInTenBits) {
  // From the zero sum: w = d = 0x7C00 (e 248): Ep = 496, D = 512, which is
  // -512 in 10 bits -> no update (without the wrap it would be D >= 64).
  EXPECT_EQ(mac_step(RunningSum{}, B(0x7C00), B(0x7C00)), S(0, 0, 0));
  // w = d = 0x7D00 (e 250): D = 516 -> -508 -> no update.
  EXPECT_EQ(mac_step(RunningSum{}, B(0x7D00), B(0x7D00)), S(0, 0, 0));
  // d = 0x7B80 (e 247): Ep = 495, D = 511 -> still positive, >= 64 -> (0, 495, 16384).
  EXPECT_EQ(mac_step(RunningSum{}, B(0x7C00), B(0x7B80)), S(0, 495, 16384));
  EXPECT_EQ(wrap10(512), -512);
  EXPECT_EQ(wrap10(511), 511);
  EXPECT_EQ(wrap10(-513), 511);
}

TEST(TinyDnnRule, NormaliserFlushesAtNonPositiveExponent) {
  // A = 2^14 -> lz = 17 -> e = E - 17 + 17 - 127 = E - 127.
  EXPECT_EQ(normalise(S(0, 127, 16384)), 0x00000000u);  // e = 0 -> +0.0
  EXPECT_EQ(normalise(S(1, 127, 16384)), 0x00000000u);  // +0.0, never -0.0
  EXPECT_EQ(normalise(S(0, 128, 16384)), 0x00800000u);  // e = 1 -> {0, 1, 0}
  EXPECT_EQ(normalise(S(0, 20, 16384)), 0x00000000u);   // e = -107
  // e = 256 wraps to 0 in the 8-bit field, no overflow handling: E = 383
  // -> e = 256 -> {0, 0x00, 0} = 0x00000000 (positive 10-bit e, not flushed:
  // the bits simply truncate).
  EXPECT_EQ(normalise(S(0, 383, 16384)), 0x00000000u);
  EXPECT_EQ(normalise(S(0, 384, 16384)), 0x00800000u);  // e = 257 -> field 1
}

TEST(TinyDnnRule, NormaliserNegatesNegativeMantissa) {
  // A = -16384 -> A = 16384, S flips 0 -> 1: e = 128 - 127 = 1 -> 0x80800000.
  EXPECT_EQ(normalise(S(0, 128, -16384)), 0x80800000u);
  EXPECT_EQ(normalise(S(1, 128, -16384)), 0x00800000u);
  // A = 3 (bits ...011): lz = 30, N = 0xC0000000, N[30:8] = 0x400000,
  // e = 300 - 30 + 17 - 127 = 160 -> {0, 0xA0, 0x400000} = 0x50400000.
  EXPECT_EQ(normalise(S(0, 300, 3)), 0x50400000u);
}

TEST(TinyDnnRule, LeadingZerosOfZeroIs31) {
  // A = 0: lz = 31 (not 32), N = 0, e = 300 - 31 + 17 - 127 = 159 -> 0x4F800000.
  // With lz = 32 it would be e = 158 -> 0x4F000000.
  EXPECT_EQ(normalise(S(0, 300, 0)), 0x4F800000u);
  // A = 1 has lz = 31 too and gives the same bits.
  EXPECT_EQ(normalise(S(0, 300, 1)), 0x4F800000u);
  // A = 0 with E = 141: e = 0 -> flushed.
  EXPECT_EQ(normalise(S(0, 141, 0)), 0x00000000u);
}

TEST(TinyDnnRule, DestinationPassesWhenStoredExponentIsZero) {
  const RunningSum in = S(0, 100, 16384);
  // exp(Y) == 0: +0.0, -0.0 and a subnormal all let the sum pass unchanged.
  EXPECT_EQ(accumulate_dest(0x00000000u, in), in);
  EXPECT_EQ(accumulate_dest(0x80000000u, in), in);
  EXPECT_EQ(accumulate_dest(0x007FFFFFu, in), in);
  // exp(Y) = 1 (0x00800000) is accumulated: F = 2^23, D = 1 - 100 + 134 = 35,
  // aligned = 16384 * 2^16 >> 35 = 0 -> (0, 1 + 118, 2^23).
  EXPECT_EQ(accumulate_dest(0x00800000u, in), S(0, 119, 1 << 23));
}

TEST(TinyDnnRule, DestinationAccumulates) {
  // Y = 1.0 (e 127, F = 2^23), in = kOne (1.0, E 254): D = 127 - 254 + 134 = 7,
  // aligned = 2^14 * 2^16 >> 7 = 2^23 -> (0, 245, 2^24) = 2.0.
  const RunningSum r = accumulate_dest(0x3F800000u, kOne);
  EXPECT_EQ(r, S(0, 245, 1 << 24));
  // normalise: lz = 7, e = 245 - 7 + 17 - 127 = 128 -> 0x40000000.
  EXPECT_EQ(normalise(r), 0x40000000u);
  // Opposite signs: Y = -1.0 (0xBF800000): A' = -16384 -> aligned -2^23,
  // new sum (1, 245, 2^23 - 2^23 = 0).
  EXPECT_EQ(accumulate_dest(0xBF800000u, kOne), S(1, 245, 0));
}

TEST(TinyDnnRule, DestinationDropsStoredValueOnNegativeDistanceOrOverflow) {
  // in E = 300: D = 127 - 300 + 134 = -39 -> stored 1.0 dropped.
  EXPECT_EQ(accumulate_dest(0x3F800000u, S(0, 300, 16384)), S(0, 300, 16384));
  // in A = 2^29, E = 254: D = 7, aligned = 2^45 >> 7 = 2^38 -> overflow.
  EXPECT_EQ(accumulate_dest(0x3F800000u, S(0, 254, 1 << 29)), S(0, 254, 1 << 29));
  // D >= 64 keeps only F: in E = 10: D = 127 - 10 + 134 = 251 -> (0, 245, 2^23 + frac).
  EXPECT_EQ(accumulate_dest(0x3F812345u, S(1, 10, 99)), S(0, 245, (1 << 23) + 0x012345));
}

}  // namespace
}  // namespace cosim::tinydnn
