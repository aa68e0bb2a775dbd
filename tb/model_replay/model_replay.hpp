// The `model` op of every target: replays operators of a .tflite model on a
// DUT, all in one simulation. This front end owns what does not depend on
// the DUT:
//
//   op: model
//   model: ../../shared/models/resnet8_int8.tflite  # relative: from the scenario file's folder
//   ops: all                                     # or indices into subgraph 0's operator list: [0, 3]
//
// - the model: path resolution, the skip when the scenario file's path
//   names an absent folder (tb::ScenarioSkipped; a missing file the user
//   gave with --set, or one missing from a folder that exists, is exit 2),
//   the load (a malformed file is exit 2);
// - `ops:` with one meaning for every target: a list of indices into the
//   model's operator list (subgraph 0), or `all` = every operator the target
//   supports (the others are reported as not run). A listed operator the
//   target cannot run is one InputError naming them all:
//     'ops': ops 1 (DEPTHWISE_CONV_2D), 3 (DEPTHWISE_CONV_2D): not supported by target vta (supports CONV_2D, ADD)
// - the golden chain (targets that ask for it): TFLite's int8 reference run
//   over the whole model from `input` (seeded `random`, or {npy}), giving each
//   layer its real input and its TFLite output under double and single
//   rounding;
// - the workload (expected tensors, references, MACs), the trace (one
//   target-emitted run per layer, each checked before the next), the
//   per-layer report table (console) and report.json "layers".
//
// A target implements ModelTarget<State>: which operators (with which
// options) it supports, how one layer is lowered into its State and played,
// and its own report columns.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cosim/backend.hpp"
#include "cosim/operator.hpp"
#include "quant/tflite_quant.hpp"
#include "tflite/layers.hpp"
#include "tflite/model.hpp"

namespace cosim::tb::model_replay {

// One operator type a target runs. `check` returns an empty string when
// operator `op` (of this type, subgraph 0) can run, else why not ("stride 2").
struct OpSupport {
  int32_t code = 0;         // tflite builtin code
  std::string constraints;  // for messages, e.g. "stride 1, dilation 1"; empty = any options
  std::function<std::string(const tflite::Model&, std::size_t op)> check;
};

// One selected operator, as handed to ModelTarget::lower().
struct LayerContext {
  const scenario::Scenario& sc;
  const tflite::Model& model;
  std::size_t op_index = 0;
  std::string type;   // "CONV_2D"
  std::string check;  // "op07_conv2d": the layer's check name (or prefix of its checks)
  // With uses_golden_chain(): this operator from the chain (real inputs,
  // TFLite output with double rounding) and the same under single rounding.
  const tflite::LayerWorkload* chain = nullptr;
  const tflite::LayerWorkload* chain_single = nullptr;
};

// One checked output of a layer (a layer may have several: channel groups, tiles).
struct LayerCheck {
  std::string name;
  Tensor expected;
  std::vector<Reference> references;  // other semantics, for the distance report
};

// A lowered layer, as the front end reads it.
struct Layer {
  std::string shapes;  // "1x32x32x16 -> 1x32x32x16, 3x3 s1"
  std::vector<LayerCheck> checks;
  uint64_t macs = 0;
};

// A lowered layer with the target's private state of type State (compiled
// program, tiles, statistics): what ModelTarget::lower() returns.
template <class State>
struct LoweredLayer : Layer {
  State state;
};

// A column of the per-layer table (after op, type, shapes and exact).
struct Column {
  std::string name;
  int width = 10;
};

// A layer's figures for the report: one cell per column(), fields for its
// report.json entry, and metrics (report.json "metrics", named
// "<check>.<key>").
struct Figures {
  std::string where;  // the table's "where" cell; empty = the target's name
  std::vector<std::string> cells;
  nlohmann::json json = nlohmann::json::object();
  std::map<std::string, double> metrics;
};

// Min, median (the upper of the two middle values of an even count) and max
// of a figure over a network's inputs; all 0 for no inputs.
struct Spread {
  double min = 0, median = 0, max = 0;
};
inline Spread spread_of(std::vector<double> v) {
  if (v.empty()) return {};
  std::sort(v.begin(), v.end());
  return {v.front(), v[v.size() / 2], v.back()};
}

// An SNR in dB as a figure's json holds it: the number, or "inf" for an exact
// result and "-inf" against a reference of zeros (JSON has no infinity;
// report.html's layer table reads all three).
inline nlohmann::json snr_db_json(double db) {
  return std::isinf(db) ? nlohmann::json(db > 0 ? "inf" : "-inf") : nlohmann::json(db);
}

// A selected, lowered operator, as the front end reads it.
struct ReplayedLayer {
  std::size_t op_index = 0;
  std::string type;
  std::string check;
  Layer layer;
};

// The replayed layers in trace order, as the front end reads them.
using LayerList = std::vector<const ReplayedLayer*>;

// A selected, lowered operator with the target's state: what the target's
// trace, report and work-unit hooks receive.
template <class State>
struct TargetLayer : ReplayedLayer {
  State state;
};

// What a finished run reports about one layer, for ModelTarget::figures().
template <class State>
struct LayerRun {
  std::size_t index = 0;  // among the replayed layers, in trace order
  std::size_t count = 0;  // replayed layers
  std::vector<const CheckCapture*> captures;  // one per Layer::checks entry, null when not played
  const std::vector<TargetLayer<State>>* layers = nullptr;  // all replayed layers, in trace order
};

// A target's scratch over one network run when it needs none.
struct NoNetworkState {};

// A target's own whole-network mode (tf2's, tiny-dnn's `mode: delegate`;
// VTA's is the golden chain's, in ModelSelection): the selected operators
// lowered together as one network, each layer reading what earlier ones
// wrote and the CPU operators rows of their own, with the network's own
// trace, columns, figures and totals. ModelOperator calls it in place of
// the target's per-layer hooks whenever ModelTarget::delegate() gives one.
// A record of the target's functions: each target has one, a static.
template <class State>
struct Delegate {
  using Layers = std::vector<TargetLayer<State>>;
  // One layer per context, in order. Its errors name their key
  // (Value::fail / rethrow_here: `model` for the model's contents).
  std::vector<LoweredLayer<State>> (*lower)(const std::vector<LayerContext>& ctxs);
  void (*emit)(trace::Trace& t, const scenario::Scenario& sc, const Layers& layers);
  std::vector<Column> (*columns)();
  Figures (*figures)(const TargetLayer<State>& l, const SimOutcome& out);
  void (*totals)(const Layers& layers, const SimOutcome& out, Metrics& m);
};

// What the front end asks of a target whatever its state: the operators it
// runs, its keys, how its layers are fed.
class ModelTargetBase {
 public:
  virtual ~ModelTargetBase() = default;
  virtual std::string name() const = 0;  // the target, e.g. "vta"
  virtual std::vector<OpSupport> supported_ops() const = 0;
  // The operators one scenario can run, when a target key changes them
  // (e.g. a whole-network mode that also runs ADD and the host operators).
  virtual std::vector<OpSupport> supported_ops_for(const scenario::Scenario& sc) const {
    (void)sc;
    return supported_ops();
  }
  // Run TFLite's int8 reference over the model and give each layer its real
  // input (key `input`: random or {npy}); otherwise the target makes its own.
  virtual bool uses_golden_chain() const { return false; }
  // Whether the scenario replays its `inputs:` independently (each input its
  // own network run from a fresh state, its checks named `..._in<K>`, a
  // slice lowered from Scenario::input_slice with K counted over all
  // inputs), so that `cosim run --jobs` may split them over processes.
  // Default: the golden chain's mode delegate.
  virtual bool independent_inputs(const scenario::Scenario& sc) const {
    return uses_golden_chain() && sc["mode"].as_string() == "delegate";
  }
  // The rounding in which the DUT computes TFLite's own requantization (e.g.
  // `requant: tflite_double`), or nullopt when it has a scheme of its own.
  // Mode delegate then runs the CPU operators in that rounding too, so the
  // chain is TFLite's end to end: the network output must equal TFLite run
  // entirely on the CPU bit for bit, and the report says whether it does.
  virtual std::optional<quant::Rounding> tflite_rounding(const scenario::Scenario& sc) const {
    (void)sc;
    return std::nullopt;
  }
  // Target keys of the op (e.g. `input`, `compile`), added to the map.
  virtual void add_keys(scenario::Schema& s) const { (void)s; }
  // One line describing how layers are fed, for the workload summary.
  virtual std::string summary(const scenario::Scenario& sc) const = 0;
};

// A target of the front end, typed by its per-layer state (State) and its
// scratch over one network run in mode delegate (NetworkState).
template <class State, class NetworkState = NoNetworkState>
class ModelTarget : public ModelTargetBase {
 public:
  using LayerState = State;
  using Network = NetworkState;
  using Lowered = LoweredLayer<State>;
  using Replayed = TargetLayer<State>;
  using Run = LayerRun<State>;

  // Lowers one supported operator. An InputError is reported at the `model`
  // key, naming the operator. `network`, in mode delegate: the target's
  // scratch across the DUT operators of one network run, in order (e.g.
  // where its outputs sit in DRAM, so a later operator reads them there),
  // fresh at the first operator of each input; null otherwise.
  virtual Lowered lower(const LayerContext& ctx, NetworkState* network) const = 0;
  // The target's own whole-network mode when the scenario asks for it
  // (Delegate); null = each selected operator on its own with lower().
  virtual const Delegate<State>* delegate(const scenario::Scenario& sc) const {
    (void)sc;
    return nullptr;
  }
  // The whole trace of the layers lowered one by one, when the target emits
  // them together (e.g. VTA's streamed layers); false = one emit() per layer.
  virtual bool emit_network(trace::Trace& t, const scenario::Scenario& sc, const std::vector<Replayed>& layers) const {
    (void)t, (void)sc, (void)layers;
    return false;
  }
  // The trace steps of one layer: load, start, wait, and one check per
  // Layer::checks entry with its name and expected tensor.
  virtual void emit(trace::Trace& t, const scenario::Scenario& sc, const Replayed& l) const = 0;
  // The per-layer table's target columns and one layer's figures.
  virtual std::vector<Column> columns() const = 0;
  virtual Figures figures(const Replayed& l, const Run& run, const SimOutcome& out) const = 0;
  // Run-wide figures (utilization, totals) once every layer is reported; a
  // JSON object in m.report_json is merged into report.json.
  virtual void totals(const std::vector<Replayed>& layers, const SimOutcome& out, Metrics& m) const {
    (void)layers, (void)out, (void)m;
  }
  // Who produced element `index` of check `check` of layer `l` (first-divergence report).
  virtual std::optional<WorkUnit> work_unit(const Replayed& l, const std::string& check,
                                            const std::vector<int64_t>& index) const {
    (void)l, (void)check, (void)index;
    return std::nullopt;
  }
};

// The op's keys: model, ops, the golden chain's input (when used), the target's.
scenario::Schema op_schema(const ModelTargetBase& target);
// The `model` op of a target, written once: model_operator() in
// model_operator.hpp.

// The model path of a scenario's `model` key: absolute, or relative to the
// scenario file's folder (like `npy:` paths); from --set, relative to the
// current folder.
std::string resolve_model(const scenario::Scenario& sc, const scenario::Value& key);
// "op07_conv2d", "op03_add", "op01_depthwise_conv2d".
std::string check_name(std::size_t op_index, const std::string& type);
// "1x32x32x16".
std::string dims(const std::vector<int64_t>& shape);
// Operator `op`'s first input and its output, "32x32x16 -> 16x16x32" (batch 1 dropped unless keep_batch).
std::string op_shapes(const tflite::Model& m, std::size_t op, bool keep_batch = false);

}  // namespace cosim::tb::model_replay
