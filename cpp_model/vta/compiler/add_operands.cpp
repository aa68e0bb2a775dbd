#include "vta/compiler/add_operands.hpp"

#include <algorithm>
#include <stdexcept>

#include "vta/isa.hpp"

namespace cosim::vta::add_operands {

namespace {
int32_t floor_div(int32_t a, int32_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
}  // namespace

std::optional<ByteSplit> split(int32_t v) {
  // h = round(v / 128) keeps lo in [-64, 63]; at the two ends h is pulled
  // back so that hi = -h stays an int8, and lo takes the rest.
  const int32_t h = std::clamp(floor_div(v + 64, 128), -127, 128);
  const int32_t lo = v - 128 * h;
  if (lo < -128 || lo > 127) return std::nullopt;
  return ByteSplit{static_cast<int8_t>(-h), static_cast<int8_t>(lo)};
}

std::vector<int8_t> selector_entries() {
  std::vector<int8_t> inp(kSlots * kInpElemBytes, 0);
  for (int j = 0; j < kSlots; ++j) {
    int8_t* row = inp.data() + j * kInpElemBytes + 4 * j;
    row[0] = static_cast<int8_t>(kHighWeight);
    row[1] = 1;
    row[2] = static_cast<int8_t>(kHighWeight);
    row[3] = 1;
  }
  return inp;
}

std::optional<std::vector<int8_t>> pack(const std::vector<int32_t>& a, const std::vector<int32_t>& b) {
  if (a.size() != b.size() || a.size() % kBlock != 0)
    throw std::logic_error("add_operands::pack: operands of different or unblocked lengths");
  const std::size_t entries = a.size() / kBlock;
  std::vector<int8_t> wgt((entries + kSlots - 1) / kSlots * kWgtElemBytes, 0);
  for (std::size_t e = 0; e < entries; ++e) {
    int8_t* w = wgt.data() + e / kSlots * kWgtElemBytes + 4 * (e % kSlots);
    for (int o = 0; o < kBlock; ++o) {
      const std::size_t i = e * kBlock + static_cast<std::size_t>(o);
      const std::optional<ByteSplit> sa = split(a[i]), sb = split(b[i]);
      if (!sa || !sb) return std::nullopt;
      int8_t* row = w + o * kBlock;
      row[0] = sa->hi;
      row[1] = sa->lo;
      row[2] = sb->hi;
      row[3] = sb->lo;
    }
  }
  return wgt;
}

}  // namespace cosim::vta::add_operands
