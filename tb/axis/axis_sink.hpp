// AXI-Stream sink (takes a DUT's master port) with seeded TREADY stalls.
// BasicSink<W, U> takes a stream of W data bytes (axis_types.hpp); Sink is
// the 64-bit one. Each beat is kept whole: data, TLAST, TKEEP, TSTRB, TUSER.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "axis/axis_types.hpp"
#include "axis/stall_coin.hpp"

namespace cosim::tb::axis {

template <std::size_t W, std::size_t U = 8>
class BasicSink {
 public:
  using Pins = BasicPins<W, U>;
  using Beat = BasicBeat<W, U>;

  // stall_prob: chance per cycle that TREADY is low.
  explicit BasicSink(uint64_t seed = 2, double stall_prob = 0.0) : stall_(seed, stall_prob) {}

  void drive(Pins& p) { p.tready = !stall_(); }
  void update(const Pins& p) {
    if (!p.fire()) return;
    beats_.push_back(p.beat());
    if (p.tlast) ++packets_;
  }

  const std::vector<Beat>& beats() const { return beats_; }
  // Beats received so far, then forgets them.
  std::vector<Beat> take() { return std::exchange(beats_, {}); }
  // Number of TLAST beats received (complete packets).
  uint64_t packets() const { return packets_; }

 private:
  StallCoin stall_;
  std::vector<Beat> beats_;
  uint64_t packets_ = 0;
};

extern template class BasicSink<8>;
using Sink = BasicSink<8>;

}  // namespace cosim::tb::axis
