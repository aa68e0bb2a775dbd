// `mode: delegate` (the default) of the tinydnn target's `model` op: the
// whole float network as a delegate runs it, in one simulation.
//
//   target: tinydnn
//   op: model
//   model: ../../shared/models/resnet8_float.tflite
//   ops: all                            # a delegate places every operator
//   mode: delegate                      # or `layers`: each stride-1 CONV_2D alone on a seeded random input
//   inputs: 4                           # network inputs (1..256), top-1 agreement over them
//   images: {random: {min: 0, max: 1}}  # or {npy: f}: float32 [inputs, H, W, C]
//
// Every stride-1 CONV_2D runs on the accelerator in bf16: its input is the
// chain's own float tensor (what the delegate computed for the operators
// before it) truncated to bf16 by the host, SAME-padded by the host, tiled
// over 16 output channels and row bands (tinydnn_conv_tiles.hpp); each tile
// is checked bit for bit against the tiny-dnn golden, the check that can
// fail the run ("opNN_conv2d_inK_cA_rB"). The accelerator computes conv +
// bias only: the golden output goes back into the chain as float with the
// fused activation (ReLU) applied on the host. Every other operator
// (stride-2 CONV_2D, ADD, AVERAGE_POOL_2D, RESHAPE, FULLY_CONNECTED,
// SOFTMAX) runs on the CPU in float32 (cpp_model/tflite_float run_op) on
// the chain's tensors. The reference is the float model run entirely in
// float32 on the CPU: per layer the drift (max |diff|, SNR) of the chain's
// tensor against the float model's, at the network output the distance and
// top-1 agreement per input and over all inputs (report.json
// "network_outputs", "top1_agreement", "network_drift"). Cycles and MAC
// utilization per accelerator layer from the wrapper's per-run counters.
#pragma once

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "model_replay/model_replay.hpp"
#include "ops/distance.hpp"
#include "tinydnn/tinydnn_conv_tiles.hpp"

namespace cosim::tb::tinydnn {

struct DelegateNet;  // what every row of one delegate run shares (tinydnn_delegate.cpp)

// One row of mode delegate: an operator on the accelerator or on the CPU.
struct DelegateLayer {
  std::shared_ptr<const DelegateNet> net;
  std::string reason;            // on the CPU: why ("CONV_2D: stride 2, ..."); empty on tinydnn
  std::vector<Tiles> tiles;      // on tinydnn: per input
  std::vector<std::size_t> first_wait;  // on tinydnn: per input, its first tile's wait_done index
  std::size_t waits_per_input = 0;
  ops::FloatDistance drift;      // to the float model's own tensor, over all inputs
};

// A layer of the tinydnn `model` op: its tiles (mode layers) or its row of
// the delegate network (mode delegate).
using ModelLayerState = std::variant<Tiles, DelegateLayer>;
using ModelLayer = model_replay::TargetLayer<ModelLayerState>;

// mode, inputs, images.
void add_delegate_keys(scenario::Schema& s);
bool is_delegate(const scenario::Scenario& sc);
// Every operator a float ResNet-like network has: stride-1 CONV_2D on the
// accelerator, the rest on the CPU.
std::vector<model_replay::OpSupport> delegate_ops();
// The mode's network (model_replay::Delegate): lowered as one chain, one
// trace, the table's cells (where, tiles, cyc/input, util, max_diff, snr_db)
// and report fields; at the end the network output vs the float model,
// top-1 agreement, drift over the inputs, the operators on the CPU and why,
// whole-network cycles and utilization.
const model_replay::Delegate<ModelLayerState>& delegate();

}  // namespace cosim::tb::tinydnn
