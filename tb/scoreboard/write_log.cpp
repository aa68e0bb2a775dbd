#include "scoreboard/write_log.hpp"

#include <algorithm>

namespace cosim::tb {

// Both walks go a page at a time: one hash lookup per 4 KiB page touched,
// not one per byte (a write burst or a check's span is a few pages).
void WriteLog::record(uint64_t addr, std::size_t len, uint64_t cycle, const uint8_t* strobe) {
  constexpr uint64_t kPage = uint64_t{1} << kPageBits;
  std::size_t i = 0;
  while (i < len) {
    const uint64_t a = addr + i;
    const std::size_t off = static_cast<std::size_t>(a & (kPage - 1));
    const std::size_t n = std::min<std::size_t>(len - i, kPage - off);
    auto& page = pages_[a >> kPageBits];
    if (page.empty()) page.assign(kPage, kNever);
    for (std::size_t k = 0; k < n; ++k) {
      if (strobe == nullptr || strobe[i + k] != 0) page[off + k] = cycle;
    }
    i += n;
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
  constexpr uint64_t kPage = uint64_t{1} << kPageBits;
  std::optional<uint64_t> latest;
  std::size_t i = 0;
  while (i < len) {
    const uint64_t a = addr + i;
    const std::size_t off = static_cast<std::size_t>(a & (kPage - 1));
    const std::size_t n = std::min<std::size_t>(len - i, kPage - off);
    const auto it = pages_.find(a >> kPageBits);
    if (it != pages_.end()) {
      for (std::size_t k = 0; k < n; ++k) {
        const uint64_t c = it->second[off + k];
        if (c != kNever && (!latest || c > *latest)) latest = c;
      }
    }
    i += n;
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
