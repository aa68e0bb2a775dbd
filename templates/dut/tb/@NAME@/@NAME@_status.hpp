// How @NAME@'s pins say where it is (the harness core's Status, see
// harness/core.hpp): done flag, FSM state, beats left; over any Verilated
// variant's model class. Include after the model's header, before any
// SystemC header.
#pragma once

#include <sstream>
#include <string>

#include "dut/@NAME@_regs.hpp"
#include "harness/core.hpp"

namespace cosim::tb::@NAME@ {

struct Status : harness::NoErrorPin {
  template <class Model>
  static bool done(const Model& m) {
    return m.done_o != 0;
  }
  template <class Model>
  static std::string diagnosis(const Model& m) {
    std::ostringstream os;
    os << "@NAME@ stuck in state " << cosim::@NAME@::regs::state_e::show(m.state_o) << " with " << m.beats_left_o
       << " beats left (done=" << static_cast<int>(m.done_o) << ")";
    if (m.state_o == cosim::@NAME@::regs::state_e::kStIdle && !m.done_o) {
      os << ": idle and not done, the start bit was never written";
    }
    return os.str();
  }
};

}  // namespace cosim::tb::@NAME@
