// A FULLY_CONNECTED workload as the 1x1 CONV_2D it equals, for accelerators
// whose matrix engine runs convolutions: its [rows, depth] input as an NHWC
// [1, 1, rows, depth] map, its [units, depth] filter as [units, 1, 1, depth],
// stride 1, no padding. Both sum (x - zp_in) * w + bias per row and unit and
// requantize with the same multipliers (TFLite's FullyConnected and Conv
// kernels share MultiplyByQuantizedMultiplier), so the outputs are equal bit
// for bit; the result is [1, 1, rows, units].
#pragma once

#include "tflite/layers.hpp"

namespace cosim::tflite {

// `fc` must be a FULLY_CONNECTED workload (InputError otherwise). Its inputs
// and expected output, when it has them, are reshaped too; a per-tensor
// multiplier becomes one per unit (the same value).
LayerWorkload fully_connected_as_conv2d(const LayerWorkload& fc);

}  // namespace cosim::tflite
