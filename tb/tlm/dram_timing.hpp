// The DRAM timing model, per initiator: a new (non-sequential) access pays
// `dram_latency` cycles, every access pays ceil(len / bytes_per_cycle)
// cycles of transfer, and with probability `stall_probability` a random stall
// of 1..max_stall_cycles cycles (drawn from a generator seeded by the
// testbench seed and the initiator index, so timing is reproducible).
// Both the DRAM target (b_transport) and the memory bridge (DMI path) use it,
// so a run takes the same cycles with or without DMI.
#pragma once

#include <cstddef>
#include <cstdint>

#include "tlm/tb_config.hpp"

namespace cosim::tb {

class DramTiming {
 public:
  DramTiming(const TbConfig& cfg, uint64_t stream);
  uint64_t access_cycles(uint64_t addr, std::size_t len, bool write);
  uint64_t stalls() const { return stalls_; }

 private:
  uint64_t next_random();

  uint32_t latency_;
  uint32_t bytes_per_cycle_;
  uint64_t stall_threshold_;  // stall when a 53-bit draw is below it
  uint32_t max_stall_;
  uint64_t rng_;
  uint64_t next_addr_[2] = {~0ull, ~0ull};  // read, write
  uint64_t stalls_ = 0;
};

}  // namespace cosim::tb
