// The `model` op of the tf2 target (front end: tb/model_replay): the CONV_2D
// layers of a float .tflite model (the float ResNet-8) on the TF2 engine, all
// in one simulation.
//
//   target: tf2
//   op: model
//   model: ../../shared/models/resnet8_float.tflite   # relative: from the scenario file's folder
//   ops: all                                       # every float CONV_2D; or operator indices
//   input: random                                  # per layer: seeded uniform [-1, 1]; {random: {min, max}}; {npy: f}
//
// Each selected CONV_2D becomes one TF2 layer: the float filter (OHWI in the
// file, OIHW here) INQ-compressed, the float bias, fused ReLU; its input is
// a seeded random float map of that layer's input shape (not the model's
// float chain: each layer is exercised on its own, stream "opNN_input"), an
// {npy} input must have the shape of every selected layer's input (NHWC).
// One Q per map from the float results (smallest per-channel Q over the
// channels that are not all zero: ReLU-dead channels do not force Q 0).
// TFLite SAME padding with the odd pixel after the map (stride 2 on even
// maps) runs as symmetric padding on the input extended by a zero row /
// column. The trace loads each layer's DRAM image at 0, starts, waits and
// checks its output groups ("opNN_conv2d[_cA_B]") before the next layer. A
// layer the device cannot hold (feature cache, filter cache, shift range) is
// an input error naming the operator.
#pragma once

#include <functional>
#include <memory>

#include "model_replay/model_replay.hpp"

namespace cosim::tb::tf2 {

// The `model` op of the tf2 target (the model-replay front end over it);
// `check` runs first on the op's scenario (the backend's own refusals).
std::unique_ptr<Operator> make_model_operator(std::function<void(const scenario::Scenario&)> check);

}  // namespace cosim::tb::tf2
