// What the `model` op's front end keeps of one run besides the layers: the
// model, the operators left out, and in mode delegate the network outputs.
// Plain data, shared by the selection (model_selection.hpp), the delegate
// lowering (delegate_inputs.hpp) and the report (model_report.hpp).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "quant/tflite_quant.hpp"
#include "tensor/tensor.hpp"

namespace cosim::tb::model_replay {

// An operator of the model the target does not run, and why.
struct NotRun {
  std::size_t op_index = 0;
  std::string type;
  std::string reason;  // "DEPTHWISE_CONV_2D" or "CONV_2D: stride 2"
  std::string shapes;  // "1x8x8x64 -> 1x1x1x64"
};

// mode: delegate: the network's output as the delegate computed it (the
// DUT's operators chained, the rest on the CPU) and as TFLite computes it
// entirely on the CPU, in both roundings.
struct NetworkOutput {
  Tensor delegate, cpu_double, cpu_single;
  // An autoencoder's own score (anomaly_score.hpp): the reconstruction error
  // of the delegate's output and of TFLite's (double rounding), dequantized.
  std::optional<std::pair<double, double>> anomaly;
};

struct ReplayRun {
  std::string model_path;  // resolved
  std::vector<NotRun> not_run;  // `ops: all`: the operators left out
  std::vector<NetworkOutput> networks;  // mode: delegate, one per input (`inputs:`)
  // The inputs ran as one batch (DelegateInputs::batched): each layer once,
  // its check holding every input's rows in input order.
  bool batched = false;
  // ModelTargetBase::tflite_rounding: the rounding the whole delegate chain runs
  // in, whose network output must equal TFLite's on the CPU bit for bit.
  std::optional<quant::Rounding> tflite_rounding;
};

}  // namespace cosim::tb::model_replay
