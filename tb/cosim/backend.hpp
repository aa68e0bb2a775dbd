// The interface a target (VTA, TF2, tiny-dnn, the test DUT) implements to
// plug into `cosim`. A backend owns its part of the scenario schema, turns a
// validated scenario into a workload (input tensors + golden outputs),
// compiles the workload into a trace, builds its DUT wrapper, and turns the
// run's counters into metrics. The CLI only talks to this interface; see
// tb/README.md for how a backend folder registers itself. What varies is the
// operator: a backend registers one handler per op (cosim/operator.hpp) and
// the op-level methods dispatch to them.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "scenario/scenario.hpp"
#include "tensor/tensor.hpp"
#include "tlm/dut_wrapper.hpp"
#include "tlm/simulation.hpp"
#include "trace/trace.hpp"

namespace cosim::tb {

// A DUT output under another rounding semantics (e.g. tflite_double when the
// hardware computes vta16): the report gives the distance of the actual
// output to it. `check` names the trace check it compares with and the
// tensor has that check's dtype and shape.
struct Reference {
  std::string check;
  std::string semantics;
  Tensor tensor;
};

class Operator;
template <class State>
class TypedOperator;

// An operator's private state in a workload: stored by the operator's
// prepare() (TypedOperator<State>), read back only by that operator.
class OperatorState {
 public:
  // The operator that prepared the workload (null: none, e.g. built by hand).
  const Operator* owner() const { return owner_; }

 private:
  template <class State>
  friend class TypedOperator;
  const Operator* owner_ = nullptr;
  std::shared_ptr<const void> value_;
};

struct Workload {
  std::string summary;                   // one line, e.g. "conv2d 1x8x8x16 -> 1x8x8x16, 3x3"
  std::map<std::string, Tensor> inputs;  // by name (for --dump)
  std::map<std::string, Tensor> expected;  // golden outputs by check name
  std::vector<Reference> references;
  uint64_t macs = 0;  // multiply-accumulates of the workload
  // The int8 outputs' quantization by check name, where the operator knows
  // it: the values an `output_format` converts (cosim/output_format.hpp).
  std::map<std::string, scenario::Int8Quant> output_quant;
  std::optional<scenario::MliSource> output_format;  // the scenario's; set by the runner
  OperatorState state;  // the operator's: parameters, layouts, compiled program, ...
};

struct Metrics {
  uint64_t macs = 0;
  std::optional<double> utilization;  // MAC-array utilisation in [0, 1], when the target has one
  std::map<std::string, double> extra;  // target-specific figures for report.json
  std::vector<std::string> table;       // extra console lines (e.g. a per-layer table)
  std::string report_json;              // a JSON object whose keys are added to report.json
};

// Thrown by prepare() when the scenario cannot run here for a reason that is
// not an error (e.g. its .tflite model is not on this machine): `cosim run`
// prints "cosim: skipped: <what>", writes status "skipped" and exits 0.
class ScenarioSkipped : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The unit of work that produced one output element, named in the
// first-divergence report (console + report.json "first_divergence.unit").
struct WorkUnit {
  std::string text;                       // one line, e.g. "instruction 17: STORE ..." or "layer 0, channel 3, pixel (y 4, x 5)"
  std::map<std::string, int64_t> fields;  // the same, machine-readable: instruction / layer, channel, y, x, ...
};

// A wrapper's per-run counter "run<K>_<name>" as {K, name}; nullopt for any
// other counter name.
std::optional<std::pair<std::size_t, std::string>> numbered_run_counter(const std::string& key);

// A target. The op-level methods have a default that dispatches to the
// operators registered with add_operator(): by `sc.op`, or by the operator
// that prepared the workload.
class TargetBackend {
 public:
  TargetBackend();
  virtual ~TargetBackend();
  TargetBackend(const TargetBackend&) = delete;
  TargetBackend& operator=(const TargetBackend&) = delete;

  virtual std::string name() const = 0;         // the scenario's `target:`
  virtual std::string description() const = 0;  // one line for `cosim list`
  // The DUT's clocks when it has more than one (the generated
  // pins::Top::kClocks, from the manifest's ports.clocks): the one the
  // cycles count, the others' ratios and interfaces. "" for one clock.
  virtual std::string clocks() const { return ""; }
  // The registered operators' names, in registration order.
  virtual std::vector<std::string> ops() const;
  // The extra top-level keys of one op (a Schema::map()), merged with the
  // common scenario schema before validation: the operator's schema().
  virtual scenario::Schema op_schema(const std::string& op) const;
  // Inputs and golden outputs: check_scenario(), then sc.op's prepare().
  // Semantic problems (a shape the hardware cannot hold) are reported with
  // Value::fail() on the offending key.
  virtual Workload prepare(const scenario::Scenario& sc) const;
  // sc.op's Operator::independent_inputs(): the inputs `cosim run --jobs`
  // may split over processes (0: none).
  std::size_t independent_inputs(const scenario::Scenario& sc) const;
  // The DUT's perf counters of a run simulated in slices (`cosim run
  // --jobs`), from each slice's in input order. Default: a wrapper's per-run
  // counters `run<K>_<name>` numbered on over the slices (a slice's run 0 is
  // the run after the previous slice's last), every other counter summed; a
  // target whose counters are not totals (a register holding the last run's
  // figure) says how they merge.
  struct PerfSlice {
    std::map<std::string, uint64_t> perf;  // the slice's SimOutcome::perf
    uint64_t cycle_offset = 0;             // the cycles of the slices before it
  };
  virtual std::map<std::string, uint64_t> merge_perf_counters(const std::vector<PerfSlice>& slices) const;
  // The trace the testbench plays: loads, register writes, wait_done with
  // sc.testbench.timeout_cycles, one check per expected tensor (the
  // workload's operator).
  virtual trace::Trace compile(const scenario::Scenario& sc, const Workload& w) const;
  virtual std::unique_ptr<DutWrapper> make_dut(const char* name, const TbConfig& cfg) const = 0;
  // MACs and utilisation: the workload's operator. `w` is null when
  // replaying a trace without its scenario: replay_metrics(), then the
  // replay_metrics() of the operator the trace's config names (`op`).
  virtual Metrics metrics(const Workload* w, const SimOutcome& run) const;
  // A directory in this target's own raw format (no trace.txt), turned into
  // a self-checking trace for `cosim replay`; nullopt when the directory is
  // not of this target's format. Default: the target has no raw format.
  virtual std::optional<trace::Trace> import_directory(const std::string& dir) const {
    (void)dir;
    return std::nullopt;
  }
  // `cosim disasm`: the program a trace of this target runs, as text on
  // `os`; false when the target has none to show. Default: none.
  virtual bool disassemble(const trace::Trace& tr, std::ostream& os) const {
    (void)tr, (void)os;
    return false;
  }
  // `cosim disasm` of a file or folder in this target's raw format; false
  // when `path` is not one. Default: the target has no raw format.
  virtual bool disassemble_raw(const std::string& path, std::ostream& os) const {
    (void)path, (void)os;
    return false;
  }
  // Who produced element `index` (full index into the check's tensor, at
  // byte `address` when in memory) of check `check`: the workload's
  // operator; `w` is null on replay: replay_work_unit().
  virtual std::optional<WorkUnit> work_unit(const Workload* w, const trace::Trace& tr, const std::string& check,
                                            const std::vector<int64_t>& index,
                                            std::optional<uint64_t> address) const;

 protected:
  // Registers the handler of one op (its name() is the `op:`); a second
  // handler of the same name is a logic_error.
  void add_operator(std::unique_ptr<Operator> op);
  // Each of `ops` in order (a target's list: cosim/operator_list.inc).
  void add_operators(std::vector<std::unique_ptr<Operator>> ops);
  // The handler of `op`; InputError naming the target's ops when none.
  const Operator& find_operator(const std::string& op) const;
  // Target-wide checks of a scenario's common keys before any operator runs
  // (e.g. the `requant` modes the hardware has). Default: none.
  virtual void check_scenario(const scenario::Scenario& sc) const { (void)sc; }
  // Replay without a workload: what the run's counters and the trace's
  // config say. Default: nothing.
  virtual Metrics replay_metrics(const SimOutcome& run) const {
    (void)run;
    return {};
  }
  // Replay without a workload: who produced an element, from the trace
  // alone. Default: unknown.
  virtual std::optional<WorkUnit> replay_work_unit(const trace::Trace& tr, const std::string& check,
                                                   const std::vector<int64_t>& index,
                                                   std::optional<uint64_t> address) const {
    (void)tr, (void)check, (void)index, (void)address;
    return std::nullopt;
  }

 private:
  const Operator* lookup(const std::string& op) const;  // null when none
  std::vector<std::unique_ptr<const Operator>> operators_;
};

// A target whose DUT is one wrapper over the Verilated builds it is given:
// its name, the manifest's description (`Top`: pins::Top of the generated
// dut/<dut>_pins.hpp) and make_dut(), the same for every accelerator. The
// target adds its operators and what else is its own.
template <class Wrapper, class Top, class Builds>
class DutBackend : public TargetBackend {
 public:
  std::string name() const override { return name_; }
  std::string description() const override { return Top::kDescription; }
  std::unique_ptr<DutWrapper> make_dut(const char* name, const TbConfig& cfg) const override {
    return std::make_unique<Wrapper>(name, cfg, builds_);
  }

 protected:
  // `ops`: the target's list (listed_operators(), cosim/operator_list.inc).
  DutBackend(std::string name, const Builds& builds, std::vector<std::unique_ptr<Operator>> ops)
      : name_(std::move(name)), builds_(builds) {
    add_operators(std::move(ops));
  }

 private:
  std::string name_;
  Builds builds_;
};

class BackendRegistry {
 public:
  void add(std::unique_ptr<TargetBackend> backend);
  // Where the backends added from now on come from (a plugin's path); empty:
  // built into this program.
  void set_origin(std::string origin) { origin_ = std::move(origin); }
  // "" for a built-in backend, else the plugin file it came from.
  std::string origin(const std::string& name) const;
  const TargetBackend* find(const std::string& name) const;
  // InputError naming the known targets when `name` is not registered.
  const TargetBackend& get(const std::string& name) const;
  std::vector<const TargetBackend*> all() const;
  std::vector<scenario::TargetSchema> schemas() const;

 private:
  std::vector<std::unique_ptr<TargetBackend>> backends_;
  std::map<std::string, std::string> origins_;
  std::string origin_;
};

// Adds every backend linked into the program (generated at configure time
// from the COSIM_BACKENDS global property, see tb/cosim/CMakeLists.txt).
void register_builtin_backends(BackendRegistry& registry);

}  // namespace cosim::tb
