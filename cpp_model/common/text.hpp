// Text for messages, the same everywhere: addresses in hexadecimal and
// tensor shapes.
#pragma once

#include <cstdint>
#include <cstdio>
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

}  // namespace cosim
