#include "tlm/dram_timing.hpp"

#include <cmath>

namespace cosim::tb {

DramTiming::DramTiming(const TbConfig& cfg, uint64_t stream)
    : latency_(cfg.dram_latency),
      bytes_per_cycle_(cfg.bytes_per_cycle == 0 ? 1 : cfg.bytes_per_cycle),
      stall_threshold_(static_cast<uint64_t>(std::ldexp(cfg.stall_probability, 53))),
      max_stall_(cfg.max_stall_cycles == 0 ? 1 : cfg.max_stall_cycles),
      rng_(cfg.seed * 0x9e3779b97f4a7c15ull ^ (stream + 1) * 0xd1b54a32d192ed03ull) {}

uint64_t DramTiming::next_random() {  // splitmix64
  uint64_t z = (rng_ += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

uint64_t DramTiming::access_cycles(uint64_t addr, std::size_t len, bool write) {
  uint64_t cycles = (len + bytes_per_cycle_ - 1) / bytes_per_cycle_;
  uint64_t& next = next_addr_[write ? 1 : 0];
  if (addr != next) cycles += latency_;
  next = addr + len;
  if (stall_threshold_ != 0 && (next_random() >> 11) < stall_threshold_) {
    cycles += 1 + next_random() % max_stall_;
    ++stalls_;
  }
  return cycles;
}

}  // namespace cosim::tb
