#include "axis/axis_checker.hpp"

#include <cstdio>
#include <utility>

namespace cosim::tb::axis {

namespace {

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string beat_str(const Beat& b) { return hex(b.data) + (b.last ? " (TLAST)" : ""); }

}  // namespace

Checker::Checker(std::string name) : name_(std::move(name)) {}

void Checker::expect_beat(const Beat& b) { expected_.push_back(b); }

void Checker::expect_beats(const std::vector<Beat>& beats) {
  expected_.insert(expected_.end(), beats.begin(), beats.end());
}

void Checker::expect_packet(uint64_t beats) {
  packets_.push_back(beats);
  framing_ = true;
}

void Checker::fail(uint64_t cycle, const std::string& what) const {
  throw ProtocolError("axis " + name_ + ": cycle " + std::to_string(cycle) + ": " + what);
}

void Checker::observe(uint64_t cycle, const Pins& p) {
  if (stalled_) {
    if (!p.tvalid) fail(cycle, "TVALID dropped while stalled (beat " + hex(held_.tdata) + " not taken)");
    if (p.tdata != held_.tdata)
      fail(cycle, "TDATA changed while stalled: " + hex(held_.tdata) + " -> " + hex(p.tdata));
    if (p.tlast != held_.tlast) fail(cycle, "TLAST changed while stalled");
  }
  stalled_ = p.tvalid && !p.tready;
  if (stalled_) held_ = p;
  if (!p.fire()) return;

  const Beat got{p.tdata, p.tlast};
  const uint64_t index = beats_++;
  if (!expected_.empty()) {
    if (next_ >= expected_.size())
      fail(cycle, "beat " + std::to_string(index) + " " + beat_str(got) + " beyond the " +
                      std::to_string(expected_.size()) + " expected (duplicated or extra beat)");
    const Beat& want = expected_[next_];
    if (got != want) {
      if (next_ > 0 && got == expected_[next_ - 1])
        fail(cycle, "beat " + std::to_string(index) + " duplicated: " + beat_str(got) + " again, expected " +
                        beat_str(want));
      if (next_ + 1 < expected_.size() && got == expected_[next_ + 1])
        fail(cycle, "beat " + std::to_string(index) + " lost: expected " + beat_str(want) + ", got the next one " +
                        beat_str(got));
      fail(cycle, "beat " + std::to_string(index) + " unexpected: expected " + beat_str(want) + ", got " +
                      beat_str(got));
    }
    ++next_;
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

void Checker::finish(uint64_t cycle) const {
  if (next_ < expected_.size())
    fail(cycle, std::to_string(expected_.size() - next_) + " expected beat(s) never arrived, next " +
                    beat_str(expected_[next_]));
  if (!packets_.empty())
    fail(cycle, std::to_string(packets_.size()) + " expected packet(s) incomplete (" + std::to_string(in_packet_) +
                    " beats of the current one seen)");
}

}  // namespace cosim::tb::axis
