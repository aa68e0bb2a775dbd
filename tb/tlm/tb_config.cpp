#include "tlm/tb_config.hpp"

#include <cstdint>
#include <cstdlib>
#include <sstream>

#include "common/error.hpp"
#include "common/parse_number.hpp"

namespace cosim::tb {

namespace {
std::string num(double v) {
  std::ostringstream os;
  os.precision(17);
  os << v;
  return os.str();
}

uint64_t to_u64(const std::string& key, const std::string& v) {
  const std::optional<uint64_t> x = parse_unsigned(v);
  if (!x) {
    throw InputError("trace config " + key + ": expected an unsigned integer (decimal or 0x hex), got '" + v + "'");
  }
  return *x;
}

// An unsigned integer in [lo, hi]: checked before anything is sized by it
// (dram_size allocates the DRAM model).
uint64_t to_u64_in(const std::string& key, const std::string& v, uint64_t lo, uint64_t hi) {
  const uint64_t x = to_u64(key, v);
  if (x < lo || x > hi) {
    throw InputError("trace config " + key + ": expected an integer in [" + std::to_string(lo) + ", " +
                     std::to_string(hi) + "], got '" + v + "'");
  }
  return x;
}

double to_double(const std::string& key, const std::string& v) {
  char* end = nullptr;
  const double x = std::strtod(v.c_str(), &end);
  if (v.empty() || *end != '\0') throw InputError("trace config " + key + ": expected a number, got '" + v + "'");
  return x;
}
}  // namespace

std::map<std::string, std::string> TbConfig::to_map() const {
  return {{"clock_ns", num(clock_ns)},
          {"dram_latency", std::to_string(dram_latency)},
          {"bytes_per_cycle", std::to_string(bytes_per_cycle)},
          {"stall_probability", num(stall_probability)},
          {"max_stall_cycles", std::to_string(max_stall_cycles)},
          {"seed", std::to_string(seed)},
          {"dram_size", std::to_string(dram_size)},
          {"timeout_cycles", std::to_string(timeout_cycles)}};
}

TbConfig TbConfig::from_map(const std::map<std::string, std::string>& m) {
  TbConfig c;
  for (const auto& [k, v] : m) {
    if (k == "clock_ns") c.clock_ns = to_double(k, v);
    else if (k == "dram_latency") c.dram_latency = static_cast<uint32_t>(to_u64_in(k, v, 0, UINT32_MAX));
    else if (k == "bytes_per_cycle") c.bytes_per_cycle = static_cast<uint32_t>(to_u64_in(k, v, 1, UINT32_MAX));
    else if (k == "stall_probability") c.stall_probability = to_double(k, v);
    else if (k == "max_stall_cycles") c.max_stall_cycles = static_cast<uint32_t>(to_u64_in(k, v, 0, UINT32_MAX));
    else if (k == "seed") c.seed = to_u64(k, v);
    else if (k == "dram_size") c.dram_size = to_u64_in(k, v, 1, kMaxDramSize);
    else if (k == "timeout_cycles") c.timeout_cycles = to_u64_in(k, v, 1, 1000000000000ull);
  }
  if (c.clock_ns <= 0) throw InputError("trace config clock_ns: expected a period > 0");
  if (c.bytes_per_cycle == 0) throw InputError("trace config bytes_per_cycle: expected >= 1");
  if (c.stall_probability < 0 || c.stall_probability >= 1) throw InputError("trace config stall_probability: expected [0, 1)");
  return c;
}

}  // namespace cosim::tb
