// Errors carry their context (file, key, offset, instruction index) in the
// message and are caught once, at the command line, which prints one line.
#pragma once

#include <cstdio>
#include <stdexcept>
#include <string>

namespace cosim {

// `text` with control characters (newlines, tabs, ...) written as \xNN, so a
// message quoting untrusted input stays one line.
inline std::string one_line(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  return out;
}

// Bad user input: a malformed file, an unknown key, a shape that does not fit.
// The CLI maps it to exit status 2.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The DUT did not finish within its cycle budget. The CLI maps it to exit 3.
class TimeoutError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace cosim
