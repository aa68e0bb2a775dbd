// MLI formats and the accumulator-headroom rule (spec/quantization.md s.3).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "common/error.hpp"
#include "mli/formats.hpp"
#include "mli/headroom.hpp"
#include "support/expect_text.hpp"

namespace {

using namespace cosim;
using namespace cosim::mli;
using cosim::test::expect_contains;
using cosim::test::what_of;

TEST(MliFormats, ContainersAndSignificantBits) {
  EXPECT_EQ(container(Format::kFx8), DType::kInt8);
  EXPECT_EQ(container(Format::kFx16), DType::kInt16);
  EXPECT_EQ(container(Format::kSa8), DType::kInt8);
  EXPECT_EQ(container(Format::kSa32), DType::kInt32);
  EXPECT_EQ(container(Format::kFp32), DType::kFp32);
  EXPECT_EQ(significant_bits(Format::kSa8), 7);
  EXPECT_EQ(significant_bits(Format::kFx16), 15);
  EXPECT_EQ(significant_bits(Format::kSa32), 31);
  EXPECT_THROW(significant_bits(Format::kFp32), std::invalid_argument);
}

TEST(MliFx, RoundThenSaturate) {
  EXPECT_EQ(to_fx8(0.5f, 7), 64);
  EXPECT_EQ(to_fx8(0.01f, 7), 1);      // 1.28
  EXPECT_EQ(to_fx8(0.0f, 7), 0);
  EXPECT_EQ(to_fx8(1.0f, 7), 127);     // 128 saturates
  EXPECT_EQ(to_fx8(-1.0f, 7), -128);   // fits exactly
  EXPECT_EQ(to_fx8(-2.0f, 7), -128);   // saturates
  EXPECT_EQ(to_fx8(INFINITY, 3), 127);
  EXPECT_EQ(to_fx8(-INFINITY, 3), -128);
  EXPECT_EQ(to_fx16(3.14159f, 12), 12868);  // 12867.95
  EXPECT_EQ(to_fx16(8.0f, 12), 32767);      // 32768 saturates
  EXPECT_EQ(to_fx16(-8.0f, 12), -32768);
  EXPECT_EQ(to_fx16(-9.5f, 12), -32768);
  EXPECT_EQ(to_fx16(1000.0f, -2), 250);     // negative n: Q with integer scaling
  EXPECT_THROW(to_fx8(NAN, 7), InputError);
}

TEST(MliFx, TiesRoundHalfAwayFromZero) {
  EXPECT_EQ(to_fx8(std::ldexp(1.0f, -8), 7), 1);     // 0.5
  EXPECT_EQ(to_fx8(-std::ldexp(1.0f, -8), 7), -1);   // -0.5
  EXPECT_EQ(to_fx8(std::ldexp(3.0f, -8), 7), 2);     // 1.5
  EXPECT_EQ(to_fx8(-std::ldexp(3.0f, -8), 7), -2);   // -1.5
  EXPECT_EQ(to_fx16(std::ldexp(5.0f, -1), 0), 3);    // 2.5
}

TEST(MliFx, BackToFloat) {
  EXPECT_EQ(from_fx(64, 7), 0.5f);
  EXPECT_EQ(from_fx(-128, 7), -1.0f);
  EXPECT_EQ(from_fx(12868, 12), 12868.0f / 4096.0f);
}

TEST(MliSa, RoundThenSaturate) {
  EXPECT_EQ(to_sa8(1.0f, 0.5f, 0), 2);
  EXPECT_EQ(to_sa8(1.0f, 0.5f, -10), -8);
  EXPECT_EQ(to_sa8(1000.0f, 0.1f, 0), 127);
  EXPECT_EQ(to_sa8(-1000.0f, 0.1f, 0), -128);
  EXPECT_EQ(to_sa8(0.0f, 0.1f, 127), 127);
  EXPECT_EQ(to_sa8(-0.0f, 0.1f, -128), -128);
  // Round(x / s + z): -0.5 + 3 = 2.5 -> 3 (rounding after adding z), 0.5 + 3 -> 4.
  EXPECT_EQ(to_sa8(-0.25f, 0.5f, 3), 3);
  EXPECT_EQ(to_sa8(0.25f, 0.5f, 3), 4);
  EXPECT_EQ(to_sa32(1e12f, 1e-3f), std::numeric_limits<int32_t>::max());
  EXPECT_EQ(to_sa32(-1e12f, 1e-3f), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(to_sa32(1.25f, 0.5f), 3);  // 2.5 -> 3
  EXPECT_EQ(from_sa(14, 0.25f, 10), 1.0f);
  EXPECT_THROW(to_sa8(1.0f, 0.0f, 0), InputError);
}

Tensor fp(std::vector<int64_t> shape, const std::vector<float>& v) {
  Tensor t(DType::kFp32, std::move(shape));
  for (std::size_t i = 0; i < v.size(); ++i) t.data<float>()[i] = v[i];
  return t;
}

TEST(MliTensor, PerAxisSa8) {
  const Tensor x = fp({2, 3}, {1.0f, -1.0f, 0.3f, 1.0f, -1.0f, 0.3f});
  QuantParams q;
  q.axis = 0;
  q.scales = {0.5f, 0.25f};
  q.zero_points = {0, 10};
  // row 0: 2, -2, round(0.6) = 1 ; row 1: 4 + 10, -4 + 10, round(1.2 + 10) = 11.
  const Tensor y = quantize(x, Format::kSa8, q);
  ASSERT_EQ(y.dtype(), DType::kInt8);
  const int want0[] = {2, -2, 1, 14, 6, 11};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(y.data<int8_t>()[i], want0[i]) << i;
  // axis 1 with a shared zero point: scales 1, 0.5, 0.1.
  q.axis = 1;
  q.scales = {1.0f, 0.5f, 0.1f};
  q.zero_points = {-1};
  const Tensor z = quantize(x, Format::kSa8, q);
  const int want1[] = {0, -3, 2, 0, -3, 2};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(z.data<int8_t>()[i], want1[i]) << i;
  // Dequantize: (q - z) * s.
  const Tensor back = dequantize(z, Format::kSa8, q);
  EXPECT_FLOAT_EQ(back.data<float>()[0], 1.0f);
  EXPECT_FLOAT_EQ(back.data<float>()[1], -1.0f);
  EXPECT_FLOAT_EQ(back.data<float>()[2], 0.3f);
  // Mismatched parameter counts.
  q.scales = {1.0f, 0.5f};
  EXPECT_THROW(quantize(x, Format::kSa8, q), InputError);
  q.axis = 2;
  EXPECT_THROW(quantize(x, Format::kSa8, q), InputError);
}

TEST(MliTensor, PerTensorFxAndSa32) {
  const Tensor x = fp({4}, {0.5f, -0.75f, 2.0f, -3.0f});
  QuantParams q;
  q.frac_bits = 6;
  const Tensor f8 = quantize(x, Format::kFx8, q);
  const int want8[] = {32, -48, 127, -128};  // 128 and -192 saturate
  for (int i = 0; i < 4; ++i) EXPECT_EQ(f8.data<int8_t>()[i], want8[i]);
  const Tensor f16 = quantize(x, Format::kFx16, q);
  const int want16[] = {32, -48, 128, -192};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(f16.data<int16_t>()[i], want16[i]);
  EXPECT_FLOAT_EQ(dequantize(f16, Format::kFx16, q).data<float>()[3], -3.0f);
  q.axis = 0;
  EXPECT_THROW(quantize(x, Format::kFx8, q), InputError);  // fx is per tensor only
  QuantParams b;
  b.scales = {0.001f};
  const Tensor s32 = quantize(x, Format::kSa32, b);
  EXPECT_EQ(s32.data<int32_t>()[1], -750);
  EXPECT_THROW(dequantize(s32, Format::kSa8, b), InputError);  // wrong container
}

TEST(MliHeadroom, ExtraBitsIsCeilLog2) {
  EXPECT_EQ(extra_bits(1), 0);
  EXPECT_EQ(extra_bits(2), 1);
  EXPECT_EQ(extra_bits(3), 2);
  EXPECT_EQ(extra_bits(34), 6);  // the seed's example: Q3.4 x 34 -> Q9.4
  EXPECT_EQ(extra_bits(1 << 17), 17);
  EXPECT_EQ(extra_bits((1 << 17) + 1), 18);
  EXPECT_EQ(extra_bits(int64_t{1} << 62), 62);
  EXPECT_THROW(extra_bits(0), std::invalid_argument);
}

TEST(MliHeadroom, Sa8TimesSa8In32BitsUpTo2Pow17) {
  HeadroomCheck c = check_mac_headroom(Format::kSa8, Format::kSa8, 32, 131072);
  EXPECT_TRUE(c.ok) << c.message;
  EXPECT_EQ(c.value_bits, 14);
  EXPECT_EQ(c.available_bits, 17);
  EXPECT_EQ(c.max_operands, 131072);
  c = check_mac_headroom(Format::kSa8, Format::kSa8, 32, 131073);
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.message.find("131072"), std::string::npos) << c.message;
  EXPECT_NE(c.message.find("rejected"), std::string::npos) << c.message;
}

TEST(MliHeadroom, Fx16TimesFx16In40BitsUpTo2Pow9) {
  EXPECT_TRUE(check_mac_headroom(Format::kFx16, Format::kFx16, 40, 512).ok);
  const HeadroomCheck c = check_mac_headroom(Format::kFx16, Format::kFx16, 40, 513);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.available_bits, 9);
  EXPECT_EQ(c.max_operands, 512);
  // fx16 x fx8 in 32 bits: 31 - 22 = 9 as well.
  EXPECT_EQ(check_mac_headroom(Format::kFx16, Format::kFx8, 32, 1).available_bits, 9);
}

TEST(MliHeadroom, PlainAccumulation) {
  // sa8 in 32 bits: 31 - 7 = 24 -> 2^24 operands.
  EXPECT_TRUE(check_sum_headroom(Format::kSa8, 32, int64_t{1} << 24).ok);
  EXPECT_FALSE(check_sum_headroom(Format::kSa8, 32, (int64_t{1} << 24) + 1).ok);
  EXPECT_TRUE(check_sum_headroom(Format::kFx16, 40, int64_t{1} << 24).ok);
  EXPECT_FALSE(check_sum_headroom(Format::kFx16, 40, (int64_t{1} << 24) + 1).ok);
}

TEST(MliHeadroom, RequireThrowsWithContext) {
  EXPECT_NO_THROW(require_mac_headroom(Format::kSa8, Format::kSa8, 32, 3 * 3 * 512, "conv1"));
  expect_contains(what_of<InputError>([] { require_mac_headroom(Format::kFx16, Format::kFx16, 40, 3 * 3 * 64, "layer conv7"); }),
                  {"layer conv7", "fx16 x fx16", "576"});
}

TEST(MliHeadroom, TighterBoundFromData) {
  // 127 * 127 = 16129 ; (2^31 - 1) / 16129 = 133144.
  EXPECT_TRUE(check_mac_headroom_data(127, 127, 32, 133144).ok);
  EXPECT_FALSE(check_mac_headroom_data(127, 127, 32, 133145).ok);
  EXPECT_EQ(check_mac_headroom_data(127, 127, 32, 1).max_operands, 133144);
  // With smaller real ranges many more products fit than the format rule allows.
  EXPECT_TRUE(check_mac_headroom_data(20, 30, 32, 1000000).ok);
  EXPECT_FALSE(check_mac_headroom(Format::kSa8, Format::kSa8, 32, 1000000).ok);
}

}  // namespace
