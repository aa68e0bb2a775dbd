// The testbench end of a DUT's output stream: TREADY with seeded stalls,
// the bytes of every beat the DUT gives (those TKEEP marks; all of them
// without TKEEP) kept for the trace's checks, and the protocol checker
// (axis_checker.hpp) watching that a stalled beat is held.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "axis/axis_checker.hpp"
#include "axis/axis_types.hpp"
#include "axis/stall_coin.hpp"
#include "axis/stream_end.hpp"
#include "common/error.hpp"

namespace cosim::tb::axis {

template <std::size_t W, std::size_t U = 8>
class BasicStreamCapture final : public StreamEnd {
 public:
  using Pins = BasicPins<W, U>;

  // stall: the chance per cycle that TREADY is low.
  BasicStreamCapture(std::string name, uint64_t seed, double stall)
      : StreamEnd(name), stall_(seed, stall), check_(std::move(name)) {}

  bool is_input() const override { return false; }
  void send(std::vector<uint8_t>) override { throw InputError("stream " + name() + " is a DUT output"); }
  std::vector<uint8_t> take(std::size_t n) override {
    n = std::min(n, bytes_.size());
    std::vector<uint8_t> out(bytes_.begin(), bytes_.begin() + static_cast<std::ptrdiff_t>(n));
    bytes_.erase(bytes_.begin(), bytes_.begin() + static_cast<std::ptrdiff_t>(n));
    return out;
  }
  uint64_t pending_bytes() const override { return bytes_.size(); }
  std::string describe() const override {
    return name() + ": " + std::to_string(beats_) + " beats taken, TVALID=" + std::to_string(int(pins_.tvalid)) +
           " TREADY=" + std::to_string(int(pins_.tready));
  }
  const std::string& protocol_error() const override { return error_; }

  // The DUT offers a beat the testbench holds back (a stall).
  bool owed() const { return pins_.tvalid && !pins_.tready; }

  void drive(Pins& p) { p.tready = !stall_(); }
  void observe(uint64_t time, const Pins& p) {
    pins_ = p;
    if (!error_.empty()) return;  // the first violation is the stream's one report
    try {
      check_.observe(time, p);
    } catch (const ProtocolError& e) {
      error_ = e.what();
    }
  }
  void update(const Pins& p) {
    if (!p.fire()) return;
    ++beats_;
    for (std::size_t i = 0; i < W; ++i)
      if (get_bit(p.tkeep, i)) bytes_.push_back(get_byte(p.tdata, i));
  }

 private:
  StallCoin stall_;
  BasicChecker<W, U> check_;
  std::deque<uint8_t> bytes_;
  uint64_t beats_ = 0;
  Pins pins_;
  std::string error_;
};

}  // namespace cosim::tb::axis
