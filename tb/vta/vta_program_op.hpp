// What the vta target's single-layer operators (conv2d, add) share: each
// lowers its scenario to one VTA program (cpp_model/vta/compiler), and the
// program is the operator's state. The trace loads the program's DRAM image,
// writes INSN_COUNT / INSN_ADDR / CTRL, waits for FINISH and checks the
// output; the metrics are the program's figures against the run's counters;
// the unit of work behind an element is the STORE instruction that wrote it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cosim/operator.hpp"
#include "quant/tflite_quant.hpp"
#include "vta/compiler/compiled_program.hpp"

namespace cosim::tb::vta {

// Scale and zero point of one quant_tensor() value.
struct QParams {
  float scale = 1.0f;
  int32_t zero_point = 0;
};
QParams qparams(const scenario::Value& v);

// int8 NHWC copy of an op's output (the ops return layout kAny).
Tensor as_nhwc(const Tensor& t);

// A counter of the run (0 when absent).
double perf_counter(const SimOutcome& run, const std::string& key);
// The run's VTA cycles, and when there are some (> 0) the cycles and the
// GEMM / ALU busy fractions into `m.extra`.
double busy_figures(const SimOutcome& run, Metrics& m);

class VtaProgramOp : public TypedOperator<cosim::vta::CompiledProgram> {
 public:
  using Program = cosim::vta::CompiledProgram;
  // `requant` (TFLite's requantization on the ALU in that rounding, or the
  // 16-bit scheme), the operator's lower(), then the `fault` key applied.
  Program prepare(const scenario::Scenario& sc, Workload& w) const final;
  trace::Trace compile(const scenario::Scenario& sc, const Workload& w, const Program& p) const final;
  // Busy fractions, GEMM and ALU uops, then figures().
  Metrics metrics(const Workload& w, const Program& p, const SimOutcome& run) const final;
  // The STORE instruction that writes the element, with its disassembly.
  std::optional<WorkUnit> work_unit(const Workload& w, const Program& p, const trace::Trace& tr,
                                    const std::string& check, const std::vector<int64_t>& index,
                                    std::optional<uint64_t> address) const final;

 protected:
  // The golden output ("output"), references, inputs and summary into `w`;
  // the compiled program. `tfl`: TFLite's rounding, or nullopt for vta16.
  virtual Program lower(const scenario::Scenario& sc, std::optional<quant::Rounding> tfl, Workload& w) const = 0;
  // The operator's own figures of a run of `cycles` VTA cycles.
  virtual void figures(const Program& p, double cycles, Metrics& m) const = 0;
};

}  // namespace cosim::tb::vta
