// The AXI burst rules of rtl/common (cosim_axi_burst_split, and the write
// side built on it), written from the rules for the primitives' tests: each
// burst is as long as the beats left, the burst limit and the distance to
// the next 4 KB line allow.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace cosim::rtl_common_test {

struct BurstConfig {
  uint64_t beat_bytes, max_beats, max_request;
};

// (address, AxLEN) of each burst of a request.
inline std::vector<std::pair<uint64_t, unsigned>> expected_bursts(const BurstConfig& c, uint64_t addr,
                                                                  uint64_t beats) {
  std::vector<std::pair<uint64_t, unsigned>> out;
  while (beats > 0) {
    const uint64_t to_line = (4096 - (addr % 4096)) / c.beat_bytes;
    const uint64_t n = std::min({beats, c.max_beats, to_line});
    out.emplace_back(addr, static_cast<unsigned>(n - 1));
    addr += n * c.beat_bytes;
    beats -= n;
  }
  return out;
}

}  // namespace cosim::rtl_common_test
