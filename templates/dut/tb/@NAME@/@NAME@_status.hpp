// What the wrapper knows of @NAME@'s insides, all from its debug pins (the
// manifest's `debug`): the harness core's Status (harness/core.hpp: done
// flag, and the hang diagnosis from the FSM state and the beats left) and
// the BusyPort counting busy_cycles; over any Verilated variant's model
// class. The rest of the wrapper (@NAME@_wrapper*.{hpp,cpp}) knows only the
// manifest. Include after the model's header, before any SystemC header.
#pragma once

#include <cstdint>
#include <sstream>
#include <string>

#include "dut/@NAME@_regs.hpp"
#include "harness/core.hpp"
#include "harness/port.hpp"

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

// Cycles the adder is out of its idle state (busy_cycles).
template <class Model>
class BusyPort final : public harness::Port<Model> {
 public:
  static constexpr bool kCounts = true;
  void drive(Model& m) override { (void)m; }
  void sample(const Model& m, uint64_t time) override {
    (void)time;
    if (m.state_o != cosim::@NAME@::regs::state_e::kStIdle) ++busy_cycles;
  }
  uint64_t busy_cycles = 0;
};

}  // namespace cosim::tb::@NAME@
