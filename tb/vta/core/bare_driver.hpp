// Runs a raw VTA program (instruction stream + flat DRAM image) on the
// Verilated core from a plain C++ clock loop: no SystemC. The DRAM is served
// by the cycle-level AXI4 slave model; the host register port is driven
// directly. Used by the RTL unit tests and as the reference for the cost of
// the TLM layer. The clock loop itself is VtaCore (vta_core.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "vta/core/vta_core.hpp"

class Vvta_rtl;

namespace cosim::tb::vta {

struct BareOptions {
  uint32_t read_latency = 0;       // AXI slave: extra cycles before the first R beat
  uint32_t bytes_per_cycle = 0;    // 0 = bus width (one beat per cycle)
  double stall_probability = 0.0;  // random ready / valid de-assertion per channel
  uint64_t seed = 1;
  // When set, the memory is timed like the TLM testbench's DRAM target
  // instead of by the fields above: each beat access costs
  // access_cycles(addr, len, write) cycles (e.g. a tb::DramTiming), turned
  // into AXI wait states by the same rule as tb::TimedAxiSlave, so the core
  // takes the same cycles as under `cosim` with those memory settings.
  std::function<uint64_t(uint64_t addr, std::size_t len, bool write)> access_cycles;
  // The Verilated variant: by default vta_rtl (link cosim_vta_core_vta_rtl).
  const VtaCore::Build* build = &VtaCoreOver<Vvta_rtl>::build();
};

struct RtlRunResult {
  enum class Status { kDone, kError, kTimeout } status = Status::kTimeout;
  uint64_t cycles = 0;     // CYCLES register: start to done / error / timeout
  std::string diagnosis;   // empty when done
  PerfCounters perf;
};

const char* to_string(RtlRunResult::Status s);

class BareDriver {
 public:
  // dram must outlive the driver; the core reads and writes it in place.
  explicit BareDriver(std::vector<uint8_t>& dram, BareOptions opts = {});
  ~BareDriver();
  BareDriver(const BareDriver&) = delete;
  BareDriver& operator=(const BareDriver&) = delete;

  // Starts the core on insn_count instructions at insn_byte_addr (16-byte
  // aligned, below 4 GiB) and clocks it until FINISH (kDone), the error flag
  // (kError) or max_cycles after start (kTimeout, diagnosis names the stuck
  // engines and queue state). May be called again for another program.
  RtlRunResult run(uint64_t insn_byte_addr, uint32_t insn_count, uint64_t max_cycles);

  // All clock cycles simulated so far (reset, register accesses, runs).
  uint64_t total_eval_cycles() const;

  // AXI protocol violations seen by the DRAM model (should stay empty), and
  // DRAM accesses outside the image.
  std::vector<std::string> axi_protocol_errors() const;
  std::vector<std::string> axi_access_errors() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cosim::tb::vta
