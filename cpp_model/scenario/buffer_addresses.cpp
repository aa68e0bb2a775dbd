#include "scenario/buffer_addresses.hpp"

namespace cosim::scenario {

std::vector<uint64_t> buffer_addresses(const Scenario& sc, const std::vector<std::string>& keys, uint64_t bytes,
                                       uint64_t align, uint64_t dram_bytes) {
  std::vector<uint64_t> addr;
  for (const std::string& key : keys) {
    const Value& v = sc["addresses"][key];
    const uint64_t a = static_cast<uint64_t>(v.as_int());
    if (align > 1 && a % align != 0) v.fail("expected a " + std::to_string(align) + "-byte aligned address");
    if (a + bytes > dram_bytes) {
      v.fail("expected the " + std::to_string(bytes) + " bytes from it to fit in DRAM (" +
             std::to_string(dram_bytes >> 20) + " MiB)");
    }
    addr.push_back(a);
  }
  if (keys.empty()) return addr;
  const uint64_t out = addr.back();
  for (std::size_t i = 0; i + 1 < keys.size(); ++i) {
    if (addr[i] < out + bytes && out < addr[i] + bytes)
      sc["addresses"][keys.back()].fail("expected " + keys.back() + " not to overlap " + keys[i]);
  }
  return addr;
}

Schema buffer_addresses_schema(const std::vector<std::pair<std::string, std::string>>& defaults) {
  Schema s = Schema::map();
  for (const auto& [key, address] : defaults) s.optional(key, Schema::integer(0, 0xffffffffll), address);
  return s;
}

}  // namespace cosim::scenario
