// TensorFlow Lite int8 requantization (spec/quantization.md, section 1).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

namespace cosim::quant {

enum class Rounding {
  kDouble,  // TFLite reference kernels / TFLite Micro (the default)
  kSingle,  // TFLITE_SINGLE_ROUNDING, as XNNPACK-backed runtimes compute
};

// m ~= multiplier * 2^(shift - 31), multiplier in [2^30, 2^31) or 0.
struct QuantizedMultiplier {
  int32_t multiplier = 0;
  int shift = 0;
};

// frexp, round(q * 2^31), rollover of 2^31 to 2^30 with shift + 1, and
// shift < -31 flushed to {0, 0}. Negative, non-finite or >= 2^30 multipliers
// throw cosim::InputError (callers add the file/tensor context).
QuantizedMultiplier quantize_multiplier(double real_multiplier);

namespace detail {
// The std::invalid_argument of an argument out of range (out of line: the
// functions below are inline, called per element by the golden kernels).
[[noreturn]] void out_of_range(const char* function, const char* what, int value, const char* range);
// Two's-complement truncation to 32 bits (what the compiled C++ does in
// practice where the reference kernels overflow an int32).
inline int32_t wrap32(int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v))); }
}  // namespace detail

// round(a * b / 2^31), ties toward +infinity; INT32_MIN * INT32_MIN -> INT32_MAX.
inline int32_t saturating_rounding_doubling_high_mul(int32_t a, int32_t b) {
  if (a == b && a == std::numeric_limits<int32_t>::min()) return std::numeric_limits<int32_t>::max();
  const int64_t ab = static_cast<int64_t>(a) * static_cast<int64_t>(b);
  const int64_t nudge = ab >= 0 ? (int64_t{1} << 30) : (1 - (int64_t{1} << 30));
  return static_cast<int32_t>((ab + nudge) / (int64_t{1} << 31));  // C++ division truncates toward zero
}

// x / 2^exponent rounded half away from zero; exponent in 0..31 (else
// std::invalid_argument).
inline int32_t rounding_divide_by_pot(int32_t x, int exponent) {
  if (exponent < 0 || exponent > 31) detail::out_of_range("rounding_divide_by_pot", "exponent", exponent, "0..31");
  const int64_t mask = (int64_t{1} << exponent) - 1;
  const int64_t rem = static_cast<int64_t>(x) & mask;
  const int64_t thr = (mask >> 1) + (x < 0 ? 1 : 0);
  return static_cast<int32_t>((static_cast<int64_t>(x) >> exponent) + (rem > thr ? 1 : 0));
}

// Applies m to an int32 accumulator in the given rounding mode.
// kDouble: x << max(shift, 0) (int32, wraps like the compiled reference),
// SRDHM, then RoundingDivideByPOT(max(-shift, 0)).
// kSingle: (int64(x) * multiplier + 2^(30 - shift)) >> (31 - shift), saturated
// to int32 (only reachable with positive shifts). A shift outside -31..30 is
// std::invalid_argument.
inline int32_t multiply_by_quantized_multiplier(int32_t x, QuantizedMultiplier m, Rounding rounding) {
  if (m.shift > 30 || m.shift < -31) {
    detail::out_of_range("multiply_by_quantized_multiplier", "shift", m.shift, "-31..30");
  }
  if (rounding == Rounding::kDouble) {
    const int left = std::max(m.shift, 0);
    const int right = std::max(-m.shift, 0);
    // The reference computes x * (1 << left) in int32; it wraps on overflow.
    const int32_t shifted = detail::wrap32(static_cast<int64_t>(x) * (int64_t{1} << left));
    return rounding_divide_by_pot(saturating_rounding_doubling_high_mul(shifted, m.multiplier), right);
  }
  const int t = 31 - m.shift;  // 1..62
  const int64_t r = (static_cast<int64_t>(x) * m.multiplier + (int64_t{1} << (t - 1))) >> t;
  // Only reachable with positive shifts; saturate rather than wrap.
  return static_cast<int32_t>(
      std::clamp<int64_t>(r, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()));
}

enum class Activation { kNone, kRelu, kRelu6 };
struct ActivationRange {
  int32_t min;
  int32_t max;
};
// NONE [-128, 127]; RELU [max(-128, zp), 127]; RELU6 additionally
// max = min(127, zp + round(6.0f / scale)) (float division, as TFLite).
ActivationRange activation_range(Activation act, float output_scale, int32_t output_zero_point);

}  // namespace cosim::quant
