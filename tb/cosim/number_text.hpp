// Numbers as the console summary writes them (tb/cosim/run_console.cpp and
// the mismatch / weak-check lines of tb/cosim/scoring.cpp).
#pragma once

#include <cstdint>
#include <iomanip>
#include <sstream>
#include <string>

namespace cosim::tb {

// `v` with `digits` decimals: 82.8, 2.0.
inline std::string fixed_text(double v, int digits = 2) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(digits) << v;
  return os.str();
}

// Integers print without a fraction; floats with enough digits to differ.
inline std::string value_text(double v) {
  std::ostringstream os;
  if (v == static_cast<double>(static_cast<int64_t>(v))) os << static_cast<int64_t>(v);
  else os << std::setprecision(9) << v;
  return os.str();
}

}  // namespace cosim::tb
