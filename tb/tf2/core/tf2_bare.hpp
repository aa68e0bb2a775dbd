// Bare C++ harness for the TF2 RTL: the engine on the harness core
// (Tf2Core), its AXI4 master served by the cycle-level
// cosim::tb::Axi4SlaveModel over a byte vector. No SystemC.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "axi/axi4_slave.hpp"
#include "tf2/compiler.hpp"
#include "tf2/core/tf2_core.hpp"

class Vtf2_rtl;

namespace cosim::tb::tf2 {

struct Tf2BareConfig {
  Axi4SlaveConfig axi;            // data_bytes must stay 16
  uint64_t max_cycles = 20'000'000;
  // The Verilated variant: by default tf2_rtl (link cosim_tf2_core_tf2_rtl).
  const Tf2Core::Build* build = &Tf2CoreOver<Vtf2_rtl>::build();
};

struct Tf2RunResult {
  uint64_t cycles = 0;       // harness cycles from start to done
  uint32_t dut_cycles = 0;   // CYCLES register
  bool done = false;
  bool error = false;
  uint32_t err_info = 0;     // ERR_INFO register
  uint32_t pe_busy = 0, filt_wait = 0, out_wait = 0;
};

class Tf2Bare {
 public:
  // `dram` is the DUT's memory, byte i at address i; it must outlive this.
  Tf2Bare(std::vector<uint8_t>& dram, Tf2BareConfig cfg = {});
  ~Tf2Bare();
  Tf2Bare(const Tf2Bare&) = delete;
  Tf2Bare& operator=(const Tf2Bare&) = delete;

  void write_reg(uint32_t addr, uint32_t value);
  uint32_t read_reg(uint32_t addr);

  // Programs DESC_ADDR/DESC_COUNT, starts, waits until done. Throws
  // cosim::TimeoutError after max_cycles, with the units' states.
  Tf2RunResult run(uint32_t desc_addr, uint32_t desc_count);
  Tf2RunResult run(const cosim::tf2::Program& program) { return run(program.desc_addr, program.desc_count); }

  // Capacities read from the CONFIG / depth registers, for the compiler.
  cosim::tf2::DeviceConfig device_config();

  const Axi4SlaveModel& axi() const { return slave_; }
  uint64_t cycle() const { return core_->time(); }

 private:
  Tf2BareConfig cfg_;
  VectorMemory mem_;
  Axi4SlaveModel slave_;
  harness::AxiSlaveRef<Axi4SlaveModel> port_;
  std::unique_ptr<Tf2Core> core_;
};

}  // namespace cosim::tb::tf2
