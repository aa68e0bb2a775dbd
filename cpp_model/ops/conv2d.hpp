// TFLite int8 CONV_2D and DEPTHWISE_CONV_2D reference semantics.
#pragma once

#include <vector>

#include "quant/tflite_quant.hpp"
#include "tensor/tensor.hpp"

namespace cosim::ops {

enum class Padding { kSame, kValid };

struct PadAmount {
  int before = 0;
  int after = 0;
  int out = 0;  // output extent
};
// SAME / VALID output size and padding along one axis (smaller half before).
PadAmount compute_padding(Padding padding, int in, int kernel, int stride, int dilation);

struct ConvParams {
  Padding padding = Padding::kSame;
  int stride_h = 1, stride_w = 1;
  int dilation_h = 1, dilation_w = 1;
  int depth_multiplier = 1;  // DEPTHWISE only
  int32_t input_zero_point = 0;
  int32_t output_zero_point = 0;
  quant::ActivationRange act{-128, 127};
  // Per output channel (size 1 = per-tensor, broadcast).
  std::vector<quant::QuantizedMultiplier> output_multiplier;
  quant::Rounding rounding = quant::Rounding::kDouble;
};

// input int8 [N,H,W,C] NHWC; filter int8 [O,KH,KW,C] (OHWI); bias int32 [O]
// or empty (no bytes, e.g. Tensor()). Returns int8 [N,OH,OW,O].
Tensor conv2d(const Tensor& input, const Tensor& filter, const Tensor& bias, const ConvParams& p);

// The int32 accumulators (bias + sum w*(x-zp_in)) before requantization,
// [N,OH,OW,O], by the golden engine in use (ops/golden_engine.hpp).
Tensor conv2d_accumulators(const Tensor& input, const Tensor& filter, const Tensor& bias,
                           const ConvParams& p);
// The same by the reference loops, whatever the engine: the referee the fast
// path must equal bit for bit.
Tensor conv2d_reference_accumulators(const Tensor& input, const Tensor& filter, const Tensor& bias,
                                     const ConvParams& p);

// filter int8 [1,KH,KW,C*depth_multiplier] (1HWC). Returns int8 [N,OH,OW,C*dm].
Tensor depthwise_conv2d(const Tensor& input, const Tensor& filter, const Tensor& bias,
                        const ConvParams& p);
Tensor depthwise_conv2d_accumulators(const Tensor& input, const Tensor& filter, const Tensor& bias,
                                     const ConvParams& p);

// Quantization part of ConvParams from the float32 scales: per channel
// m[c] = (double)input_scale * (double)filter_scales[c] / (double)output_scale,
// quantized with quant::quantize_multiplier; activation range from the output
// scale and zero point. Geometry fields keep their defaults (set them after).
ConvParams make_conv_params(float input_scale, int32_t input_zero_point,
                            const std::vector<float>& filter_scales, float output_scale,
                            int32_t output_zero_point, quant::Activation act,
                            quant::Rounding rounding = quant::Rounding::kDouble);

// Accumulators are computed exactly and truncated to int32 (two's complement),
// as the int32 accumulators of the reference kernels wrap. Shape or type
// problems throw cosim::InputError.

}  // namespace cosim::ops
