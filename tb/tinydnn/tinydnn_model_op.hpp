// The `model` op of the tinydnn target (front end: tb/model_replay) on a
// float .tflite model (e.g. ResNet-8), all in one simulation.
//
//   target: tinydnn
//   op: model
//   model: ../../shared/models/resnet8_float.tflite  # relative: from the scenario file's folder
//   ops: all
//   mode: delegate                                # (default) or layers
//
// mode delegate (tinydnn_delegate.hpp): the whole network, stride-1 CONV_2D
// in bf16 on the accelerator on the chain's own tensors, the rest in
// float32 on the CPU; `inputs: N` images, drift and top-1 agreement
// against the float model.
//
// mode layers: each supported CONV_2D (float32 filter, stride 1, dilation
// 1; `ops: all` or operator indices) alone on a seeded random float map
// (uniform [-1, 1), seed = scenario seed + operator index) of the layer's
// input shape. Both modes lower a layer the same way
// (tinydnn_conv_tiles.hpp): weights OHWI float32 -> OIHW truncated to bf16
// with the bias, TFLite SAME padding on the host, tiles of 16 output
// channels and row bands, each a forward job checked bit-exact against the
// tiny-dnn golden. The accelerator computes conv + bias only; layers mode
// does not apply the fused activation.
#pragma once

#include <memory>

#include "model_replay/model_replay.hpp"

namespace cosim::tb::tinydnn {

// The `model` op of the tinydnn target (the model-replay front end over it).
std::unique_ptr<Operator> make_model_operator();

}  // namespace cosim::tb::tinydnn
