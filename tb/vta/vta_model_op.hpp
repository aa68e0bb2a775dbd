// The `model` op of the vta target (front end: tb/model_replay): the CONV_2D
// and ADD layers of an int8 .tflite model on the VTA core, all in one
// simulation.
//
//   target: vta
//   op: model
//   model: ../../shared/models/resnet8_int8.tflite   # relative: from the scenario file's folder
//   ops: all                                      # every CONV_2D and ADD; or operator indices, e.g. [0, 3]
//   input: random                                 # the golden chain's input: seeded, or {npy: file}
//   compile: {threads: 2}                         # compiler knobs, as for conv2d
//   requant: vta16                                # or tflite_double / tflite_single
//
// Supported: CONV_2D (fused NONE / RELU / RELU6, dilation 1) and ADD whose
// fused activation does not clamp (the VTA ADD program has no clamp). Each
// layer gets its real input from the TFLite golden chain (double rounding);
// its VTA program must reproduce ops::vta_conv2d / ops::vta_add bit for bit,
// and its distance to the TFLite output under double and single rounding is
// reported with the layer's cycles and GEMM utilization.
//
// `requant: tflite_double` / `tflite_single`: every layer is compiled with
// TFLite's own requantization in that rounding instead (per-channel
// multipliers and shifts as TFLite derives them from the model's scales,
// vta_compiler/tflite_requant_program.hpp) and must reproduce ops::conv2d /
// ops::add in that rounding bit for bit. In mode delegate the CPU operators
// run in the same rounding, so the network output must equal TFLite run
// entirely on the CPU bit for bit (the report's "network output:" line).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "cosim/backend.hpp"
#include "model_replay/model_replay.hpp"
#include "quant/tflite_quant.hpp"
#include "vta/vta_wrapper.hpp"
#include "vta/compiler/compiled_program.hpp"

namespace cosim::tb::vta {

// The backend's compile knobs, from the scenario's `compile` map.
cosim::vta::CompileOptions compile_options(const scenario::Scenario& sc);

// `requant`: TFLite's requantization in this rounding (tflite_double /
// tflite_single), or nullopt for the VTA 16-bit scheme (vta16, the default).
std::optional<quant::Rounding> tflite_rounding(const scenario::Scenario& sc);

// VtaWrapper that keeps the counters of every run (CYCLES and the counters are
// reset by each start): its counters add run<k>_vta_cycles,
// run<k>_gemm_busy and run<k>_alu_busy when the trace started the core more
// than once.
class VtaRunLogWrapper : public VtaWrapper {
 public:
  using VtaWrapper::VtaWrapper;
  bool run(uint64_t max_cycles) override;

 protected:
  std::map<std::string, uint64_t> dut_counters() const override;

 private:
  std::vector<std::map<std::string, uint64_t>> runs_;
};

// The counters of a model run simulated in slices (`cosim run --jobs`,
// TargetBackend::merge_perf_counters) as one simulation gives them: the AXI
// traffic summed, the runs' own counters (VtaRunLogWrapper) numbered on and
// their end cycles on the whole run's timeline, the VTA's registers (the
// last run's figures) from the last slice.
std::map<std::string, uint64_t> merge_run_log_counters(const std::vector<TargetBackend::PerfSlice>& slices);

}  // namespace cosim::tb::vta
