// A layer's state in the tf2 target's `model` op: in mode layers a
// Tf2Layer (tf2_model_op.cpp), in mode delegate a DelegateLayer, one row of the
// whole network (tf2_delegate.cpp).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "model_replay/model_replay.hpp"
#include "tf2/compiler.hpp"
#include "tf2/reference.hpp"

namespace cosim::tb::tf2 {

// A layer lowered alone: the device program, where its output groups are,
// and the cost of INQ and of int8 against the float layer.
struct Tf2Layer {
  ::cosim::tf2::Program program;
  std::vector<uint64_t> group_addrs;  // one per check: the group's first pixel word
  uint64_t row_pitch = 0;             // bytes from a group's row to its next (HC16W: a map row)
  std::vector<int> q_in, q_out;  // per channel (spec/tf2.md)
  int min_exp = 0;
  int k = 1;  // kernel size (the PE array's peak depends on it)
  ::cosim::tf2::ErrorStats inq, total;
};

struct ChainNet;  // what every layer of one chain run shares (tf2_delegate.cpp)

// One row of the chain's table: a TF2 layer, an ADD fused into one, or a host operator.
struct DelegateLayer {
  std::shared_ptr<const ChainNet> net;
  int layer = -1;       // TF2 layer (also for a fused ADD), -1 = host
  bool fused_add = false;
  std::vector<uint64_t> check_addrs;  // one per check: its group's first pixel word
  uint64_t row_pitch = 0;             // bytes from a group's row to its next (HC16W: a map row)
  ::cosim::tf2::ErrorStats inq_err, layer_err, net_err;
  std::string host_reason;  // a host operator: why it is not on TF2
};

using ModelLayerState = std::variant<Tf2Layer, DelegateLayer>;
using ModelLayer = model_replay::TargetLayer<ModelLayerState>;

// The per-layer table's columns, in both modes. SNR in dB against the float
// layer on the same input; err = max abs error; net_snr (mode delegate)
// against the float model's own tensor.
inline std::vector<model_replay::Column> model_columns() {
  return {{"Qin", 8},       {"Qout", 8},       {"minexp", 8},      {"inq_snr", 10},
          {"inq_err", 10},   {"int8_snr", 10}, {"int8_err", 10},  {"net_snr", 10}, {"cyc/input", 10},
          {"util", 7}};
}

}  // namespace cosim::tb::tf2
