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

QuantizedMultiplier quantize_multiplier(double real_multiplier);

int32_t saturating_rounding_doubling_high_mul(int32_t a, int32_t b);
int32_t rounding_divide_by_pot(int32_t x, int exponent);

// Applies m to an int32 accumulator in the given rounding mode.
int32_t multiply_by_quantized_multiplier(int32_t x, QuantizedMultiplier m, Rounding rounding);

enum class Activation { kNone, kRelu, kRelu6 };
struct ActivationRange {
  int32_t min;
  int32_t max;
};
ActivationRange activation_range(Activation act, float output_scale, int32_t output_zero_point);

}  // namespace cosim::quant
