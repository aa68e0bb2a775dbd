// DUT wrapper of the VTA core (rtl/vta): the shared clock loop (VtaCore, from
// tb/vta/core) over the Verilated vta_top, its 128-bit AXI4 master served by
// TimedAxiSlave through the TLM memory bridge, its register port behind the
// TLM register target. After FINISH (or the error flag) it reads CYCLES and
// the performance counters through the register port; on a timeout the
// diagnosis names the stuck engines, the token queues they wait on and the
// queue occupancies (vta_pkg::status_t).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "tlm/axi_dut_wrapper.hpp"
#include "vta/core/vta_core.hpp"

namespace cosim::tb::vta {

// The Verilated variants the wrapper runs: checked (with assertions; the
// default) and fast (TbConfig::fast). The product's: vta_rtl_trace and
// vta_rtl_fast (vta_backend.hpp).
using VtaBuilds = harness::Builds<VtaCore::Build>;

class VtaWrapper : public AxiDutWrapper {
 public:
  // Over builds.pick(cfg.fast, a waveform asked for).
  VtaWrapper(sc_core::sc_module_name name, const TbConfig& cfg, const VtaBuilds& builds);
  ~VtaWrapper() override;

  bool run(uint64_t max_cycles) override;
  const timeline::Timeline* timeline() const override { return core_.timeline(); }
  std::string build() const override { return build_; }

 protected:
  // Which engine waits on which token queue (vta_pkg::status_t).
  std::string dut_diagnosis() const override;
  // The core's counters (gemm_busy, load_bytes, ...) and `vta_cycles` (the
  // CYCLES register: start to done).
  std::map<std::string, uint64_t> dut_counters() const override;
  // The core's error flag (ERR_INFO).
  std::vector<std::string> dut_errors() const override;
  uint32_t reg_read(uint32_t offset) override;
  void reg_write(uint32_t offset, uint32_t value) override;

 private:
  VtaCore core_;
  const char* build_;  // VtaBuilds::name
  std::optional<PerfCounters> perf_;
  uint64_t vta_cycles_ = 0;
  std::string error_;  // the error flag's ERR_INFO, decoded
};

}  // namespace cosim::tb::vta
