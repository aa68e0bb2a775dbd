// TFLite int8 ADD (spec/quantization.md s.1, ADD).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "common/error.hpp"
#include "ops/add.hpp"
#include "ops_test_util.hpp"

namespace {

using namespace cosim;
using namespace cosim::ops;
using opstest::i8;
using opstest::values;
using i128 = __int128;

TEST(Add, ParamsFromScales) {
  // t = 2 * max(1, 1) = 2: m1 = m2 = 0.5 ; m_out = 2 / (2^20 * 1) = 2^-19 = 0.5 * 2^-18.
  const AddParams p = make_add_params(1.0f, 0, 1.0f, 0, 1.0f, 0);
  EXPECT_EQ(p.left_shift, 20);
  EXPECT_EQ(p.input1_multiplier.multiplier, 1 << 30);
  EXPECT_EQ(p.input1_multiplier.shift, 0);
  EXPECT_EQ(p.input2_multiplier.shift, 0);
  EXPECT_EQ(p.output_multiplier.multiplier, 1 << 30);
  EXPECT_EQ(p.output_multiplier.shift, -18);
  // Unequal: s1 = 0.5, s2 = 0.125, t = 1: m1 = 0.5, m2 = 0.125 = 0.5 * 2^-2 ; all shifts <= 0.
  const AddParams q = make_add_params(0.5f, 0, 0.125f, 0, 0.25f, 0);
  EXPECT_EQ(q.input1_multiplier.shift, 0);
  EXPECT_EQ(q.input2_multiplier.multiplier, 1 << 30);
  EXPECT_EQ(q.input2_multiplier.shift, -2);
  EXPECT_EQ(q.output_multiplier.shift, -17);  // 1 / (2^20 * 0.25) = 2^-18 = 0.5 * 2^-17
}

TEST(Add, HandComputedElements) {
  const AddParams p = make_add_params(1.0f, 0, 1.0f, 0, 1.0f, 0);
  EXPECT_EQ(add_element(3, 4, p), 7);
  EXPECT_EQ(add_element(-100, 30, p), -70);
  EXPECT_EQ(add_element(100, 50, p), 127);    // clamp high
  EXPECT_EQ(add_element(-100, -50, p), -128);  // clamp low
  // Zero points at the int8 extremes: (x1 + 128) + (x2 - 127) - 128.
  const AddParams z = make_add_params(1.0f, -128, 1.0f, 127, 1.0f, -128);
  EXPECT_EQ(add_element(-128, 127, z), -128);
  EXPECT_EQ(add_element(0, 127, z), 0);
  EXPECT_EQ(add_element(10, 100, z), -17);  // 138 - 27 - 128
}

TEST(Add, RoundingModesDifferByOneLsb) {
  // s1 = s2 = 0.5, s_out = 1: x1 = -1, x2 = 0 -> -0.5.
  // Double: a = -2^19, out SRDHM gives -2^18 exactly, then /2^19 = -0.5 -> -1.
  // Single: (-2^19 * 2^30 + 2^49) >> 50 = 0.
  AddParams p = make_add_params(0.5f, 0, 0.5f, 0, 1.0f, 0, quant::Activation::kNone, quant::Rounding::kDouble);
  EXPECT_EQ(add_element(-1, 0, p), -1);
  EXPECT_EQ(add_element(1, 0, p), 1);
  p.rounding = quant::Rounding::kSingle;
  EXPECT_EQ(add_element(-1, 0, p), 0);
  EXPECT_EQ(add_element(1, 0, p), 1);
}

TEST(Add, Relu6Clamp) {
  // s_out 0.1, zp 0 -> [0, 60].
  const AddParams p = make_add_params(0.1f, 0, 0.1f, 0, 0.1f, 0, quant::Activation::kRelu6);
  EXPECT_EQ(p.act.min, 0);
  EXPECT_EQ(p.act.max, 60);
  EXPECT_EQ(add_element(50, 50, p), 60);
  EXPECT_EQ(add_element(-50, 10, p), 0);
  EXPECT_EQ(add_element(20, 10, p), 30);
}

// Independent: exact rational per spec step, with __int128 and floor division.
int32_t ref_requant(int32_t x, quant::QuantizedMultiplier m, quant::Rounding r) {
  auto fdiv = [](i128 a, int e) {
    const i128 d = i128{1} << e;
    return a >= 0 ? a / d : -((-a + d - 1) / d);
  };
  if (r == quant::Rounding::kSingle) return static_cast<int32_t>(fdiv(i128{x} * m.multiplier + (i128{1} << (30 - m.shift)), 31 - m.shift));
  const i128 h = fdiv(i128{x} * m.multiplier + (i128{1} << 30), 31);  // ties up
  const int e = -m.shift;
  const i128 mag = h < 0 ? -h : h;
  const i128 q = e == 0 ? mag : (mag + (i128{1} << (e - 1))) >> e;  // ties away
  return static_cast<int32_t>(h < 0 ? -q : q);
}

TEST(Add, AllPairsMatchIndependentRequant) {
  for (quant::Rounding r : {quant::Rounding::kDouble, quant::Rounding::kSingle}) {
    const AddParams p = make_add_params(0.0372f, -11, 0.0195f, 24, 0.0481f, 6, quant::Activation::kNone, r);
    for (int a = -128; a <= 127; ++a)
      for (int b = -128; b <= 127; ++b) {
        const int32_t s1 = ref_requant((a + 11) * (1 << 20), p.input1_multiplier, r);
        const int32_t s2 = ref_requant((b - 24) * (1 << 20), p.input2_multiplier, r);
        const int32_t y = std::clamp(ref_requant(s1 + s2, p.output_multiplier, r) + 6, -128, 127);
        ASSERT_EQ(add_element(static_cast<int8_t>(a), static_cast<int8_t>(b), p), y) << a << " " << b;
      }
  }
}

TEST(Add, BroadcastOverSizeOneDims) {
  const AddParams p = make_add_params(1.0f, 0, 1.0f, 0, 1.0f, 0);
  // [2,3] + [3] -> [2,3]: row vector added to each row.
  const Tensor a = i8({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor y = add(a, i8({3}, {10, 20, 30}), p);
  EXPECT_EQ(y.shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(values<int8_t>(y), (std::vector<int>{11, 22, 33, 14, 25, 36}));
  // [2,1] + [1,3] -> [2,3]: outer sum.
  y = add(i8({2, 1}, {1, 2}), i8({1, 3}, {10, 20, 30}), p);
  EXPECT_EQ(y.shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(values<int8_t>(y), (std::vector<int>{11, 21, 31, 12, 22, 32}));
  // [1,2,1,2] (NHWC) + [2] per-channel vector.
  y = add(i8({1, 2, 1, 2}, {1, 2, 3, 4}), i8({2}, {-1, -2}), p);
  EXPECT_EQ(values<int8_t>(y), (std::vector<int>{0, 0, 2, 2}));
  // Scalar (rank 0) broadcast.
  y = add(i8({}, {5}), a, p);
  EXPECT_EQ(values<int8_t>(y), (std::vector<int>{6, 7, 8, 9, 10, 11}));
  // Incompatible.
  EXPECT_THROW(add(a, i8({2}, {1, 2}), p), InputError);
  EXPECT_THROW(add(a, i8({4, 3}, std::vector<int>(12, 0)), p), InputError);
}

}  // namespace
