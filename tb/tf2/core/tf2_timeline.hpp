// What the engine timeline (tb/timeline) shows of the TF2 engine: the
// controller's phase, the feature and filter loaders, the PE array (busy,
// waiting for filters or for the output slot: the event pins its own
// counters count) and the writer, and who holds the AXI read port; all read
// from the debug and event pins the hang diagnosis reads too.
#pragma once

#include <cstdint>
#include <vector>

#include "timeline/timeline.hpp"

class Vtf2_top;

namespace cosim::tb::tf2 {

std::vector<timeline::Lane> timeline_lanes();

struct TimelineProbe {
  bool operator()(const Vtf2_top& m, uint32_t* values) const;  // always true
};

}  // namespace cosim::tb::tf2
