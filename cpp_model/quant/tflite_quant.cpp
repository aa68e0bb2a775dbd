// TensorFlow Lite int8 requantization, written from spec/quantization.md s.1.
#include "quant/tflite_quant.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "common/error.hpp"

namespace cosim::quant {

namespace {
constexpr int64_t kTwo31 = int64_t{1} << 31;
}  // namespace

QuantizedMultiplier quantize_multiplier(double real_multiplier) {
  if (!std::isfinite(real_multiplier) || real_multiplier < 0.0)
    throw InputError("quantize_multiplier: real multiplier " + std::to_string(real_multiplier) +
                     " is negative or not finite");
  if (real_multiplier == 0.0) return {};
  int shift = 0;
  const double q = std::frexp(real_multiplier, &shift);
  int64_t q_fixed = static_cast<int64_t>(std::round(q * static_cast<double>(kTwo31)));
  if (q_fixed == kTwo31) {  // q rounded up to 1.0
    q_fixed /= 2;
    ++shift;
  }
  if (shift < -31) return {};  // everything would shift out: flush to zero
  // Single rounding shifts by 31 - shift >= 1; such multipliers (>= 2^30) are
  // never legitimate requantization scales.
  if (shift > 30)
    throw InputError("quantize_multiplier: real multiplier " + std::to_string(real_multiplier) +
                     " is too large (>= 2^30)");
  return {static_cast<int32_t>(q_fixed), shift};
}

namespace detail {
void out_of_range(const char* function, const char* what, int value, const char* range) {
  throw std::invalid_argument(std::string(function) + ": " + what + " " + std::to_string(value) + " outside " + range);
}
}  // namespace detail

ActivationRange activation_range(Activation act, float output_scale, int32_t output_zero_point) {
  switch (act) {
    case Activation::kNone:
      return {-128, 127};
    case Activation::kRelu:
      return {std::max<int32_t>(-128, output_zero_point), 127};
    case Activation::kRelu6: {
      if (!(output_scale > 0.0f) || !std::isfinite(output_scale))
        throw InputError("activation_range: RELU6 needs a positive output scale, got " +
                         std::to_string(output_scale));
      // TFLite quantizes 6.0 in float: zp + round(6.0f / scale).
      const float q6 = std::round(6.0f / output_scale);
      const int64_t hi = static_cast<int64_t>(output_zero_point) +
                         static_cast<int64_t>(std::min(q6, 1.0e9f));
      return {std::max<int32_t>(-128, output_zero_point), static_cast<int32_t>(std::min<int64_t>(127, hi))};
    }
  }
  throw std::invalid_argument("activation_range: unknown activation");
}

}  // namespace cosim::quant
