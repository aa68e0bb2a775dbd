// The one place that turns a run's seed into the seed of each stalling
// testbench stream, so a seed means the same stalls in a bare harness and
// through the TLM testbench.
#pragma once

#include <cstdint>

namespace cosim::tb::harness {

enum class StallStream : uint64_t {
  kStreamIn = 1,       // what feeds a DUT's s_axis (MM2S DMA / source)
  kStreamOut = 2,      // what drains a DUT's m_axis into memory (S2MM DMA)
  kStreamCapture = 3,  // what drains m_axis when no memory buffer takes it
};

inline uint64_t stall_seed(uint64_t seed, StallStream s) { return seed * 4 + static_cast<uint64_t>(s); }

}  // namespace cosim::tb::harness
