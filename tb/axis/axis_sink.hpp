// AXI-Stream sink (takes a DUT's master port) with seeded TREADY stalls.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "axis/axis_types.hpp"

namespace cosim::tb::axis {

class Sink {
 public:
  // stall_prob: chance per cycle that TREADY is low.
  explicit Sink(uint64_t seed = 2, double stall_prob = 0.0);

  void drive(Pins& p);
  void update(const Pins& p);

  const std::vector<Beat>& beats() const { return beats_; }
  // Beats received so far, then forgets them.
  std::vector<Beat> take();
  // Number of TLAST beats received (complete packets).
  uint64_t packets() const { return packets_; }

 private:
  std::mt19937_64 rng_;
  std::bernoulli_distribution stall_;
  std::vector<Beat> beats_;
  uint64_t packets_ = 0;
};

}  // namespace cosim::tb::axis
