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

namespace cosim::tb::tinydnn {

std::vector<timeline::Lane> timeline_lanes();

struct TimelineProbe {
  const axis::Pins* in;   // the stream pins as the AXI-Stream binder sampled them
  const axis::Pins* out;
  template <class Model>  // a Verilated variant of tinydnn_top
  bool operator()(const Model& m, uint32_t* values) const {
    return sample(m.dbg_o, m.busy_o != 0, m.mac_step_o != 0, values);
  }
  bool sample(uint64_t dbg, bool busy, bool mac_step, uint32_t* values) const;  // always true
};

}  // namespace cosim::tb::tinydnn
