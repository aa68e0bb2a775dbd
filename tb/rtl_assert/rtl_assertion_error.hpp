// The error a harness raises when an RTL assertion fails, with the property
// named. Free of Verilator headers, so SystemC-side code (the cosim runner)
// can catch it; rtl_assert.hpp raises it.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace cosim::tb {

// What Verilator said about the failed property, split into its parts:
// "[6] %Error: vta_token_q.sv:57: Assertion failed in TOP.vta_token_q.a_no_underflow: text".
struct RtlAssertionInfo {
  std::string file;      // "vta_token_q.sv"
  int line = 0;          // 57
  std::string path;      // "TOP.vta_token_q.a_no_underflow": instance path + property label
  std::string name;      // last component of path: the property's label ("a_no_underflow")
  std::string instance;  // path without its last component ("TOP.vta_token_q")
  std::string message;   // the property's own text
  std::string raw;       // the whole line ("" when no message was captured)
};

inline RtlAssertionInfo parse_rtl_assertion(const std::string& raw) {
  RtlAssertionInfo a;
  a.raw = raw;
  const std::string err = "%Error: ";
  const std::string in = ": Assertion failed in ";
  const auto e = raw.find(err);
  const auto f = raw.find(in);
  if (e == std::string::npos || f == std::string::npos || f < e) return a;
  const std::string where = raw.substr(e + err.size(), f - e - err.size());  // file:line
  const auto colon = where.rfind(':');
  if (colon != std::string::npos) {
    a.file = where.substr(0, colon);
    a.line = std::atoi(where.c_str() + colon + 1);
  }
  const std::string rest = raw.substr(f + in.size());
  const auto sep = rest.find(": ");
  a.path = rest.substr(0, sep);
  a.message = sep == std::string::npos ? "" : rest.substr(sep + 2);
  const auto dot = a.path.rfind('.');
  a.name = dot == std::string::npos ? a.path : a.path.substr(dot + 1);
  a.instance = dot == std::string::npos ? "" : a.path.substr(0, dot);
  return a;
}

class RtlAssertionError : public std::runtime_error {
 public:
  RtlAssertionError(const std::string& dut, uint64_t cycle, const std::string& verilator_line = "")
      : std::runtime_error(text(dut, cycle, parse_rtl_assertion(verilator_line))),
        dut_(dut),
        cycle_(cycle),
        info_(parse_rtl_assertion(verilator_line)) {}
  uint64_t cycle() const { return cycle_; }
  const std::string& dut() const { return dut_; }
  const RtlAssertionInfo& info() const { return info_; }

 private:
  static std::string text(const std::string& dut, uint64_t cycle, const RtlAssertionInfo& a) {
    std::string s = dut + ": RTL assertion failed at cycle " + std::to_string(cycle);
    if (a.path.empty()) return s + " (Verilator's %Error line above names the file, line and property)";
    s += ": " + a.name + " in " + a.instance + " (" + a.file + ":" + std::to_string(a.line) + ")";
    if (!a.message.empty()) s += ": " + a.message;
    return s;
  }
  std::string dut_;
  uint64_t cycle_;
  RtlAssertionInfo info_;
};

}  // namespace cosim::tb
