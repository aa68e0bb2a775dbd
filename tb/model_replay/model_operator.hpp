// The `model` op of a target, written once over the target's typed state:
// a backend's target file builds it with model_operator() and the backend
// registers it with add_operator(). Its prepare() loads the model, selects
// the operators, runs the golden chain and lowers every selected operator
// (model_selection.hpp, delegate_inputs.hpp); it throws tb::ScenarioSkipped
// when the scenario file's model path names a folder that is absent,
// InputError for a model path from --set that does not exist, or a file
// missing from a folder that exists. metrics(): the per-layer table,
// report.json "layers" and metrics (model_report.hpp).
#pragma once

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cosim/operator.hpp"
#include "model_replay/delegate_inputs.hpp"
#include "model_replay/model_replay.hpp"
#include "model_replay/model_report.hpp"
#include "model_replay/model_selection.hpp"

namespace cosim::tb::model_replay {

// The op's state: the run's model and outputs, and every replayed layer
// with the target's state, in trace order.
template <class State>
struct ModelState {
  ReplayRun run;
  std::vector<TargetLayer<State>> layers;
  const Delegate<State>* network = nullptr;  // the target's, when it lowered the layers

  LayerList list() const {
    LayerList out;
    for (const TargetLayer<State>& l : layers) out.push_back(&l);
    return out;
  }
};

template <class State, class NetworkState>
class ModelOperator : public TypedOperator<ModelState<State>> {
 public:
  using Target = ModelTarget<State, NetworkState>;

  ModelOperator(std::unique_ptr<Target> target, std::function<void(const scenario::Scenario&)> check)
      : target_(std::move(target)), check_(std::move(check)) {}
  std::string name() const override { return "model"; }
  scenario::Schema schema() const override { return op_schema(*target_); }

  ModelState<State> prepare(const scenario::Scenario& sc, Workload& w) const override {
    if (check_) check_(sc);
    ModelState<State> st;
    const ModelSelection sel(*target_, sc, st.run, w);
    if (sel.delegate()) {
      lower_delegate(sel, st);
    } else if ((st.network = target_->delegate(sc)) != nullptr) {
      lower_network(sel, st);  // CPU operators included
    } else {
      lower_each(sel, st);
    }
    describe_workload(*target_, sel, st.run, st.list(), st.network != nullptr, w);
    return st;
  }

  trace::Trace compile(const scenario::Scenario& sc, const Workload& w, const ModelState<State>& st) const override {
    (void)w;
    trace::Trace t;
    t.target = target_->name();
    if (st.network != nullptr) {
      st.network->emit(t, sc, st.layers);
      return t;
    }
    if (target_->emit_network(t, sc, st.layers)) return t;
    for (const TargetLayer<State>& l : st.layers) target_->emit(t, sc, l);
    return t;
  }

  Metrics metrics(const Workload& w, const ModelState<State>& st, const SimOutcome& run) const override {
    ModelReport report(*target_, w, st.run, st.list(), st.network ? st.network->columns() : target_->columns(), run);
    for (std::size_t k = 0; k < st.layers.size(); ++k) {
      const typename Target::Run lr{k, st.layers.size(), report.captures(st.layers[k]), &st.layers};
      report.add_layer(k, lr.captures,
                       st.network ? st.network->figures(st.layers[k], run) : target_->figures(st.layers[k], lr, run));
    }
    report.close_table();
    if (st.network != nullptr) {
      st.network->totals(st.layers, run, report.metrics());
    } else {
      target_->totals(st.layers, run, report.metrics());
    }
    return report.finish();
  }

  // Mode delegate replays the network once per input, each from a fresh
  // scratch (NetworkState) and its own golden chain, or as the target says
  // (ModelTargetBase::independent_inputs): the inputs split.
  std::size_t independent_inputs(const scenario::Scenario& sc) const override {
    if (!target_->independent_inputs(sc)) return 0;
    if (batches_over_inputs(sc)) return 0;  // one simulation of them all
    return static_cast<std::size_t>(sc["inputs"].as_int());
  }

  std::optional<WorkUnit> work_unit(const Workload& w, const ModelState<State>& st, const trace::Trace& tr,
                                    const std::string& check, const std::vector<int64_t>& index,
                                    std::optional<uint64_t> address) const override {
    (void)w, (void)tr, (void)address;
    for (const TargetLayer<State>& l : st.layers) {
      for (const LayerCheck& c : l.layer.checks) {
        if (c.name == check) return target_->work_unit(l, check, index);
      }
    }
    return std::nullopt;
  }

 private:
  static TargetLayer<State> replayed(const LayerContext& ctx, LoweredLayer<State>&& lowered) {
    TargetLayer<State> l;
    l.op_index = ctx.op_index;
    l.type = ctx.type;
    l.check = ctx.check;
    l.layer = std::move(static_cast<Layer&>(lowered));
    l.state = std::move(lowered.state);
    return l;
  }

  // Mode delegate: the network on every input, the DUT operators lowered in
  // order with the target's scratch, fresh for each input (or for the one
  // batch of them all).
  void lower_delegate(const ModelSelection& sel, ModelState<State>& st) const {
    DelegateInputs inputs(*target_, sel, st.run);
    NetworkState network{};
    const auto on_dut = [&](const LayerContext& ctx) -> const Layer& {
      st.layers.push_back(replayed(ctx, target_->lower(ctx, &network)));
      return st.layers.back().layer;
    };
    if (inputs.batched()) {
      inputs.lower_batched(on_dut);
      return;
    }
    for (std::size_t k = 0; k < inputs.count(); ++k) {
      network = NetworkState{};
      inputs.lower(k, on_dut);
    }
  }

  // The target's own whole-network mode: the selected operators together.
  void lower_network(const ModelSelection& sel, ModelState<State>& st) const {
    std::vector<LoweredLayer<State>> network = st.network->lower(sel.contexts);  // its errors name their key
    if (network.size() != sel.contexts.size()) {
      throw std::logic_error("lower_network: " + std::to_string(network.size()) + " layers for " +
                             std::to_string(sel.contexts.size()) + " operators");
    }
    for (std::size_t k = 0; k < network.size(); ++k) st.layers.push_back(replayed(sel.contexts[k], std::move(network[k])));
  }

  void lower_each(const ModelSelection& sel, ModelState<State>& st) const {
    for (const LayerContext& ctx : sel.contexts) {
      LoweredLayer<State> l = sel.sc["model"].rethrow_here(
          [&] { return target_->lower(ctx, nullptr); },
          "operator " + std::to_string(ctx.op_index) + " (" + ctx.type + "): ");
      st.layers.push_back(replayed(ctx, std::move(l)));
    }
  }

  std::unique_ptr<Target> target_;
  std::function<void(const scenario::Scenario&)> check_;
};

// The `model` op over `target`. `check`, when given, runs first: the
// target's own refusals of the op's scenario (e.g. a `requant` mode the
// whole-network mode does not have).
template <class Target>
std::unique_ptr<Operator> model_operator(std::unique_ptr<Target> target,
                                         std::function<void(const scenario::Scenario&)> check = {}) {
  using Op = ModelOperator<typename Target::LayerState, typename Target::Network>;
  return std::make_unique<Op>(std::move(target), std::move(check));
}

}  // namespace cosim::tb::model_replay
