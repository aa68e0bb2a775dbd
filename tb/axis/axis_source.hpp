// AXI-Stream source (drives a DUT's slave port) with seeded TVALID stalls.
// Once TVALID is up it stays up with the same beat until taken, as the
// protocol demands; stalls only delay raising it. BasicSource<W, U> drives a
// stream of W data bytes (axis_types.hpp); Source is the 64-bit one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include "axis/axis_types.hpp"
#include "axis/stall_coin.hpp"

namespace cosim::tb::axis {

template <std::size_t W, std::size_t U = 8>
class BasicSource {
 public:
  using Pins = BasicPins<W, U>;
  using Beat = BasicBeat<W, U>;

  // stall_prob: chance per cycle that an available beat is held back.
  explicit BasicSource(uint64_t seed = 1, double stall_prob = 0.0) : stall_(seed, stall_prob) {}

  void push(const Beat& b) { queue_.push_back(b); }
  // A packet of whole beats: TLAST on the last.
  void push_packet(const std::vector<typename Beat::Data>& beats) {
    for (std::size_t i = 0; i < beats.size(); ++i) push(Beat{beats[i], i + 1 == beats.size()});
  }

  void drive(Pins& p) {
    if (!presenting_ && !queue_.empty()) presenting_ = !stall_();
    p.tvalid = presenting_;
    if (presenting_) {
      p.set_beat(queue_.front());
    } else {
      p.set_beat(Beat{});
    }
  }
  void update(const Pins& p) {
    if (presenting_ && p.tready) {
      queue_.pop_front();
      presenting_ = false;
      ++sent_;
    }
  }

  bool idle() const { return queue_.empty(); }
  std::size_t pending() const { return queue_.size(); }
  uint64_t sent() const { return sent_; }

 private:
  std::deque<Beat> queue_;
  StallCoin stall_;
  bool presenting_ = false;
  uint64_t sent_ = 0;
};

extern template class BasicSource<8>;
using Source = BasicSource<8>;

}  // namespace cosim::tb::axis
