// `mode: delegate` of the tf2 target's `model` op: the whole float network on
// the TF2 engine, each layer reading what the earlier layers wrote.
//
//   target: tf2
//   op: model
//   model: ../../shared/models/resnet8_float.tflite
//   ops: all            # a chain runs the whole network
//   mode: delegate      # (default; `chain` is its older name) or `layers`: each CONV_2D alone on a seeded random input
//   calibration: 8      # images the float network runs on to choose every map's Qs
//   inputs: 4           # images run through the chain (top-1 agreement over them)
//   images: {random: {min: 0, max: 1}}   # or {npy: f}: float32 [calibration + inputs, H, W, C]
//
// Images: the first `calibration` of `images` calibrate, the next `inputs`
// run through the chain (an .npy of another shape is exit 2 naming it).
// Calibration (cpp_model/tf2/tflite_network.hpp) picks every map's
// per-channel Q as the Transform Kit does; the network becomes TF2 layers
// and host operators: every CONV_2D TF2 can hold a layer (float32 or
// dynamic-range int8 weights; a shortcut convolution reads its block's input
// through input_from), every FULLY_CONNECTED a 1x1 layer over a 1x1 map,
// every ADD the residual ADD of the layer before it, SAME padding with the
// odd pixel after the map folded into a (k+1)x(k+1) kernel; the others
// (depthwise, pooling, reshape, softmax, a layer too large for the device)
// run in float on the host, each with its reason in the table. Consecutive
// layers form a segment, one TF2 program: per input, segment by segment, its
// DRAM regions are loaded (the first segment's with the quantized image, a
// later one's with the host's output quantized at its Qs), the engine runs
// its layers, and every layer's output map is checked bit for bit against
// the golden chain (sac_chain: the same layers on the same bytes),
// `opNN_conv2d_inK[_cA_B]`.
//
// Per layer (console, report.json "layers"): where it ran, bit-exact, Qs,
// layer SNR = the TF2 output (dequantized) against the model's float
// operator(s) run on the same dequantized TF2 input (and residual), network
// SNR = against the float model's own tensor. At the end (report.json
// "top1"): the float model's top-1 against the TF2 chain's, the chain's
// tail run in float from the map bytes the DUT wrote.
#pragma once

#include <vector>

#include "model_replay/model_replay.hpp"
#include "tf2_model_layer.hpp"

namespace cosim::tb::tf2 {

void add_delegate_keys(scenario::Schema& s);
bool is_delegate(const scenario::Scenario& sc);
// The operators a chain runs (every one the network planner places).
std::vector<model_replay::OpSupport> delegate_ops();
// The mode's network (model_replay::Delegate): lowered as one chain, one
// trace, the table's cells (where, Qin, Qout, minexp, inq_snr, inq_err,
// int8_snr, int8_err, net_snr), report fields and metrics, and the top-1
// agreement from the DUT's bytes with utilization as the layers mode.
const model_replay::Delegate<ModelLayerState>& delegate();

}  // namespace cosim::tb::tf2
