// What the engine timeline (tb/timeline) shows of the tiny-dnn accelerator:
// the input stream (a beat, the DUT not ready, the DUT starved while busy),
// the MAC pipeline (mac_step_o, what its MAC counter counts), the
// normaliser (the debug port's post_busy) and the output stream (a beat,
// the testbench not ready).
#pragma once

#include <cstdint>
#include <vector>

#include "timeline/timeline.hpp"
#include "axis/axis_types.hpp"

class Vtinydnn_top;

namespace cosim::tb::tinydnn {

std::vector<timeline::Lane> timeline_lanes();

struct TimelineProbe {
  const axis::Pins* in;   // the stream pins as the AXI-Stream binder sampled them
  const axis::Pins* out;
  bool operator()(const Vtinydnn_top& m, uint32_t* values) const;  // always true
};

}  // namespace cosim::tb::tinydnn
