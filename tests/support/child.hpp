// in_child(): fork, run a simulation, JSON back (SystemC elaborates once per
// process). The helper lives with the testbench (tb/tlm/in_child.hpp) so the
// Python module uses the same one.
#pragma once

#include "tlm/in_child.hpp"

namespace cosim::test {

using tb::in_child;

}  // namespace cosim::test
