// The `vta` target: ops `conv2d` (vta_conv2d_op.cpp), `add` (vta_add_op.cpp)
// and `model` (model_replay over vta_model_op.hpp) on the Verilated VTA core.
//
// A scenario is turned into int8 tensors, golden outputs under the VTA 16-bit
// scheme (ops::vta_conv2d / ops::vta_add, the bit-exact check), the same
// layer under TFLite double and single rounding (distances in the report),
// and a VTA program (cpp_model/vta/compiler). With `requant: tflite_double` or
// `tflite_single` (conv2d, add) the program computes TFLite's requantization
// exactly (vta_compiler/tflite_requant_program.hpp) and the golden is
// ops::conv2d / ops::add in that rounding; the 16-bit scheme is then a
// reference distance. `op: model` takes the same modes (vta_model_op.hpp).
// The trace of a layer (vta_program_op.hpp) loads the program's DRAM image,
// writes INSN_COUNT / INSN_ADDR / CTRL, waits for FINISH and checks the
// output. This file holds what is the target's, not an operator's: the
// `requant` modes, the DUT, raw VTA programs (`cosim replay` / `disasm` of
// insn.bin + dram.bin) and the replay figures.
#include <memory>

#include "common/error.hpp"
#include "cosim/backend.hpp"
#include "cosim/operator.hpp"
#include "dut/vta_pins.hpp"
#include "model_replay/model_replay.hpp"
#include "vta/disasm.hpp"
#include "vta/functional_model.hpp"
#include "vta/raw_program_replay.hpp"
#include "vta/vta_disasm.hpp"
#include "vta/vta_model_op.hpp"
#include "vta/vta_program_op.hpp"
#include "vta/vta_backend.hpp"
#include "vta/vta_schema.hpp"
#include "vta/vta_wrapper.hpp"

class Vvta_rtl;
class Vvta_rtl_trace;
class Vvta_rtl_fast;

namespace cosim::tb::vta {

using namespace cosim::vta;  // the ISA and golden model by their own names

// The operators of vta_ops.def (their factories: vta_<op>_op.cpp each).
#define COSIM_OPS_DEF "vta/vta_ops.def"
#include "cosim/operator_list.inc"

namespace {


// A raw program replayed without its compiler: the cycle budget of its run,
// and the STORE behind a byte of the DRAM image, found by decoding the
// instructions the trace loads (host registers 0x0c address, 0x08 count).
constexpr uint64_t kRawProgramCycleBudget = 100'000'000;

// On replay: the STOREs of every stream the trace starts the core on that
// write `address`; the run whose recorded checks name `check` (a model's
// fused layers) decides, else the last writer.
std::optional<tb::WorkUnit> raw_program_work_unit(const trace::Trace& tr, const std::string& check, uint64_t address) {
  std::optional<tb::WorkUnit> found;
  bool found_in_its_run = false;
  for (const StartedProgram& p : started_programs(tr)) {
    if (p.missing) continue;
    std::vector<Insn> insns;
    try {
      for (const InsnWord& wd : words_from_bytes(p.insn_bytes)) insns.push_back(decode(wd));
    } catch (const InputError&) {
      continue;  // an undefined opcode: the model said so already
    }
    const std::vector<std::size_t> stores = stores_writing(insns, address);
    if (stores.empty()) continue;
    const bool its_run = !p.checks.empty() && (" " + p.checks + " ").find(" " + check + " ") != std::string::npos;
    if (found_in_its_run && !its_run) continue;
    const std::size_t i = stores.back();  // the last writer decides the final byte
    tb::WorkUnit u;
    u.fields = {{"instruction", static_cast<int64_t>(i)}, {"run", p.run}};
    u.text = (p.checks.empty() ? "" : "run " + std::to_string(p.run) + " (" + p.checks + ") ") + "instruction " +
             std::to_string(i) + ": " + cosim::vta::disassemble(insns[i]);
    found = u;
    found_in_its_run = its_run;
  }
  if (!found) {
    tb::WorkUnit u;
    u.text = "no STORE instruction of the trace's programs writes this address";
    return u;
  }
  return found;
}

// The DUT: VtaWrapper with per-run counters (VtaRunLogWrapper).
class VtaBackend : public DutBackend<VtaRunLogWrapper, cosim::vta::pins::Top, VtaBuilds> {
 public:
  explicit VtaBackend(const VtaBuilds& builds) : DutBackend("vta", builds, listed_operators()) {}

  std::map<std::string, uint64_t> merge_perf_counters(const std::vector<PerfSlice>& slices) const override {
    return merge_run_log_counters(slices);
  }

  bool disassemble(const trace::Trace& tr, std::ostream& os) const override {
    disassemble_trace(tr, os);
    return true;
  }

  bool disassemble_raw(const std::string& path, std::ostream& os) const override {
    return vta::disassemble_raw(path, os);
  }

  std::optional<trace::Trace> import_directory(const std::string& dir) const override {
    if (!is_raw_program_dir(dir)) return std::nullopt;
    return raw_program_trace(dir, kRawProgramCycleBudget);
  }

 protected:
  // Every op: the 16-bit scheme or TFLite's requantization (per layer for model).
  void check_scenario(const scenario::Scenario& sc) const override {
    if (sc.requant.value_or(scenario::Requant::kVta16) == scenario::Requant::kSaturate) {
      sc["requant"].fail("expected vta16, tflite_double or tflite_single");
    }
  }

  // A raw program (or a trace replayed without its scenario): the STORE that
  // wrote the byte, from the programs the trace starts.
  std::optional<WorkUnit> replay_work_unit(const trace::Trace& tr, const std::string& check,
                                           const std::vector<int64_t>& index,
                                           std::optional<uint64_t> address) const override {
    (void)index;
    if (!address) return std::nullopt;
    return raw_program_work_unit(tr, check, *address);
  }

  // Replay: the program's figures as the run recorded them in the trace
  // (the conv2d op adds its utilization, vta_conv2d_op.cpp).
  Metrics replay_metrics(const SimOutcome& run) const override {
    Metrics m;
    if (busy_figures(run, m) <= 0) return m;  // vta_program_op.hpp
    const auto rec = [&run](const char* k) -> std::optional<double> {
      const auto it = run.trace_config.find(k);
      if (it == run.trace_config.end()) return std::nullopt;
      try {
        return std::stod(it->second);
      } catch (const std::exception&) {
        return std::nullopt;
      }
    };
    if (const auto macs = rec("vta_macs")) m.macs = static_cast<uint64_t>(*macs);
    if (const auto runs = rec("vta_runs")) {
      // A model: CONV_2D GEMM uops over the cycles of every run, as totals() counts them.
      double run_cycles = 0;
      for (int r = 0; r < static_cast<int>(*runs); ++r) {
        run_cycles += perf_counter(run, "run" + std::to_string(r) + "_vta_cycles");
      }
      const auto uops = rec("vta_conv_gemm_uops");
      if (uops && run_cycles > 0) {
        m.extra["gemm_uops"] = *uops;
        m.extra["vta_cycles"] = run_cycles;
        m.utilization = *uops / run_cycles;
        m.extra["useful_mac_fraction"] = static_cast<double>(m.macs) / (256.0 * run_cycles);
      }
    } else if (const auto uops = rec("vta_gemm_uops")) {
      m.extra["gemm_uops"] = *uops;
    }
    return m;
  }
};

}  // namespace
}  // namespace cosim::tb::vta

namespace cosim::backends {
// The product's variants: vta_rtl (assertions), vta_rtl_fast (no
// assertions) and vta_rtl_trace (assertions, FST-capable: --wave);
// libraries cosim_vta_core_<variant>.
std::unique_ptr<tb::TargetBackend> make_vta() {
  return make_vta(tb::harness::builds_over<tb::vta::VtaCoreOver, Vvta_rtl, Vvta_rtl_fast, Vvta_rtl_trace>());
}
std::unique_ptr<tb::TargetBackend> make_vta(const tb::vta::VtaBuilds& builds) {
  return std::make_unique<tb::vta::VtaBackend>(builds);
}
}  // namespace cosim::backends
