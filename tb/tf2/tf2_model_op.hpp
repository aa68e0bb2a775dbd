// The `model` op of the tf2 target: the CONV_2D layers of a float .tflite
// model (the float ResNet-8) on the TF2 engine, all in one simulation.
//
//   target: tf2
//   op: model
//   model: ../shared/models/resnet8_float.tflite   # relative: from the parent of the scenario's folder
//   ops: all                                       # or operator indices of subgraph 0 (CONV_2D)
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
// checks its output groups ("opNN_conv2d[_cA_B]") before the next layer.
// Other operator types in `ops`, and layers the device cannot hold (feature
// cache, filter cache, shift range), are listed as unsupported with the
// reason, not failures. A missing model file skips the scenario.
#pragma once

#include "cosim/backend.hpp"

namespace cosim::tf2 {

scenario::Schema model_op_schema();
// Throws tb::ScenarioSkipped when the model file does not exist.
tb::Workload prepare_model(const scenario::Scenario& sc);
bool is_model_workload(const tb::Workload& w);
trace::Trace compile_model(const scenario::Scenario& sc, const tb::Workload& w);
// Per layer: bit-exactness, cost of INQ and of int8 vs float (console table,
// metrics, report.json "layers").
tb::Metrics model_metrics(const tb::Workload& w, const tb::SimOutcome& run);

}  // namespace cosim::tf2
