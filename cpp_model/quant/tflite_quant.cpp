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

// Two's-complement truncation to 32 bits (what the compiled C++ does in practice
// where the reference kernels overflow an int32).
int32_t wrap32(int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v))); }
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

int32_t saturating_rounding_doubling_high_mul(int32_t a, int32_t b) {
  if (a == b && a == std::numeric_limits<int32_t>::min()) return std::numeric_limits<int32_t>::max();
  const int64_t ab = static_cast<int64_t>(a) * static_cast<int64_t>(b);
  const int64_t nudge = ab >= 0 ? (int64_t{1} << 30) : (1 - (int64_t{1} << 30));
  return static_cast<int32_t>((ab + nudge) / kTwo31);  // C++ division truncates toward zero
}

int32_t rounding_divide_by_pot(int32_t x, int exponent) {
  if (exponent < 0 || exponent > 31)
    throw std::invalid_argument("rounding_divide_by_pot: exponent " + std::to_string(exponent) +
                                " outside 0..31");
  const int64_t mask = (int64_t{1} << exponent) - 1;
  const int64_t rem = static_cast<int64_t>(x) & mask;
  const int64_t thr = (mask >> 1) + (x < 0 ? 1 : 0);
  return static_cast<int32_t>((static_cast<int64_t>(x) >> exponent) + (rem > thr ? 1 : 0));
}

int32_t multiply_by_quantized_multiplier(int32_t x, QuantizedMultiplier m, Rounding rounding) {
  if (m.shift > 30 || m.shift < -31)
    throw std::invalid_argument("multiply_by_quantized_multiplier: shift " + std::to_string(m.shift) +
                                " outside -31..30");
  if (rounding == Rounding::kDouble) {
    const int left = std::max(m.shift, 0);
    const int right = std::max(-m.shift, 0);
    // The reference computes x * (1 << left) in int32; it wraps on overflow.
    const int32_t shifted = wrap32(static_cast<int64_t>(x) * (int64_t{1} << left));
    return rounding_divide_by_pot(saturating_rounding_doubling_high_mul(shifted, m.multiplier), right);
  }
  const int t = 31 - m.shift;  // 1..62
  const int64_t r = (static_cast<int64_t>(x) * m.multiplier + (int64_t{1} << (t - 1))) >> t;
  // Only reachable with positive shifts; saturate rather than wrap.
  return static_cast<int32_t>(std::clamp<int64_t>(r, std::numeric_limits<int32_t>::min(),
                                                  std::numeric_limits<int32_t>::max()));
}

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
