// The base of a DUT wrapper whose DUT has one AXI4 master: the cycle-level
// slave serving it through the TLM memory bridge (TimedAxiSlave), bound to
// the pins by the harness (axi_port()), and what every such wrapper reports
// alike: the slave's state in a diagnosis, beat counts and memory wait
// states among the counters, AXI protocol and access errors. A DUT adds its
// own through dut_diagnosis() / dut_counters() / dut_errors().
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "harness/axi_master_binder.hpp"
#include "tlm/dut_wrapper.hpp"
#include "tlm/timed_axi_slave.hpp"

namespace cosim::tb {

class AxiDutWrapper : public DutWrapper {
 public:
  // `data_bytes`: the width of the DUT's AXI data bus.
  AxiDutWrapper(sc_core::sc_module_name name, const TbConfig& cfg, uint32_t data_bytes);

  // dut_diagnosis(), then the AXI slave's state.
  std::string diagnosis() const final;
  // dut_counters() plus read_beats, write_beats, memory_wait_cycles.
  std::map<std::string, uint64_t> perf_counters() const final;
  // dut_errors(), then AXI protocol and memory access errors.
  std::vector<std::string> errors() const final;

 protected:
  virtual std::string dut_diagnosis() const = 0;
  virtual std::map<std::string, uint64_t> dut_counters() const { return {}; }
  virtual std::vector<std::string> dut_errors() const { return {}; }
  // What the harness binds the DUT's m_axi_* pins to.
  harness::AxiSlavePort& axi_port() { return port_; }

 private:
  TimedAxiSlave axi_;
  harness::AxiSlaveRef<TimedAxiSlave> port_;
};

}  // namespace cosim::tb
