// TFLite int8 AVERAGE_POOL_2D reference semantics
// (reference_integer_ops::AveragePool): per output pixel and channel, the sum
// of the input values under the window that lie inside the map (padding taps
// do not count), divided by their count with rounding half away from zero
// ((sum + n/2) / n for a positive sum, (sum - n/2) / n otherwise, C++
// division truncating toward zero), then clamped to the fused activation's
// range. Input and output share scale and zero point (TFLite requires it).
#pragma once

#include "ops/conv2d.hpp"
#include "quant/tflite_quant.hpp"
#include "tensor/tensor.hpp"

namespace cosim::ops {

struct PoolParams {
  Padding padding = Padding::kValid;
  int stride_h = 1, stride_w = 1;
  int filter_h = 1, filter_w = 1;
  quant::ActivationRange act{-128, 127};
};

// in: int8 NHWC [N, H, W, C]; out: int8 NHWC [N, H', W', C]. InputError on
// a bad shape or a window that covers no input pixel.
Tensor average_pool2d(const Tensor& in, const PoolParams& p);

}  // namespace cosim::ops
