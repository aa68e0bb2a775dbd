// Testbench settings shared by the DRAM target, the memory bridge and the DUT
// wrappers: memory timing, the seed of the random stalls, temporal
// decoupling and waveform options. Built from a scenario's `testbench:`
// section or a trace's `config` lines.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <string>

namespace cosim::tb {

// The largest DRAM a trace's `config dram_size` may ask for (4 GiB, a 32-bit
// address space): checked before the DRAM model is allocated.
constexpr uint64_t kMaxDramSize = uint64_t{1} << 32;

struct TbConfig {
  double clock_ns = 10.0;            // DUT clock period (100 MHz)
  uint32_t dram_latency = 20;        // cycles before the first beat of a non-sequential access
  uint32_t bytes_per_cycle = 8;      // DRAM bandwidth
  double stall_probability = 0.0;    // per access; a stall lasts 1..max_stall_cycles
  uint32_t max_stall_cycles = 16;
  uint64_t seed = 1;                 // random stalls (same seed = same timing)
  uint64_t dram_size = 64ull << 20;  // bytes, from address 0
  uint64_t quantum_cycles = 10000;   // temporal decoupling quantum
  bool dmi = true;                   // DUT memory traffic may bypass b_transport
  uint64_t timeout_cycles = 10000000;
  std::string wave_file;             // FST path; empty = no waveform
  uint64_t wave_from = 0;
  uint64_t wave_to = std::numeric_limits<uint64_t>::max();
  int wave_depth = 0;                    // hierarchy levels below the DUT's top; 0 = all (tb/wave)
  uint64_t wave_max_bytes = 256ull << 20;  // size guard: dumping stops beyond this (tb/wave)
  bool timeline = true;              // sample the DUT's activity lanes (tb/timeline); a run option, not traced
  bool timeline_changes = false;     // keep the timeline's every change (a slice of a split run); not traced
  bool fast = false;                 // run the DUT's fast build (no assertions) when linked; a run option, not traced

  // The `config` lines of a trace <-> these fields (unknown keys ignored by
  // from_map so metadata such as "scenario" can ride along).
  std::map<std::string, std::string> to_map() const;
  static TbConfig from_map(const std::map<std::string, std::string>& m);
};

}  // namespace cosim::tb
