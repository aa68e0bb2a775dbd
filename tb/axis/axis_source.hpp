// AXI-Stream source (drives a DUT's slave port) with seeded TVALID stalls.
// Once TVALID is up it stays up with the same beat until taken, as the
// protocol demands; stalls only delay raising it.
#pragma once

#include <cstdint>
#include <deque>
#include <random>
#include <vector>

#include "axis/axis_types.hpp"

namespace cosim::tb::axis {

class Source {
 public:
  // stall_prob: chance per cycle that an available beat is held back.
  explicit Source(uint64_t seed = 1, double stall_prob = 0.0);

  void push(const Beat& b) { queue_.push_back(b); }
  // A packet: TLAST on the last beat.
  void push_packet(const std::vector<uint64_t>& beats);

  void drive(Pins& p);
  void update(const Pins& p);

  bool idle() const { return queue_.empty(); }
  std::size_t pending() const { return queue_.size(); }
  uint64_t sent() const { return sent_; }

 private:
  std::deque<Beat> queue_;
  std::mt19937_64 rng_;
  std::bernoulli_distribution stall_;
  bool presenting_ = false;
  uint64_t sent_ = 0;
};

}  // namespace cosim::tb::axis
