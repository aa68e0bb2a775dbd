// The `model` op of the vta target: replays the CONV_2D and ADD layers of a
// real .tflite model on the VTA core, all in one simulation.
//
//   target: vta
//   op: model
//   model: ../shared/models/resnet8_int8.tflite   # relative: from the parent of the scenario's folder
//   ops: all                                      # or operator indices of subgraph 0, e.g. [0, 3]
//   input: random                                 # seeded (tflite::random_input); or {npy: file}
//   compile: {threads: 2}                         # compiler knobs, as for conv2d
//
// The TFLite golden chain (tflite::run_reference, double rounding, TFLite's
// default) gives each layer its real input; the layer's VTA program must
// reproduce ops::vta_conv2d / ops::vta_add bit for bit, and its distance to
// the TFLite output under double and single rounding is reported.
// DEPTHWISE_CONV_2D (and an ADD whose fused activation clamps) has no VTA
// lowering: listed as unsupported, not a failure. A missing model file skips
// the scenario (tb::ScenarioSkipped: exit 0, status "skipped").
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cosim/backend.hpp"
#include "vta/vta_wrapper.hpp"
#include "vta_compiler/compiled_program.hpp"

namespace cosim::vta {

// One selected operator of the model.
struct ModelLayer {
  std::size_t op_index = 0;
  std::string type;   // CONV_2D, DEPTHWISE_CONV_2D, ADD
  std::string check;  // trace check name, e.g. "op07_conv2d"
  std::string shapes;  // "1x32x32x16 -> 1x32x32x16, 3x3 s1"
  bool on_vta = false;
  std::string reason;  // why not on VTA
  CompiledProgram prog;
};

struct ModelState {
  std::string model_path;  // resolved
  std::vector<ModelLayer> layers;
};

// The op's keys; `compile` is the backend's compile-knob schema.
scenario::Schema model_op_schema(const scenario::Schema& compile);
// Loads the model, runs the golden chain, compiles every supported layer.
// Throws tb::ScenarioSkipped when the model file does not exist.
tb::Workload prepare_model(const scenario::Scenario& sc, const CompileOptions& opt);
bool is_model_workload(const tb::Workload& w);
// Per layer: load its image at 0, start, wait, check its output.
trace::Trace compile_model(const scenario::Scenario& sc, const tb::Workload& w);
// Per-layer figures (report.json "layers" + metrics, console table).
tb::Metrics model_metrics(const tb::Workload& w, const tb::SimOutcome& run);

// The STORE of layer `check`'s program that writes output element `index`
// (first-divergence report); nullopt when unknown.
std::optional<tb::WorkUnit> model_work_unit(const tb::Workload& w, const std::string& check,
                                            const std::vector<int64_t>& index);

// VtaWrapper that keeps the counters of every run (CYCLES and the counters are
// reset by each start): perf_counters() adds run<k>_vta_cycles,
// run<k>_gemm_busy and run<k>_alu_busy when the trace started the core more
// than once.
class VtaRunLogWrapper : public VtaWrapper {
 public:
  using VtaWrapper::VtaWrapper;
  bool run(uint64_t max_cycles) override;
  std::map<std::string, uint64_t> perf_counters() const override;

 private:
  std::vector<std::map<std::string, uint64_t>> runs_;
};

}  // namespace cosim::vta
