// Bare C++ harness for the TF2 RTL: one Verilated tf2_top in a plain clock
// loop, its AXI4 master served by the cycle-level cosim::tb::Axi4SlaveModel
// over a byte vector, its register port driven directly. No SystemC.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "axi/axi4_slave.hpp"
#include "tf2/compiler.hpp"

namespace cosim::tb {

// Register byte offsets (rtl/tf2/tf2_pkg.sv).
namespace tf2_reg {
constexpr uint32_t kCtrl = 0x00, kCycles = 0x04, kDescCount = 0x08, kDescAddr = 0x0c, kErrInfo = 0x10,
                   kConfig = 0x14, kPeBusy = 0x18, kFiltWait = 0x1c, kOutWait = 0x20, kFeatDepth = 0x24,
                   kFiltDepth = 0x28;
constexpr uint32_t kCtrlStart = 1, kCtrlDone = 2, kCtrlError = 4, kCtrlBusy = 8;
}  // namespace tf2_reg

struct Tf2BareConfig {
  Axi4SlaveConfig axi;            // data_bytes must stay 16
  uint64_t max_cycles = 20'000'000;
};

struct Tf2RunResult {
  uint64_t cycles = 0;       // harness cycles from start to not busy
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

  void reset();
  void step();  // one clock cycle
  void write_reg(uint32_t addr, uint32_t value);
  uint32_t read_reg(uint32_t addr);

  // Programs DESC_ADDR/DESC_COUNT, starts, waits until idle. Throws
  // cosim::TimeoutError after max_cycles.
  Tf2RunResult run(uint32_t desc_addr, uint32_t desc_count);
  Tf2RunResult run(const cosim::tf2::Program& program) { return run(program.desc_addr, program.desc_count); }

  // Capacities read from the CONFIG / depth registers, for the compiler.
  cosim::tf2::DeviceConfig device_config();

  const Axi4SlaveModel& axi() const;
  uint64_t cycle() const { return cycle_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  uint64_t cycle_ = 0;
  Tf2BareConfig cfg_;
};

}  // namespace cosim::tb
