// AXI-Stream protocol checker. Watches one stream's pins once per cycle and
// throws ProtocolError naming the stream and cycle when
//   - TVALID drops, or TDATA / TLAST change, while a beat is stalled
//     (TVALID && !TREADY the cycle before);
//   - a handshaked beat differs from the expected sequence: reported as lost
//     (it matches the one after), duplicated (it matches the one before) or
//     unexpected; or more beats arrive than were expected;
//   - TLAST does not sit exactly on the expected last beat of a packet.
// finish() reports beats that never arrived.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "axis/axis_types.hpp"

namespace cosim::tb::axis {

class Checker {
 public:
  explicit Checker(std::string name);

  // Exact beats the stream must carry, in order (e.g. what a source was given).
  void expect_beat(const Beat& b);
  void expect_beats(const std::vector<Beat>& beats);
  // Framing only: the next packet has this many beats (TLAST on the last).
  void expect_packet(uint64_t beats);
  // Framing with no packets (yet): any beat is a failure.
  void expect_no_packets() { framing_ = true; }

  void observe(uint64_t cycle, const Pins& p);
  // Throws when expected beats or packets are still outstanding.
  void finish(uint64_t cycle) const;

  uint64_t beats() const { return beats_; }
  const std::string& name() const { return name_; }

 private:
  [[noreturn]] void fail(uint64_t cycle, const std::string& what) const;

  std::string name_;
  bool stalled_ = false;  // last cycle: TVALID && !TREADY
  Pins held_;             // the stalled beat
  uint64_t beats_ = 0;
  // Exact-beat expectations.
  std::vector<Beat> expected_;
  std::size_t next_ = 0;
  // Packet framing expectations.
  std::deque<uint64_t> packets_;
  bool framing_ = false;
  uint64_t in_packet_ = 0;  // beats of the current packet seen so far
};

}  // namespace cosim::tb::axis
