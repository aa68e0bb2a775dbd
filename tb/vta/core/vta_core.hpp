// The VTA core on the harness core (tb/harness): the Verilated vta_top with
// its AXI4 master bound by name, the register map, the performance counters
// and the decoding of the debug status vector into a timeout / error
// diagnosis. Used by the bare C++ driver (BareDriver) and the SystemC TLM
// wrapper (tb/vta), so both clock the model the same way and report the
// same diagnosis.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "timeline/timeline.hpp"
#include "dut/vta_regs.hpp"
#include "harness/axi_master_binder.hpp"
#include "harness/core_handle.hpp"
#include "harness/variant.hpp"

namespace cosim::tb {
struct TbConfig;
}  // namespace cosim::tb

namespace cosim::tb::vta {

// The register map is the manifest's (rtl/vta/vta.yaml, generated into
// dut/vta_regs.hpp as cosim::vta::regs).
namespace regs = ::cosim::vta::regs;
constexpr int kNumPerf = regs::kNumPerf;
// The default build's AXI data width (vta_pkg::AxiDataWidth = 128 bits).
constexpr uint32_t kAxiDataBytes = 16;

// The core's counters (vta_pkg register map 0x20..0x4c), 32-bit in hardware.
struct PerfCounters {
  uint64_t gemm_busy = 0;
  uint64_t alu_busy = 0;
  uint64_t load_bytes = 0;    // LOAD engine (INP, WGT)
  uint64_t store_bytes = 0;
  uint64_t load_busy = 0;
  uint64_t store_busy = 0;
  uint64_t stall_load_to_compute = 0;   // COMPUTE waiting on load->compute
  uint64_t stall_compute_to_load = 0;   // LOAD waiting on compute->load
  uint64_t stall_compute_to_store = 0;  // STORE waiting on compute->store
  uint64_t stall_store_to_compute = 0;  // COMPUTE waiting on store->compute
  uint64_t compute_load_bytes = 0;      // COMPUTE's LOAD UOP / ACC / ACC_8BIT
  uint64_t compute_load_busy = 0;
};

// Counter values in register order (PerfGemmBusy .. PerfCloadBusy).
PerfCounters perf_from_registers(const uint32_t (&values)[kNumPerf]);
// Named counters for reports ("gemm_busy", "load_bytes", ...).
std::map<std::string, uint64_t> perf_map(const PerfCounters& p);

// vta_pkg::status_t, 128 bits, word 0 = bits 31:0.
struct StatusVector {
  uint32_t w[4] = {0, 0, 0, 0};
};
// Which engine holds which instruction, which token queue it waits on, queue
// occupancies and fetch progress: "COMPUTE holds GEMM waiting on token queue
// load->compute (pop_prev_dep, 0 tokens); ...".
std::string describe_status(const StatusVector& s);
// ERR_INFO (bits 3:0 code, 5:4 engine) as text: "error flag set by LOAD: ...".
std::string describe_error(uint32_t err_info);

// The Verilated vta_top on the harness core. Construction resets the core
// (reset cycles do not call `after_cycle`); every later cycle calls
// `after_cycle` (the TLM wrapper counts time there).
// run() clocks until FINISH (done) or the error flag.
class VtaCore : public harness::CoreHandle {
 public:
  // The model-specific half (vta_core_model.hpp): VtaCoreOver<Model>'s, one
  // instantiation per Verilated variant (library cosim_vta_core_<variant>).
  struct Impl;
  using Build = harness::ModelBuild<Impl, harness::AxiSlavePort&, const tb::TbConfig*>;

  // `build`: the Verilated variant, VtaCoreOver<V<variant>>::build() (e.g.
  // VtaCoreOver<Vvta_rtl>, linked from cosim_vta_core_vta_rtl).
  // `wave`: the waveform settings (TbConfig::wave_*) when an FST is asked
  // for; the cycles dumped are those after reset, numbered like the calls of
  // `after_cycle` (tb/wave). InputError when this build's model cannot trace.
  // With TbConfig::timeline the engines' activity is sampled (vta_timeline.hpp).
  VtaCore(const Build& build, harness::AxiSlavePort& slave, std::function<void()> after_cycle = {},
          const tb::TbConfig* wave = nullptr);
  ~VtaCore();

  // INSN_COUNT, INSN_ADDR, then CTRL = start | clear done.
  void start(uint32_t insn_addr, uint32_t insn_count);
  // CYCLES and the twelve counters through the register port.
  PerfCounters read_perf(uint64_t* cycles_reg = nullptr);

  bool done() const;
  bool error() const;
  StatusVector status() const;
  // Why run() stopped before its budget: the manifest's deadlock rule held
  // (no engine busy, no queue moving); "" when it did not.
  std::string deadlock_note() const;

 private:
  using CoreHandle::start_timeline;  // DUT time starts at construction
};

// The core over the Verilated model class Model (V<variant>): defined in
// vta_core_model.hpp, instantiated once per variant by the build
// (cosim_core_over_variants in tb/vta/core/CMakeLists.txt). Callers name the
// model class only: `class Vvta_rtl;` is enough.
template <class Model>
struct VtaCoreOver {
  static const VtaCore::Build& build();
};

}  // namespace cosim::tb::vta
