#include "axis/axis_source.hpp"

namespace cosim::tb::axis {

Source::Source(uint64_t seed, double stall_prob) : rng_(seed), stall_(stall_prob) {}

void Source::push_packet(const std::vector<uint64_t>& beats) {
  for (std::size_t i = 0; i < beats.size(); ++i) push(Beat{beats[i], i + 1 == beats.size()});
}

void Source::drive(Pins& p) {
  if (!presenting_ && !queue_.empty()) presenting_ = !stall_(rng_);
  p.tvalid = presenting_;
  if (presenting_) {
    p.tdata = queue_.front().data;
    p.tlast = queue_.front().last;
  } else {
    p.tdata = 0;
    p.tlast = false;
  }
}

void Source::update(const Pins& p) {
  if (presenting_ && p.tready) {
    queue_.pop_front();
    presenting_ = false;
    ++sent_;
  }
}

}  // namespace cosim::tb::axis
