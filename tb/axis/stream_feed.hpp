// The testbench end of a DUT's input stream: the packets a trace sends,
// cut into beats of W bytes as the DUT takes them (one beat made ahead, so
// a long stream holds its bytes once, not a beat struct per beat), with
// seeded TVALID stalls. The last beat of a packet carries TLAST and, when
// it is short, a TKEEP / TSTRB marking its bytes; a DUT without TKEEP
// cannot see such a beat, so it gets whole beats only.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "axis/axis_source.hpp"
#include "axis/axis_types.hpp"
#include "axis/stream_end.hpp"
#include "common/error.hpp"

namespace cosim::tb::axis {

template <std::size_t W, std::size_t U = 8>
class BasicStreamFeed final : public StreamEnd {
 public:
  using Pins = BasicPins<W, U>;
  using Beat = BasicBeat<W, U>;

  // has_tkeep: whether the DUT's port has TKEEP. stall: the chance per
  // cycle that a ready beat is held back.
  BasicStreamFeed(std::string name, bool has_tkeep, uint64_t seed, double stall)
      : StreamEnd(std::move(name)), has_tkeep_(has_tkeep), source_(seed, stall) {}

  bool is_input() const override { return true; }
  void send(std::vector<uint8_t> bytes) override {
    if (bytes.empty()) throw InputError("stream " + name() + ": stream_send of 0 bytes");
    if (!has_tkeep_ && bytes.size() % W != 0) {
      throw InputError("stream " + name() + " carries " + std::to_string(W) + "-byte beats and has no TKEEP: " +
                       "stream_send of " + std::to_string(bytes.size()) + " bytes is not a whole number of beats");
    }
    pending_ += bytes.size();
    packets_.push_back(std::move(bytes));
  }
  std::vector<uint8_t> take(std::size_t) override { throw InputError("stream " + name() + " is a DUT input"); }
  uint64_t pending_bytes() const override { return pending_; }
  std::string describe() const override {
    return name() + ": " + std::to_string(pending_) + " bytes to send, TVALID=" + std::to_string(int(pins_.tvalid)) +
           " TREADY=" + std::to_string(int(pins_.tready));
  }
  const std::string& protocol_error() const override { return none_; }  // the testbench drives it

  // The testbench waits to present data it has (a stall): the DUT is not the one waiting.
  bool owed() const { return pending_ > 0 && !pins_.tvalid; }

  void drive(Pins& p) {
    if (source_.idle() && !packets_.empty()) source_.push(next_beat());
    source_.drive(p);
  }
  void observe(const Pins& p) { pins_ = p; }
  void update(const Pins& p) {
    if (p.fire()) {
      for (std::size_t i = 0; i < W; ++i) pending_ -= get_bit(p.tkeep, i) ? 1 : 0;
    }
    source_.update(p);
  }

 private:
  Beat next_beat() {
    const std::vector<uint8_t>& pkt = packets_.front();
    const std::size_t n = std::min(W, pkt.size() - offset_);
    Beat b{from_bytes<W>(pkt.data() + offset_, n), offset_ + n == pkt.size()};
    if (n < W) b.keep = b.strb = low_bits<mask_bytes(W)>(n);
    offset_ += n;
    if (offset_ == pkt.size()) {
      packets_.pop_front();
      offset_ = 0;
    }
    return b;
  }

  bool has_tkeep_;
  BasicSource<W, U> source_;
  std::deque<std::vector<uint8_t>> packets_;
  std::size_t offset_ = 0;  // into packets_.front()
  uint64_t pending_ = 0;
  Pins pins_;  // as the last rising edge took them
  std::string none_;
};

}  // namespace cosim::tb::axis
