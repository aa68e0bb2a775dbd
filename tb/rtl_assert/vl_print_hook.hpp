// The C++ side of vl_print_hook.h: the message of the last RTL assertion
// that failed on this thread, as Verilator printed it.
#pragma once

#include <string>

namespace cosim::tb {

// "[<time>] %Error: <file>:<line>: Assertion failed in <instance>: <text>",
// or "" when none failed since the last call. Clears the record.
std::string take_last_assertion_message();

}  // namespace cosim::tb
