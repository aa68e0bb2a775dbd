// The TF2 PE array's peak MACs per cycle for a k x k layer, from the build's
// parameters the wrapper reports among its counters (cfg_n_pe, cfg_ocol3d,
// cfg_ktap, cfg_ocol2d): NPe PEs x 16 input channels x (OCol3D x KTap lanes
// for k > 1, OCol2D for 1x1). Utilization = sum of MACs / peak over the
// engine's busy cycles; 0 when the counters are missing.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace cosim::tb::tf2 {

inline double peak_macs_per_cycle(const std::map<std::string, uint64_t>& perf, int k) {
  auto get = [&](const char* key) {
    const auto it = perf.find(key);
    return it == perf.end() ? 0.0 : static_cast<double>(it->second);
  };
  const double lanes = k > 1 ? get("cfg_ocol3d") * get("cfg_ktap") : get("cfg_ocol2d");
  return get("cfg_n_pe") * 16 * lanes;
}

}  // namespace cosim::tb::tf2
