// What the engine timeline (tb/timeline) shows of the TF2 engine: the
// controller's phase, the feature and filter loaders, the PE array (busy,
// waiting for filters or for the output slot: the events its own counters
// count) and the writer, and who holds the AXI read port; all read from the
// debug vector dbg_o (tf2.yaml `debug`: dbg_t) the hang diagnosis reads too.
#pragma once

#include <cstdint>
#include <vector>

#include "timeline/timeline.hpp"

class Vtf2_top;

namespace cosim::tb::tf2 {

std::vector<timeline::Lane> timeline_lanes();

// The debug vector dbg_o as 32-bit words (word 0 = bits 31:0), the form the
// generated decoder (dut/tf2_regs.hpp: regs::dbg_t, decode_dbg) reads.
struct DbgWords {
  explicit DbgWords(const Vtf2_top& m);
  uint32_t w[2];
};

struct TimelineProbe {
  bool operator()(const Vtf2_top& m, uint32_t* values) const;  // always true
};

}  // namespace cosim::tb::tf2
