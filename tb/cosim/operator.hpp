// The unit of extension of a target: one handler per operator (`op:` of a
// scenario). A backend registers its operators with
// TargetBackend::add_operator(); the backend's op-level methods (ops,
// op_schema, prepare, compile, metrics, work_unit) dispatch to them, so a new
// operator is a new file and one registration line.
//
// An operator's private state is typed: derive from TypedOperator<State>,
// whose prepare() fills the workload and returns the State, and whose
// compile / metrics / work_unit receive it as `const State&`. The type
// erasure is done once, here: the workload keeps the state behind a
// std::shared_ptr<const void> tagged with the operator that made it, and only
// that operator reads it back.
#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cosim/backend.hpp"

namespace cosim::tb {

// One operator of a target, type-erased: what TargetBackend dispatches to.
class Operator {
 public:
  virtual ~Operator() = default;
  virtual std::string name() const = 0;  // the scenario's `op:`
  // The op's extra top-level keys (a Schema::map()), merged with the common
  // scenario schema before validation.
  virtual scenario::Schema schema() const = 0;
  // Inputs, golden outputs and the operator's state. Semantic problems are
  // reported with Value::fail() on the offending key.
  virtual Workload prepare(const scenario::Scenario& sc) const = 0;
  // The trace of a workload this operator prepared.
  virtual trace::Trace compile(const scenario::Scenario& sc, const Workload& w) const = 0;
  // MACs, utilisation and the operator's figures of a run.
  virtual Metrics metrics(const Workload& w, const SimOutcome& run) const = 0;
  // Who produced element `index` of check `check` (TargetBackend::work_unit).
  virtual std::optional<WorkUnit> work_unit(const Workload& w, const trace::Trace& tr, const std::string& check,
                                            const std::vector<int64_t>& index,
                                            std::optional<uint64_t> address) const = 0;
  // `cosim replay` of a trace this operator compiled (its config's `op`), no
  // workload: adds what the trace's config records to the target's replay
  // figures (TargetBackend::replay_metrics). Default: nothing.
  virtual void replay_metrics(const SimOutcome& run, Metrics& m) const { (void)run, (void)m; }
  // How many inputs the scenario's run plays one after another, each on its
  // own (no state of the DUT or of the trace carried from one to the next),
  // so that `cosim run --jobs` may simulate slices of them in separate
  // processes (Scenario::input_slice) and merge the outcomes in input order.
  // 0 (default): the run does not split.
  virtual std::size_t independent_inputs(const scenario::Scenario& sc) const {
    (void)sc;
    return 0;
  }
};

// An operator with private state of type State (parameters, compiled
// program, layouts ...). Implement name(), schema() and the typed hooks.
template <class State>
class TypedOperator : public Operator {
 public:
  // Fills `w` (inputs, expected, references, macs, summary) and returns the state.
  virtual State prepare(const scenario::Scenario& sc, Workload& w) const = 0;
  virtual trace::Trace compile(const scenario::Scenario& sc, const Workload& w, const State& st) const = 0;
  // Default: the workload's MACs.
  virtual Metrics metrics(const Workload& w, const State& st, const SimOutcome& run) const {
    (void)st, (void)run;
    Metrics m;
    m.macs = w.macs;
    return m;
  }
  // Default: unknown.
  virtual std::optional<WorkUnit> work_unit(const Workload& w, const State& st, const trace::Trace& tr,
                                            const std::string& check, const std::vector<int64_t>& index,
                                            std::optional<uint64_t> address) const {
    (void)w, (void)st, (void)tr, (void)check, (void)index, (void)address;
    return std::nullopt;
  }

  // The erased interface, once for every operator.
  Workload prepare(const scenario::Scenario& sc) const final {
    Workload w;
    State st = prepare(sc, w);
    w.state.owner_ = this;
    w.state.value_ = std::make_shared<const State>(std::move(st));
    return w;
  }
  trace::Trace compile(const scenario::Scenario& sc, const Workload& w) const final {
    return compile(sc, w, state(w));
  }
  Metrics metrics(const Workload& w, const SimOutcome& run) const final { return metrics(w, state(w), run); }
  std::optional<WorkUnit> work_unit(const Workload& w, const trace::Trace& tr, const std::string& check,
                                    const std::vector<int64_t>& index,
                                    std::optional<uint64_t> address) const final {
    return work_unit(w, state(w), tr, check, index, address);
  }

 private:
  // The state this operator's prepare() stored: the tag says it is a State.
  const State& state(const Workload& w) const {
    if (w.state.owner_ != this || !w.state.value_) {
      throw std::logic_error("operator '" + name() + "': a workload it did not prepare");
    }
    return *static_cast<const State*>(w.state.value_.get());
  }
};

}  // namespace cosim::tb
