#include "scoreboard/write_log.hpp"

#include <algorithm>

namespace cosim::tb {

void WriteLog::record(uint64_t addr, std::size_t len, uint64_t cycle, const uint8_t* strobe) {
  for (std::size_t i = 0; i < len; ++i) {
    if (strobe != nullptr && strobe[i] == 0) continue;
    const uint64_t a = addr + i;
    auto& page = pages_[a >> kPageBits];
    if (page.empty()) page.assign(std::size_t{1} << kPageBits, kNever);
    page[a & ((1u << kPageBits) - 1)] = cycle;
  }
}

std::optional<uint64_t> WriteLog::last_write(uint64_t addr) const {
  const auto it = pages_.find(addr >> kPageBits);
  if (it == pages_.end()) return std::nullopt;
  const uint64_t c = it->second[addr & ((1u << kPageBits) - 1)];
  if (c == kNever) return std::nullopt;
  return c;
}

std::optional<uint64_t> WriteLog::last_write(uint64_t addr, std::size_t len) const {
  std::optional<uint64_t> latest;
  for (std::size_t i = 0; i < len; ++i) {
    const auto c = last_write(addr + i);
    if (c && (!latest || *c > *latest)) latest = c;
  }
  return latest;
}

std::vector<std::pair<uint64_t, uint64_t>> WriteLog::entries() const {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (const auto& [page, cycles] : pages_) {
    for (std::size_t i = 0; i < cycles.size(); ++i) {
      if (cycles[i] != kNever) out.emplace_back((page << kPageBits) + i, cycles[i]);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace cosim::tb
