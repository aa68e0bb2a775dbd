// A DEPTHWISE_CONV_2D workload as a CONV_2D with a block-diagonal filter, for
// accelerators whose matrix engine runs only full convolutions: output
// channel o reads input channel o / multiplier alone, so the CONV_2D filter
// [C * m, KH, KW, C] holds the depthwise weight of o at input channel
// o / m and zero elsewhere. The zeros add nothing to the int32 sums, the
// window, padding and strides are the same, and TFLite's DepthwiseConv and
// Conv kernels requantize with the same per-channel multipliers, so the
// outputs are equal bit for bit; the cost is C times the MACs (each output
// sums over every input channel), which the engine pays in full.
#pragma once

#include "tflite/layers.hpp"

namespace cosim::tflite {

// `dw` must be a DEPTHWISE_CONV_2D workload (InputError otherwise); its
// inputs, expected output and output shape stay as they are.
LayerWorkload depthwise_as_conv2d(const LayerWorkload& dw);

}  // namespace cosim::tflite
