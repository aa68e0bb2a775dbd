// The base of a DUT wrapper whose DUT has AXI4 masters (any number, all on
// the one DRAM): per master a cycle-level slave serving it through its own
// TLM memory bridge (TimedAxiSlave over DutWrapper::memory(i)), bound to the
// pins by the harness (axi_port(i)), and what every such wrapper reports
// alike: the slaves' state in a diagnosis, beat counts and memory wait
// states among the counters, AXI protocol and access errors. A DUT adds its
// own through dut_diagnosis() / dut_counters() / dut_errors().
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "harness/axi_master_binder.hpp"
#include "harness/axi_masters.hpp"
#include "tlm/dut_wrapper.hpp"
#include "tlm/timed_axi_slave.hpp"

namespace cosim::tb {

class AxiDutWrapper : public DutWrapper {
 public:
  // One master, `data_bytes` wide, timing stream 0.
  AxiDutWrapper(sc_core::sc_module_name name, const TbConfig& cfg, uint32_t data_bytes);
  AxiDutWrapper(sc_core::sc_module_name name, const TbConfig& cfg,
                const std::vector<harness::AxiMasterSpec>& masters);

  // dut_diagnosis(), then each AXI slave's state.
  std::string diagnosis() const final;
  // dut_counters() plus read_beats, write_beats, memory_wait_cycles (summed
  // over the masters; with several, also <master>.read_beats, ...).
  std::map<std::string, uint64_t> perf_counters() const final;
  // dut_errors(), then AXI protocol and memory access errors.
  std::vector<std::string> errors() const final;

 protected:
  virtual std::string dut_diagnosis() const = 0;
  virtual std::map<std::string, uint64_t> dut_counters() const { return {}; }
  virtual std::vector<std::string> dut_errors() const { return {}; }
  // What the harness binds the DUT's AXI4 master interface `i` to.
  harness::AxiSlavePort& axi_port(std::size_t i = 0) { return masters_.at(i)->port; }
  // All of them, in the order of the masters given (harness::AxiMasterBinders).
  std::vector<harness::AxiSlavePort*> axi_ports() {
    std::vector<harness::AxiSlavePort*> p;
    for (const auto& m : masters_) p.push_back(&m->port);
    return p;
  }
  // The DRAM bridges of `n` native memory ports (harness::SramBinders),
  // after the masters': untimed, their accesses are the DUT's own cycles.
  std::vector<MemoryPort*> sram_ports(std::size_t n) {
    std::vector<MemoryPort*> p;
    for (std::size_t i = masters_.size(); i < masters_.size() + n; ++i) p.push_back(&memory(i, i));
    return p;
  }

 private:
  struct Master {
    Master(std::string n, TlmMemoryPort& mem, uint32_t data_bytes) : name(std::move(n)), axi(mem, data_bytes), port(axi) {}
    std::string name;
    TimedAxiSlave axi;
    harness::AxiSlaveRef<TimedAxiSlave> port;
  };
  std::vector<std::unique_ptr<Master>> masters_;
};

}  // namespace cosim::tb
