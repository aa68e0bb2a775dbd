#include "axis/axis_sink.hpp"

#include <utility>

namespace cosim::tb::axis {

Sink::Sink(uint64_t seed, double stall_prob) : rng_(seed), stall_(stall_prob) {}

void Sink::drive(Pins& p) { p.tready = !stall_(rng_); }

void Sink::update(const Pins& p) {
  if (!p.fire()) return;
  beats_.push_back(Beat{p.tdata, p.tlast});
  if (p.tlast) ++packets_;
}

std::vector<Beat> Sink::take() { return std::exchange(beats_, {}); }

}  // namespace cosim::tb::axis
