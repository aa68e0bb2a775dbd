// Text for messages and reports, the same everywhere: addresses in
// hexadecimal, tensor shapes, and numbers with fixed decimals.
#pragma once

#include <cstdint>
#include <cstdio>
#include <iomanip>
#include <sstream>
#include <string>
#include <vector>

namespace cosim {

// 0x1f80
inline std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// [1,8,8,16] (dimensions of any integer type: int64_t, a .tflite's int32_t)
template <class Int>
std::string shape_str(const std::vector<Int>& s) {
  std::string r = "[";
  for (std::size_t i = 0; i < s.size(); ++i) r += (i ? "," : "") + std::to_string(s[i]);
  return r + "]";
}

// `v` with `digits` decimals: 82.8, 2.0.
inline std::string fixed_text(double v, int digits = 2) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(digits) << v;
  return os.str();
}

// `v` with `digits` significant digits (printf's %g): 0.00123, 4.56e+03.
inline std::string significant_text(double v, int digits = 3) {
  std::ostringstream os;
  os << std::setprecision(digits) << v;
  return os.str();
}

// Integers print without a fraction; floats with enough digits to differ.
inline std::string value_text(double v) {
  std::ostringstream os;
  if (v == static_cast<double>(static_cast<int64_t>(v))) os << static_cast<int64_t>(v);
  else os << std::setprecision(9) << v;
  return os.str();
}

}  // namespace cosim
