// The `model` op of the tinydnn target: replays the CONV_2D layers of a real
// float .tflite model (e.g. ResNet-8) as bf16 forward passes, all in one
// simulation.
//
//   target: tinydnn
//   op: model
//   model: ../shared/models/resnet8_float.tflite  # relative: from the parent of the scenario's folder
//   ops: all                                      # or CONV_2D operator indices of subgraph 0, e.g. [0, 3]
//
// Per selected CONV_2D: weights from the model (OHWI float32 -> OIHW,
// truncated to bf16), its bias, and a seeded random float map (uniform
// [-1, 1), seed = scenario seed + operator index) of the layer's input shape;
// the host applies TFLite's SAME padding. The accelerator has no stride and
// no padding, at most 16 output channels per pass and 4096-element buffers,
// so the host tiles the layer over output channels (16 per pass) and output
// rows (the largest row band the buffers take). Every tile is one forward
// job with its own check "op<NN>_conv2d_c<k>_r<k>", bit-exact against the
// tiny-dnn golden. The fused activation is not applied (the accelerator
// computes conv + bias only). Stride > 1 and dilation > 1 layers are listed as
// unsupported, not failures. A missing model file skips the scenario.
#pragma once

#include <string>

#include "cosim/backend.hpp"

namespace cosim::tb::tinydnn {

scenario::Schema model_op_schema();
// Throws tb::ScenarioSkipped when the model file does not exist.
Workload prepare_model(const scenario::Scenario& sc);
bool is_model_workload(const Workload& w);
trace::Trace compile_model(const scenario::Scenario& sc, const Workload& w);
// Per-layer table: tiles, bit-exactness, golden vs float32 max/mean rel. error.
Metrics model_metrics(const Workload& w, const SimOutcome& run);

}  // namespace cosim::tb::tinydnn
