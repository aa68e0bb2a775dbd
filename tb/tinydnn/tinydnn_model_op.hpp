// The `model` op of the tinydnn target (front end: tb/model_replay): the
// stride-1 CONV_2D layers of a float .tflite model (e.g. ResNet-8) as bf16
// forward passes, all in one simulation.
//
//   target: tinydnn
//   op: model
//   model: ../shared/models/resnet8_float.tflite  # relative: from the parent of the scenario's folder
//   ops: all                                      # every supported CONV_2D; or operator indices, e.g. [0, 3]
//
// Supported: CONV_2D with a float32 filter, stride 1 and dilation 1. Per
// layer: weights from the model (OHWI float32 -> OIHW, truncated to bf16),
// its bias, and a seeded random float map (uniform [-1, 1), seed = scenario
// seed + operator index) of the layer's input shape; the host applies
// TFLite's SAME padding. The accelerator has no stride and no padding, at
// most 16 output channels per pass and 4096-element buffers, so the host
// tiles the layer over output channels (16 per pass) and output rows (the
// largest row band the buffers take). Every tile is one forward job with its
// own check "op<NN>_conv2d_c<k>_r<k>", bit-exact against the tiny-dnn
// golden. The fused activation is not applied (the accelerator computes
// conv + bias only).
#pragma once

#include <memory>

#include "model_replay/model_replay.hpp"

namespace cosim::tb::tinydnn {

// The tinydnn target of the model-replay front end.
std::unique_ptr<model_replay::ModelTarget> make_model_target();

}  // namespace cosim::tb::tinydnn
