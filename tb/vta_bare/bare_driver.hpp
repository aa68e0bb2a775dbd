// Runs a raw VTA program (instruction stream + flat DRAM image) on the
// Verilated core from a plain C++ clock loop: no SystemC. The DRAM is served
// by the cycle-level AXI4 slave model; the host register port is driven
// directly. Used by the RTL unit tests and as the reference for the cost of
// the TLM layer.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cosim::vta {

struct BareOptions {
  uint32_t read_latency = 0;       // AXI slave: extra cycles before the first R beat
  uint32_t bytes_per_cycle = 0;    // 0 = bus width (one beat per cycle)
  double stall_probability = 0.0;  // random ready / valid de-assertion per channel
  uint64_t seed = 1;
};

// The core's counters (vta_pkg register map 0x20..0x4c), 32-bit in hardware.
struct PerfCounters {
  uint64_t gemm_busy = 0;
  uint64_t alu_busy = 0;
  uint64_t load_bytes = 0;    // LOAD engine (INP, WGT)
  uint64_t store_bytes = 0;
  uint64_t load_busy = 0;
  uint64_t store_busy = 0;
  uint64_t stall_load_to_compute = 0;   // COMPUTE waiting on load->compute
  uint64_t stall_compute_to_load = 0;   // LOAD waiting on compute->load
  uint64_t stall_compute_to_store = 0;  // STORE waiting on compute->store
  uint64_t stall_store_to_compute = 0;  // COMPUTE waiting on store->compute
  uint64_t compute_load_bytes = 0;      // COMPUTE's LOAD UOP / ACC / ACC_8BIT
  uint64_t compute_load_busy = 0;
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

}  // namespace cosim::vta
