// AXI-Stream protocol checker. Watches one stream's pins once per cycle and
// throws ProtocolError naming the stream and cycle when
//   - TVALID drops, or TDATA / TLAST / TKEEP / TSTRB / TUSER change, while a
//     beat is stalled (TVALID && !TREADY the cycle before);
//   - a handshaked beat differs from the expected sequence (TLAST, TKEEP,
//     TSTRB, TUSER, and the data bytes TKEEP and TSTRB mark): reported as
//     lost (it matches the one after), duplicated (it matches the one
//     before) or unexpected; or more beats arrive than were expected;
//   - TLAST does not sit exactly on the expected last beat of a packet.
// finish() reports beats that never arrived. BasicChecker<W, U> watches a
// stream of W data bytes (axis_types.hpp); Checker is the 64-bit one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "axis/axis_types.hpp"

namespace cosim::tb::axis {

// A field in hex, most significant byte first: 16 digits for a 64-bit one
// (data), the fewest digits for a mask (TKEEP, TSTRB, TUSER).
inline std::string field_hex(uint64_t v, bool pad = true) {
  char buf[24];
  std::snprintf(buf, sizeof buf, pad ? "0x%016llx" : "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}
template <std::size_t N>
std::string field_hex(const Bytes<N>& v, bool pad = true) {
  static const char* digits = "0123456789abcdef";
  std::string s = "0x";
  bool lead = !pad;
  for (std::size_t i = N; i-- > 0;) {
    const uint8_t x = v.b[i];
    if (lead && x == 0 && i > 0) continue;
    if (lead && x < 16) s += digits[x];
    else s += {digits[x >> 4], digits[x & 15]};
    lead = false;
  }
  return s;
}

// One beat for a message: data, then the sidebands that are not the default.
template <std::size_t W, std::size_t U>
std::string beat_str(const BasicBeat<W, U>& b) {
  using Beat = BasicBeat<W, U>;
  std::string s = field_hex(b.data);
  if (b.keep != Beat::full_mask()) s += " TKEEP " + field_hex(b.keep, false);
  if (b.strb != Beat::full_mask()) s += " TSTRB " + field_hex(b.strb, false);
  if (b.user != typename Beat::User{}) s += " TUSER " + field_hex(b.user, false);
  return s + (b.last ? " (TLAST)" : "");
}

template <std::size_t W, std::size_t U = 8>
class BasicChecker {
 public:
  using Pins = BasicPins<W, U>;
  using Beat = BasicBeat<W, U>;

  explicit BasicChecker(std::string name) : name_(std::move(name)) {}

  // Exact beats the stream must carry, in order (e.g. what a source was given).
  void expect_beat(const Beat& b) {
    expected_.push_back(b);
    ++expected_total_;
  }
  void expect_beats(const std::vector<Beat>& beats) {
    for (const Beat& b : beats) expect_beat(b);
  }
  // Framing only: the next packet has this many beats (TLAST on the last).
  void expect_packet(uint64_t beats) {
    packets_.push_back(beats);
    framing_ = true;
  }
  // Framing with no packets (yet): any beat is a failure.
  void expect_no_packets() { framing_ = true; }

  void observe(uint64_t cycle, const Pins& p);
  // Throws when expected beats or packets are still outstanding.
  void finish(uint64_t cycle) const;

  uint64_t beats() const { return beats_; }
  const std::string& name() const { return name_; }

 private:
  [[noreturn]] void fail(uint64_t cycle, const std::string& what) const {
    throw ProtocolError("axis " + name_ + ": cycle " + std::to_string(cycle) + ": " + what);
  }

  std::string name_;
  bool stalled_ = false;  // last cycle: TVALID && !TREADY
  Pins held_;             // the stalled beat
  uint64_t beats_ = 0;
  // Exact-beat expectations still to come (a matched one is dropped, so a
  // long run holds only the beats in flight), how many there were in all,
  // and the last one matched (to name a duplicate).
  std::deque<Beat> expected_;
  uint64_t expected_total_ = 0;
  bool have_prev_ = false;
  Beat prev_;
  // Packet framing expectations.
  std::deque<uint64_t> packets_;
  bool framing_ = false;
  uint64_t in_packet_ = 0;  // beats of the current packet seen so far
};

template <std::size_t W, std::size_t U>
void BasicChecker<W, U>::observe(uint64_t cycle, const Pins& p) {
  if (stalled_) {
    if (!p.tvalid) fail(cycle, "TVALID dropped while stalled (beat " + field_hex(held_.tdata) + " not taken)");
    if (p.tdata != held_.tdata)
      fail(cycle, "TDATA changed while stalled: " + field_hex(held_.tdata) + " -> " + field_hex(p.tdata));
    if (p.tlast != held_.tlast) fail(cycle, "TLAST changed while stalled");
    if (p.tkeep != held_.tkeep)
      fail(cycle, "TKEEP changed while stalled: " + field_hex(held_.tkeep, false) + " -> " + field_hex(p.tkeep, false));
    if (p.tstrb != held_.tstrb)
      fail(cycle, "TSTRB changed while stalled: " + field_hex(held_.tstrb, false) + " -> " + field_hex(p.tstrb, false));
    if (p.tuser != held_.tuser)
      fail(cycle, "TUSER changed while stalled: " + field_hex(held_.tuser, false) + " -> " + field_hex(p.tuser, false));
  }
  stalled_ = p.tvalid && !p.tready;
  if (stalled_) held_ = p;
  if (!p.fire()) return;

  const Beat got = p.beat();
  const uint64_t index = beats_++;
  if (expected_total_ > 0) {
    if (expected_.empty())
      fail(cycle, "beat " + std::to_string(index) + " " + beat_str(got) + " beyond the " +
                      std::to_string(expected_total_) + " expected (duplicated or extra beat)");
    const Beat& want = expected_.front();
    if (!got.matches(want)) {
      if (have_prev_ && got.matches(prev_))
        fail(cycle, "beat " + std::to_string(index) + " duplicated: " + beat_str(got) + " again, expected " +
                        beat_str(want));
      if (expected_.size() > 1 && got.matches(expected_[1]))
        fail(cycle, "beat " + std::to_string(index) + " lost: expected " + beat_str(want) + ", got the next one " +
                        beat_str(got));
      fail(cycle, "beat " + std::to_string(index) + " unexpected: expected " + beat_str(want) + ", got " +
                      beat_str(got));
    }
    prev_ = want;
    have_prev_ = true;
    expected_.pop_front();
  }
  if (framing_ && packets_.empty())
    fail(cycle, "beat " + std::to_string(index) + " " + beat_str(got) + " after the last expected packet");
  if (!packets_.empty()) {
    ++in_packet_;
    const uint64_t len = packets_.front();
    if (p.tlast && in_packet_ != len)
      fail(cycle, "TLAST on beat " + std::to_string(in_packet_) + " of a packet of " + std::to_string(len));
    if (!p.tlast && in_packet_ == len)
      fail(cycle, "TLAST missing on beat " + std::to_string(len) + ", the last of its packet");
    if (p.tlast) {
      packets_.pop_front();
      in_packet_ = 0;
    }
  }
}

template <std::size_t W, std::size_t U>
void BasicChecker<W, U>::finish(uint64_t cycle) const {
  if (!expected_.empty())
    fail(cycle, std::to_string(expected_.size()) + " expected beat(s) never arrived, next " +
                    beat_str(expected_.front()));
  if (!packets_.empty())
    fail(cycle, std::to_string(packets_.size()) + " expected packet(s) incomplete (" + std::to_string(in_packet_) +
                    " beats of the current one seen)");
}

extern template class BasicChecker<8>;
using Checker = BasicChecker<8>;

}  // namespace cosim::tb::axis
