// Per-byte "last written at cycle" record of a DUT's memory writes. The memory
// bridge fills it as the DUT writes; the scoreboard reads it to say when a
// wrong element was produced.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace cosim::tb {

class WriteLog {
 public:
  // strobe: one byte per data byte, non-zero = written; nullptr = all.
  void record(uint64_t addr, std::size_t len, uint64_t cycle, const uint8_t* strobe = nullptr);
  std::optional<uint64_t> last_write(uint64_t addr) const;
  // Latest write cycle over [addr, addr + len), if any byte was written.
  std::optional<uint64_t> last_write(uint64_t addr, std::size_t len) const;
  // Every written byte's (address, last write cycle), by address: what a
  // slice of a split run (`cosim run --jobs`) hands to the merge, which
  // records them again at the slice's cycle offset.
  std::vector<std::pair<uint64_t, uint64_t>> entries() const;

 private:
  static constexpr unsigned kPageBits = 12;
  static constexpr uint64_t kNever = ~0ull;
  std::unordered_map<uint64_t, std::vector<uint64_t>> pages_;
};

}  // namespace cosim::tb
