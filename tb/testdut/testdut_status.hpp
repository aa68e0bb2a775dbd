// How the test DMA's pins say where it is (the harness core's Status, see
// harness/core.hpp): done flag, FSM state, beats left. Include after
// Vtestdut.h, before any SystemC header.
#pragma once

#include <sstream>
#include <string>

#include "dut/testdut_regs.hpp"
#include "harness/core.hpp"

namespace cosim::tb::testdut {

struct TestDutStatus : harness::NoErrorPin {
  static bool done(const Vtestdut& m) { return m.done_o != 0; }
  static std::string diagnosis(const Vtestdut& m) {
    std::ostringstream os;
    os << "testdut stuck in state " << cosim::testdut::regs::state_e::show(m.state_o) << " with " << m.beats_left_o
       << " beats left (done=" << static_cast<int>(m.done_o) << ")";
    if (m.state_o == cosim::testdut::regs::state_e::kStIdle && !m.done_o) os << ": idle and not done, the start bit was never written";
    return os.str();
  }
};

}  // namespace cosim::tb::testdut
