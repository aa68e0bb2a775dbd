// TensorFlow Lite int8 requantization (spec/quantization.md, section 1).
#pragma once

#include <cstdint>

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

// round(a * b / 2^31), ties toward +infinity; INT32_MIN * INT32_MIN -> INT32_MAX.
int32_t saturating_rounding_doubling_high_mul(int32_t a, int32_t b);
// x / 2^exponent rounded half away from zero; exponent in 0..31 (else
// std::invalid_argument).
int32_t rounding_divide_by_pot(int32_t x, int exponent);

// Applies m to an int32 accumulator in the given rounding mode.
// kDouble: x << max(shift, 0) (int32, wraps like the compiled reference),
// SRDHM, then RoundingDivideByPOT(max(-shift, 0)).
// kSingle: (int64(x) * multiplier + 2^(30 - shift)) >> (31 - shift), saturated
// to int32 (only reachable with positive shifts).
int32_t multiply_by_quantized_multiplier(int32_t x, QuantizedMultiplier m, Rounding rounding);

enum class Activation { kNone, kRelu, kRelu6 };
struct ActivationRange {
  int32_t min;
  int32_t max;
};
// NONE [-128, 127]; RELU [max(-128, zp), 127]; RELU6 additionally
// max = min(127, zp + round(6.0f / scale)) (float division, as TFLite).
ActivationRange activation_range(Activation act, float output_scale, int32_t output_zero_point);

}  // namespace cosim::quant
