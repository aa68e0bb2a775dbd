// DUT wrapper of the TF2 engine (rtl/tf2, Vtf2_top): its own clock loop over
// the Verilated model, the register port behind the TLM register target, and
// the 128-bit AXI4 master served by TimedAxiSlave through the TLM memory
// bridge to the DRAM target. Perf counters are counted per cycle from the
// DUT's event pins; a timeout diagnosis names every unit's FSM state.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tlm/dut_wrapper.hpp"
#include "tlm/timed_axi_slave.hpp"

class Vtf2_top;
class VerilatedContext;
namespace cosim::wave {
template <class Model>
class WaveTracer;
}  // namespace cosim::wave

namespace cosim::tf2 {

// Names of the RTL FSM states (tf2_controller, tf2_filter_loader, tf2_writer).
const char* controller_state_name(unsigned state);
const char* filter_loader_state_name(unsigned state);
const char* writer_state_name(unsigned state);
const char* error_code_name(unsigned code);

// The build's parameters, read from the CONFIG / depth registers at reset.
struct HwConfig {
  uint32_t n_pe = 0, ocol3d = 0, ktap = 0, ocol2d = 0, feat_depth = 0, filt_depth = 0;
};

class Tf2Wrapper : public tb::DutWrapper {
 public:
  Tf2Wrapper(sc_core::sc_module_name name, const tb::TbConfig& cfg);
  ~Tf2Wrapper() override;

  // Clocks until CTRL.done (set at the end of a run, cleared by start).
  bool run(uint64_t max_cycles) override;
  std::string diagnosis() const override;
  // busy_cycles, pe_busy_cycles, filter_wait_cycles, output_wait_cycles,
  // runs, read/write beats, memory_wait_cycles, and the build's parameters
  // (cfg_n_pe, cfg_ocol3d, cfg_ktap, cfg_ocol2d) for the utilisation.
  std::map<std::string, uint64_t> perf_counters() const override;
  // AXI protocol / access errors and errors the engine flagged (ERR_INFO).
  std::vector<std::string> errors() const override;

  const HwConfig& hw_config() const { return hw_; }

 protected:
  uint32_t reg_read(uint32_t offset) override;
  void reg_write(uint32_t offset, uint32_t value) override;

 private:
  void cycle();                               // one counted clock cycle
  uint32_t reset_read(uint32_t offset);       // register read during reset (not counted)

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vtf2_top> m_;
  std::unique_ptr<wave::WaveTracer<Vtf2_top>> wave_;  // FST window + view (tb/wave)
  std::unique_ptr<tb::TimedAxiSlave> axi_;
  HwConfig hw_;
  uint64_t busy_cycles_ = 0, pe_busy_ = 0, filt_wait_ = 0, out_wait_ = 0, runs_ = 0;
  uint32_t desc_addr_ = 0, desc_count_ = 0;  // as last written by the host
  bool started_ = false;
  std::vector<std::string> dut_errors_;
};

}  // namespace cosim::tf2
