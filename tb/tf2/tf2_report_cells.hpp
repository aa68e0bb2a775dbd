// Number formats of the tf2 model tables and report.json: fixed decimals,
// and an SNR of +inf (an exact result) as "inf" (JSON has no infinity).
#pragma once

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace cosim::tb::tf2 {

inline std::string fmt(double v, int prec) {
  if (std::isinf(v)) return "inf";
  std::ostringstream os;
  os.precision(prec);
  os << std::fixed << v;
  return os.str();
}

inline nlohmann::json db(double v) { return std::isinf(v) ? nlohmann::json("inf") : nlohmann::json(v); }

}  // namespace cosim::tb::tf2
