// The cycle-level AXI4 slave (tb/axi Axi4SlaveModel) in front of the TLM
// memory bridge, with the memory's timing owned by the DRAM target: the delay
// the bridge accumulates for each access (latency, bandwidth, seeded stalls,
// from b_transport annotations or the DMI timing model) becomes wait states.
// While wait states run the slave is frozen and shows no valid / ready to
// the DUT. Each access's first cycle is the slave's own beat cycle, so an
// access costing c cycles adds c - 1 wait states.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "axi/axi4_slave.hpp"
#include "tlm/tlm_memory_port.hpp"

namespace cosim::tb {

class TimedAxiSlave {
 public:
  TimedAxiSlave(TlmMemoryPort& port, uint32_t data_bytes, uint32_t max_outstanding = 8);

  // Same protocol as Axi4SlaveModel: drive() before the DUT's inputs are
  // applied, tick() with the DUT's outputs before the rising edge.
  void drive(Axi4Pins& pins);
  void tick(const Axi4Pins& pins);

  uint64_t wait_cycles() const { return wait_cycles_; }
  bool idle() const { return model_.idle() && freeze_ == 0; }
  Axi4SlaveModel& model() { return model_; }
  const Axi4SlaveModel& model() const { return model_; }
  // One line: outstanding work and wait states, for timeout diagnoses.
  std::string state() const;

 private:
  void absorb();  // turns new bridge delay into wait states

  TlmMemoryPort& port_;
  Axi4SlaveModel model_;
  uint64_t freeze_ = 0;
  bool frozen_ = false;
  uint64_t accesses_seen_ = 0;
  uint64_t wait_cycles_ = 0;
};

}  // namespace cosim::tb
