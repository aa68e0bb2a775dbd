// Mode delegate of the `model` op, as a TFLite delegate runs the network:
// on each input (`inputs:`), the selected operators on the DUT, each fed the
// tensors the delegate chain itself produced (the DUT's golden output of
// earlier DUT operators, the CPU's of the others), every other operator on
// the CPU in TFLite int8 semantics on the same chain, in the CPU rounding
// (double, or the rounding of the TFLite requantization the DUT computes).
// Each DUT layer keeps the TFLite CPU chain's outputs as its references
// (drift, double and single rounding).
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "model_replay/model_selection.hpp"
#include "tlm/progress_line.hpp"

namespace cosim::tb::model_replay {

// Input k's part of a batched layer's tensor (DelegateInputs::batched): of n
// equal runs of rows, the k-th (the batch itself when n is 1).
Tensor input_rows(const Tensor& batch, std::size_t k, std::size_t n);

// Whether `sc` (mode delegate) may run its inputs as one batch: `batch:
// auto`, more than one input, and a model of FULLY_CONNECTED operators only
// (false when the model does not load: the run itself reports that). Such a
// run is one simulation, never split over processes.
bool batches_over_inputs(const scenario::Scenario& sc);

class DelegateInputs {
 public:
  // Sets run.tflite_rounding from the target.
  DelegateInputs(const ModelTargetBase& target, const ModelSelection& sel, ReplayRun& run);

  std::size_t count() const { return count_; }
  // Input k's network, every operator in order: the selected ones lowered by
  // `lower_on_dut` (their checks named opNN_type_inK for k > 0), which
  // returns the layer it lowered; the network output into run.networks.
  void lower(std::size_t k, const std::function<const Layer&(const LayerContext&)>& lower_on_dut);

  // True when the inputs run as one batch (`batch: auto`, more than one
  // input, every operator of the network a FULLY_CONNECTED on the DUT): a
  // dense network acts on each row alone, so the inputs stack as the rows of
  // one input and every layer runs once, its weights loaded once.
  bool batched() const { return batched_; }
  // The batched network: each operator lowered once by `lower_on_dut` over
  // the inputs stacked along the first dimension (its check opNN_type holds
  // every input's rows, in input order); each input's network output into
  // run.networks, as lower() gives it.
  void lower_batched(const std::function<const Layer&(const LayerContext&)>& lower_on_dut);

 private:
  const ModelSelection& sel_;
  ReplayRun& run_;
  quant::Rounding cpu_rounding_;
  std::size_t count_ = 0;
  bool batched_ = false;
  std::size_t first_ = 0;  // the first input's index over all `inputs:` (Scenario::input_slice)
  ProgressLine progress_{"compiling the network for input"};
};

}  // namespace cosim::tb::model_replay
