// Verilator's output with the last assertion message remembered. The record
// is per thread: a Verilated model evaluates on the thread that calls eval(),
// and the harness that checks for the failure runs on that same thread.
#include "rtl_assert/vl_print_hook.hpp"

#include <cstdarg>
#include <cstdio>
#include <vector>

namespace {

thread_local std::string t_last_assertion;

}  // namespace

extern "C" int cosim_vl_printf(const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  va_list copy;
  va_copy(copy, ap);
  const int n = std::vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  if (n < 0) {
    va_end(ap);
    return n;
  }
  std::vector<char> text(static_cast<std::size_t>(n) + 1);
  std::vsnprintf(text.data(), text.size(), format, ap);
  va_end(ap);
  std::fputs(text.data(), stdout);
  const std::string line(text.data(), static_cast<std::size_t>(n));
  if (line.find("Assertion failed in ") != std::string::npos) t_last_assertion = line;
  return n;
}

namespace cosim::tb {

std::string take_last_assertion_message() {
  std::string s;
  s.swap(t_last_assertion);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

}  // namespace cosim::tb
