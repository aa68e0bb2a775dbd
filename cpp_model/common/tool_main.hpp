// The error contract of the library's command-line tools (vta-disasm,
// vta-run-model, tflite_dump), in one place: bad input is one line
// "<tool>: <what>" and exit 2, a run that does not finish exit 3, anything
// else one line "<tool>: internal error: <what>" and exit 2.
#pragma once

#include <cstdio>
#include <exception>

#include "common/error.hpp"

namespace cosim {

// `body()`'s exit status, or the contract's for what it throws.
template <class Body>
int run_tool(const char* tool, Body&& body) {
  try {
    return body();
  } catch (const InputError& e) {
    std::fprintf(stderr, "%s: %s\n", tool, one_line(e.what()).c_str());
    return 2;
  } catch (const TimeoutError& e) {
    std::fprintf(stderr, "%s: %s\n", tool, one_line(e.what()).c_str());
    return 3;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: internal error: %s\n", tool, one_line(e.what()).c_str());
    return 2;
  }
}

}  // namespace cosim
