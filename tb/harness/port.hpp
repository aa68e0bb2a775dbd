// A pin binder: the piece of a harness that moves one group of a Verilated
// model's ports (an AXI4 master, a pair of streams, or a DUT's event pins)
// between the model and a testbench model, in the three phases of a clock
// cycle that harness::Core runs:
//
//   drive(m)          testbench outputs -> model inputs, before the
//                     falling-edge eval
//   sample(m, time)   model outputs -> testbench, after that eval: what the
//                     rising edge will take (handshakes, checkers, counters)
//   update(m, time)   after the rising edge (stream sources and sinks
//                     advance on the handshakes they saw); only called for a
//                     binder whose has_update() is true
//
// `time` is the cycle's number on the DUT's timeline (Core::time()).
//
// A binder of an interface on a further clock (the manifest's interface
// `clock:`, one of ports.clocks) runs the same phases on that clock's rising
// edges instead: sample(m, time) before the edge, update(m, time) and then
// drive(m) after it (its falling edge's eval lies between the drive and the
// next sample); `time` is then the primary cycle the edge falls in.
#pragma once

#include <cstdint>

namespace cosim::tb::harness {

template <class Model>
class Port {
 public:
  virtual ~Port() = default;
  virtual void drive(Model& m) = 0;
  virtual void sample(const Model& m, uint64_t time) = 0;
  virtual void update(const Model& m, uint64_t time) {
    (void)m;
    (void)time;
  }
  virtual bool has_update() const { return false; }
  // False for a binder that only watches (drive() does nothing): Core then
  // skips its drive() call, one virtual call less per cycle.
  virtual bool has_drive() const { return true; }
  // Whether the testbench owes the DUT something right now (a read beat, a
  // write response): the DUT then waits on the testbench, not on itself,
  // which the deadlock rule (Core::run) must not take for a hang.
  virtual bool owed() const { return false; }
  // The clock the binder's interface runs on: -1 the primary clock
  // (ports.clock), i the i-th of ports.clocks (harness/bus.hpp bus_clock).
  virtual int clock() const { return -1; }
};

}  // namespace cosim::tb::harness
