// Errors carry their context (file, key, offset, instruction index) in the
// message and are caught once, at the command line, which prints one line.
#pragma once

#include <stdexcept>
#include <string>

namespace cosim {

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
