#include "ops/softmax.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "common/error.hpp"
#include "quant/tflite_quant.hpp"

namespace cosim::ops {

namespace {

constexpr int32_t kInt32Max = std::numeric_limits<int32_t>::max();
constexpr int32_t kInt32Min = std::numeric_limits<int32_t>::min();
constexpr int kScaledDiffIntegerBits = 5;    // Q5.26 differences
constexpr int kAccumulationIntegerBits = 12;  // Q12.19 sum of exps

int32_t mul(int32_t a, int32_t b) { return quant::saturating_rounding_doubling_high_mul(a, b); }

// gemmlowp SaturatingRoundingMultiplyByPOT: a saturating left shift, or a
// rounding right shift for a negative exponent.
int32_t mul_pot(int32_t x, int exponent) {
  if (exponent == 0) return x;
  if (exponent < 0) return quant::rounding_divide_by_pot(x, -exponent);
  const int32_t threshold = static_cast<int32_t>((int64_t{1} << (31 - exponent)) - 1);
  if (x > threshold) return kInt32Max;
  if (x < -threshold) return kInt32Min;
  return static_cast<int32_t>(static_cast<uint32_t>(x) << exponent);
}

// A raw value re-expressed from `from` integer bits to `to` (gemmlowp Rescale).
int32_t rescale(int32_t x, int from, int to) { return mul_pot(x, from - to); }

// exp(a) for a Q0.31 a in [-1/4, 0): Taylor expansion around -1/8.
int32_t exp_between_minus_quarter_and_zero(int32_t a) {
  const int32_t exp_minus_one_eighth = 1895147668;  // exp(-1/8) in Q0.31
  const int32_t one_third = 715827883;
  const int32_t x = a + (1 << 28);  // a + 1/8
  const int32_t x2 = mul(x, x);
  const int32_t x3 = mul(x2, x);
  const int32_t x4 = mul(x2, x2);
  const int32_t x4_over_4 = mul_pot(x4, -2);
  const int32_t poly = mul_pot(mul(x4_over_4 + x3, one_third) + x2, -1);  // x^4/24 + x^3/6 + x^2/2
  return exp_minus_one_eighth + mul(exp_minus_one_eighth, x + poly);
}

}  // namespace

int32_t exp_on_negative_values_q5(int32_t a) {
  constexpr int kFractionalBits = 31 - kScaledDiffIntegerBits;
  const int32_t one_quarter = 1 << (kFractionalBits - 2);
  const int32_t a_mod_quarter_minus_quarter = (a & (one_quarter - 1)) - one_quarter;
  int32_t result = exp_between_minus_quarter_and_zero(rescale(a_mod_quarter_minus_quarter, kScaledDiffIntegerBits, 0));
  const int32_t remainder = a_mod_quarter_minus_quarter - a;
  // exp(-2^k) in Q0.31 for each bit of the remainder (multiples of 1/4).
  struct Step {
    int exponent;
    int32_t multiplier;
  };
  const Step steps[] = {{-2, 1672461947}, {-1, 1302514674}, {0, 790015084}, {1, 290630308},
                        {2, 39332535},    {3, 720401},      {4, 242}};
  for (const Step& s : steps) {
    if (kScaledDiffIntegerBits > s.exponent && (remainder & (int32_t{1} << (kFractionalBits + s.exponent))) != 0) {
      result = mul(result, s.multiplier);
    }
  }
  return a == 0 ? kInt32Max : result;
}

int32_t one_over_one_plus_x(int32_t a) {
  // half_denominator = (a + 1) / 2 in Q0.31, rounded half away from zero.
  const int64_t sum = int64_t{a} + kInt32Max;
  const auto half_denominator = static_cast<int32_t>((sum + (sum >= 0 ? 1 : -1)) / 2);
  // Newton-Raphson in Q2.29 from 48/17 - 32/17 * d.
  const int32_t c48_over_17 = 1515870810, cneg32_over_17 = -1010580540, one_q2 = 1 << 29;
  int32_t x = c48_over_17 + mul(half_denominator, cneg32_over_17);
  for (int i = 0; i < 3; ++i) {
    const int32_t one_minus_dx = one_q2 - mul(half_denominator, x);
    x = x + rescale(mul(x, one_minus_dx), 4, 2);
  }
  return rescale(x, 1, 0);  // x / 2 read as Q1.30, then to Q0.31
}

SoftmaxParams make_softmax_params(double beta, double input_scale) {
  const double real = std::min(beta * input_scale * double(int64_t{1} << (31 - kScaledDiffIntegerBits)),
                               double(int64_t{1} << 31) - 1.0);
  if (!(real > 0.0)) throw InputError("softmax: beta * input scale must be positive");
  int shift = 0;
  const double q = std::frexp(real, &shift);
  auto q_fixed = static_cast<int64_t>(std::round(q * double(int64_t{1} << 31)));
  if (q_fixed == (int64_t{1} << 31)) {
    q_fixed /= 2;
    ++shift;
  }
  if (shift < 0) throw InputError("softmax: beta * input scale " + std::to_string(beta * input_scale) + " is too small");
  SoftmaxParams p;
  p.input_multiplier = static_cast<int32_t>(q_fixed);
  p.input_left_shift = shift;
  const double radius = 1.0 * ((1 << kScaledDiffIntegerBits) - 1) * double(int64_t{1} << (31 - kScaledDiffIntegerBits)) /
                        double(int64_t{1} << shift);
  p.diff_min = -static_cast<int32_t>(std::floor(radius));
  return p;
}

Tensor softmax(const Tensor& in, const SoftmaxParams& p) {
  if (in.dtype() != DType::kInt8 || in.rank() < 1 || in.dim(in.rank() - 1) < 1)
    throw InputError("softmax: int8 input of rank >= 1 expected");
  const int64_t depth = in.dim(in.rank() - 1), rows = in.numel() / depth;
  Tensor out(DType::kInt8, in.shape(), in.layout());
  const int8_t* x = in.data<int8_t>();
  int8_t* y = out.data<int8_t>();
  auto scaled_diff = [&](int32_t diff) { return mul(diff * (int32_t{1} << p.input_left_shift), p.input_multiplier); };
  for (int64_t r = 0; r < rows; ++r) {
    const int8_t* row = x + r * depth;
    const int32_t max_in_row = *std::max_element(row, row + depth);
    int32_t sum_of_exps = 0;  // Q12.19
    for (int64_t c = 0; c < depth; ++c) {
      const int32_t diff = row[c] - max_in_row;
      if (diff >= p.diff_min) {
        sum_of_exps += rescale(exp_on_negative_values_q5(scaled_diff(diff)), 0, kAccumulationIntegerBits);
      }
    }
    // 1 / sum: the sum normalised to [1, 2), its reciprocal, and the
    // exponent that normalisation took out.
    const int headroom_plus_one = __builtin_clz(static_cast<uint32_t>(sum_of_exps));
    const int num_bits_over_unit = kAccumulationIntegerBits - headroom_plus_one;
    const auto shifted_sum_minus_one =
        static_cast<int32_t>((static_cast<uint32_t>(sum_of_exps) << headroom_plus_one) - (uint32_t{1} << 31));
    const int32_t shifted_scale = one_over_one_plus_x(shifted_sum_minus_one);
    for (int64_t c = 0; c < depth; ++c) {
      const int32_t diff = row[c] - max_in_row;
      int32_t v = -128;
      if (diff >= p.diff_min) {
        const int32_t e = exp_on_negative_values_q5(scaled_diff(diff));
        v = quant::rounding_divide_by_pot(mul(shifted_scale, e), num_bits_over_unit + 31 - 8) - 128;
      }
      y[r * depth + c] = static_cast<int8_t>(std::clamp(v, -128, 127));
    }
  }
  return out;
}

}  // namespace cosim::ops
