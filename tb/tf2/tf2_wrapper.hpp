// DUT wrapper of the TF2 engine (rtl/tf2): the engine on the harness core
// (Tf2Core, shared with the bare harness in tb/tf2/core), the register port
// behind the TLM register target, and the 128-bit AXI4 master served by
// TimedAxiSlave through the TLM memory bridge to the DRAM target. Perf
// counters are counted per cycle from the DUT's debug vector; a timeout
// diagnosis names every unit's FSM state.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tf2/core/tf2_core.hpp"
#include "tlm/axi_dut_wrapper.hpp"

namespace cosim::tb::tf2 {

// The Verilated variants the wrapper runs: checked (the default) and fast
// (no assertions, TbConfig::fast). The product's: tf2_rtl and tf2_rtl_fast
// (tf2_backend.hpp).
using Tf2Builds = harness::Builds<Tf2Core::Build>;

class Tf2Wrapper : public AxiDutWrapper {
 public:
  // Over builds.pick(cfg.fast, a waveform asked for).
  Tf2Wrapper(sc_core::sc_module_name name, const TbConfig& cfg, const Tf2Builds& builds);
  ~Tf2Wrapper() override;

  // Clocks until CTRL.done (set at the end of a run, cleared by start).
  bool run(uint64_t max_cycles) override;
  const timeline::Timeline* timeline() const override { return core_.timeline(); }
  const HwConfig& hw_config() const { return hw_; }
  std::string build() const override { return build_; }

 protected:
  // Every unit's FSM state and the descriptors the host programmed.
  std::string dut_diagnosis() const override;
  // busy_cycles, pe_busy_cycles, filter_wait_cycles, output_wait_cycles,
  // runs, and the build's parameters (cfg_n_pe, cfg_ocol3d, cfg_ktap,
  // cfg_ocol2d) for the utilisation.
  std::map<std::string, uint64_t> dut_counters() const override;
  // Errors the engine flagged (ERR_INFO).
  std::vector<std::string> dut_errors() const override { return dut_errors_; }
  uint32_t reg_read(uint32_t offset) override;
  void reg_write(uint32_t offset, uint32_t value) override;

 private:
  Tf2Core core_;
  const char* build_;  // Tf2Builds::name
  HwConfig hw_;
  uint64_t runs_ = 0;
  uint32_t desc_addr_ = 0, desc_count_ = 0;  // as last written by the host
  std::map<uint32_t, std::size_t> desc_lists_;  // DESC_ADDR of each list started -> its first index
  std::size_t next_desc_ = 0;
  bool started_ = false;
  std::vector<std::string> dut_errors_;
};

}  // namespace cosim::tb::tf2
