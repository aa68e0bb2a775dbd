// Cycle-level AXI-Stream: the pins of one stream as a plain struct. A DUT
// wrapper copies these to and from the Verilated model's ports every cycle;
// sources, sinks and the protocol checker work on the struct only, so they
// need neither SystemC nor Verilator.
//
// One cycle, in this order:
//   1. source.drive(pins), sink.drive(pins)     (TVALID/TDATA/TLAST, TREADY)
//   2. copy to the DUT, eval, copy the DUT's outputs back into pins
//   3. checker.observe(cycle, pins)             (what the clock edge samples)
//   4. rising edge
//   5. source.update(pins), sink.update(pins)   (handshake = TVALID && TREADY)
#pragma once

#include <cstdint>
#include <stdexcept>

namespace cosim::tb::axis {

struct Beat {
  uint64_t data = 0;
  bool last = false;
  bool operator==(const Beat& o) const { return data == o.data && last == o.last; }
  bool operator!=(const Beat& o) const { return !(*this == o); }
};

struct Pins {
  bool tvalid = false;
  bool tready = false;
  uint64_t tdata = 0;
  bool tlast = false;
  // Optional sidebands, driven when the DUT's stream has them: every byte
  // kept and a data byte unless a source says otherwise.
  uint64_t tkeep = ~uint64_t{0};
  uint64_t tstrb = ~uint64_t{0};
  uint64_t tuser = 0;

  bool fire() const { return tvalid && tready; }
};

// A stream broke the AXI-Stream rules; the message names stream and cycle.
class ProtocolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace cosim::tb::axis
