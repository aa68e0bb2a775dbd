// The `model` op's front end, before anything is lowered: the model loaded,
// the operators selected (`ops:`), the golden chain run on the first input,
// one LayerContext per selected operator; and, once lowered, the workload
// those layers make.
#pragma once

#include <cstddef>
#include <vector>

#include "model_replay/model_replay.hpp"
#include "model_replay/replay_run.hpp"

namespace cosim::tb::model_replay {

// The golden chain: layers (double and single rounding) by operator index.
// dbl and sgl carry the double-rounding run's inputs; values_* are the whole
// runs, sgl_own the single-rounding layers on the single-rounding run.
struct Chain {
  std::vector<tflite::LayerWorkload> dbl, sgl, sgl_own;
  tflite::TensorMap values_double, values_single;
  const tflite::LayerWorkload* find(const std::vector<tflite::LayerWorkload>& v, std::size_t op) const;
};

// TFLite's int8 reference over the whole model from `input`.
Chain golden_chain(const scenario::Value& model_key, const tflite::Model& m, const Tensor& input);

class ModelSelection {
 public:
  // Loads the model (skip or exit 2 as model_replay.hpp says; fills
  // run.model_path), selects the operators (the left-out ones into
  // run.not_run), runs the golden chain on the first input when the target
  // uses it (w.inputs["input"]) and gives each selected operator its context.
  ModelSelection(const ModelTargetBase& target, const scenario::Scenario& sc, ReplayRun& run, Workload& w);
  ModelSelection(const ModelSelection&) = delete;
  ModelSelection& operator=(const ModelSelection&) = delete;

  // Mode delegate: the network as a TFLite delegate runs it.
  bool delegate() const { return delegate_; }

  const scenario::Scenario& sc;
  tflite::Model model;
  Chain chain;                        // on inputs[0], when the target uses the golden chain
  std::vector<Tensor> inputs;         // the network inputs (`inputs:` of them)
  std::vector<LayerContext> contexts;  // the selected operators, ascending

 private:
  bool delegate_ = false;
};

// The workload of the lowered layers: expected tensors, references, MACs and
// the summary line. `network_lowered`: the target lowered the whole network
// (the target's Delegate), CPU operators included.
void describe_workload(const ModelTargetBase& target, const ModelSelection& sel, const ReplayRun& run,
                       const LayerList& layers, bool network_lowered, Workload& w);

}  // namespace cosim::tb::model_replay
