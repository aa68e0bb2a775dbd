// TFLite int8 FULLY_CONNECTED reference semantics
// (reference_integer_ops::FullyConnected): per batch row and output unit,
// acc = sum over d of (input[d] - input_zp) * filter[o][d] (symmetric int8
// weights) + bias[o], then MultiplyByQuantizedMultiplier(acc, M_o) in the
// chosen rounding (spec/quantization.md s.1), + output_zp, clamped to the
// fused activation's range. M_o = s_in * s_filter(o) / s_out, one per unit
// (per-channel weights) or one for all (per-tensor).
#pragma once

#include <cstdint>
#include <vector>

#include "quant/tflite_quant.hpp"
#include "tensor/tensor.hpp"

namespace cosim::ops {

struct FullyConnectedParams {
  int32_t input_zero_point = 0;
  int32_t output_zero_point = 0;
  std::vector<quant::QuantizedMultiplier> multipliers;  // 1 or one per output unit
  quant::ActivationRange act{-128, 127};
  quant::Rounding rounding = quant::Rounding::kDouble;
};

FullyConnectedParams make_fully_connected_params(float input_scale, int32_t input_zero_point,
                                                 const std::vector<float>& filter_scales, float output_scale,
                                                 int32_t output_zero_point, quant::Activation act,
                                                 quant::Rounding rounding = quant::Rounding::kDouble);

// in: int8, its element count a multiple of the filter's depth (rows =
// numel / depth); filter: int8 [units, depth]; bias: int32 [units] or an
// empty Tensor. Out: int8 [rows, units].
Tensor fully_connected(const Tensor& in, const Tensor& filter, const Tensor& bias, const FullyConnectedParams& p);

}  // namespace cosim::ops
