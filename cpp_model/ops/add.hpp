// TFLite int8 ADD reference semantics (spec/quantization.md s.1, ADD).
#pragma once

#include <cstdint>
#include <vector>

#include "quant/tflite_quant.hpp"
#include "tensor/tensor.hpp"

namespace cosim::ops {

struct AddParams {
  int32_t input1_zero_point = 0;
  int32_t input2_zero_point = 0;
  int32_t output_zero_point = 0;
  int left_shift = 20;
  quant::QuantizedMultiplier input1_multiplier;  // s1 / (2 max(s1, s2))
  quant::QuantizedMultiplier input2_multiplier;  // s2 / (2 max(s1, s2))
  quant::QuantizedMultiplier output_multiplier;  // 2 max(s1, s2) / (2^20 s_out)
  quant::ActivationRange act{-128, 127};
  quant::Rounding rounding = quant::Rounding::kDouble;
};

// From the float32 scales, in double: t = 2 * max(s1, s2).
AddParams make_add_params(float s1, int32_t zp1, float s2, int32_t zp2, float s_out, int32_t zp_out,
                          quant::Activation act = quant::Activation::kNone,
                          quant::Rounding rounding = quant::Rounding::kDouble);

// One element: a = requant((x1 - zp1) << 20, m1), b = requant((x2 - zp2) << 20, m2),
// y = clamp(requant(a + b, m_out) + zp_out).
int8_t add_element(int8_t x1, int8_t x2, const AddParams& p);

// Output shape: NumPy broadcasting (align trailing dims; each pair equal or
// one of them 1). Incompatible shapes throw cosim::InputError.
std::vector<int64_t> broadcast_shape(const std::vector<int64_t>& a, const std::vector<int64_t>& b);

// int8 tensors, broadcast over size-1 dims.
Tensor add(const Tensor& x1, const Tensor& x2, const AddParams& p);

}  // namespace cosim::ops
