// DUT wrapper of @NAME@ (rtl/@NAME@): the Verilated model on the harness
// core (tb/harness), the register port behind the TLM register target, and
// the AXI4 master served through the TLM memory bridge (AxiDutWrapper).
#pragma once

#include <memory>
#include <string>

#include "tlm/axi_dut_wrapper.hpp"

namespace cosim::tb::@NAME@ {

class Wrapper : public AxiDutWrapper {
 public:
  Wrapper(sc_core::sc_module_name name, const TbConfig& cfg);
  ~Wrapper() override;

  bool run(uint64_t max_cycles) override;

 protected:
  // The FSM state and the beats left (Status in @NAME@_status.hpp).
  std::string dut_diagnosis() const override;
  // busy_cycles: cycles out of the idle state.
  std::map<std::string, uint64_t> dut_counters() const override;
  uint32_t reg_read(uint32_t offset) override;
  void reg_write(uint32_t offset, uint32_t value) override;

 private:
  struct Impl;  // the model and the harness core (Verilator's headers stay out of SystemC code)
  std::unique_ptr<Impl> impl_;
};

}  // namespace cosim::tb::@NAME@
