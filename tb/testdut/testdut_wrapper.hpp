// DUT wrapper of the test DMA (rtl/testdut): the Verilated model on the
// harness core (tb/harness), the register port behind the TLM register
// target, and the AXI4 master served by TimedAxiSlave through the TLM memory
// bridge.
#pragma once

#include <memory>
#include <string>

#include "tlm/dut_wrapper.hpp"

namespace cosim::tb::testdut {

class TestDutWrapper : public DutWrapper {
 public:
  TestDutWrapper(sc_core::sc_module_name name, const TbConfig& cfg);
  ~TestDutWrapper() override;

  bool run(uint64_t max_cycles) override;
  std::string diagnosis() const override;
  std::map<std::string, uint64_t> perf_counters() const override;
  std::vector<std::string> errors() const override;

 protected:
  uint32_t reg_read(uint32_t offset) override;
  void reg_write(uint32_t offset, uint32_t value) override;

 private:
  struct Impl;  // the model and the harness core (Verilator's headers stay out of SystemC code)
  std::unique_ptr<Impl> impl_;
};

}  // namespace cosim::tb::testdut
