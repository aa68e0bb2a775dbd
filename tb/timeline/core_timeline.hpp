// A DUT core's engine timeline: when the waveform settings ask for one
// (TbConfig::timeline), a Timeline of the DUT's lanes fed by a TimelinePort
// over its probe, added to the harness core once DUT time starts, so that
// the timeline's cycles are the DUT's timeline. This file names no DUT.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "timeline/timeline.hpp"
#include "timeline/timeline_port.hpp"
#include "tlm/tb_config.hpp"

namespace cosim::tb::timeline {

template <class Model, class Probe>
class CoreTimeline {
 public:
  // `lanes`: the DUT's lanes, asked for when sampling starts.
  CoreTimeline(const TbConfig* wave, std::vector<Lane> (*lanes)())
      : wanted_(wave != nullptr && wave->timeline), lanes_(lanes) {}

  // Adds the sampling port to `core` (a harness::Core) at the first call,
  // when a timeline was asked for.
  template <class Clock>
  void start(Clock& core, Probe probe) {
    if (!wanted_ || timeline_) return;
    timeline_ = std::make_unique<Timeline>(lanes_());
    port_ = std::make_unique<TimelinePort<Model, Probe>>(*timeline_, std::move(probe));
    core.add_port(*port_);
  }
  // The timeline so far; null when not sampled.
  const Timeline* get() const { return timeline_.get(); }

 private:
  bool wanted_;
  std::vector<Lane> (*lanes_)();
  std::unique_ptr<Timeline> timeline_;
  std::unique_ptr<TimelinePort<Model, Probe>> port_;
};

}  // namespace cosim::tb::timeline
