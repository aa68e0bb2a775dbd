// What the engine timeline (tb/timeline) shows of the VTA core: LOAD,
// COMPUTE (GEMM, ALU and its own UOP / ACC loads apart) and STORE, each busy
// or waiting on which token queue, and the four token queues' depths; all
// read from the debug status vector (vta_pkg::status_t) that the timeout
// diagnosis decodes too. "busy" is vta_engine_status's EngBusy: it counts an
// instruction's start and done cycles as well, so the GEMM lane's busy
// cycles are the gemm_busy counter plus about two per GEMM instruction.
#pragma once

#include <cstdint>
#include <vector>

#include "timeline/timeline.hpp"

namespace cosim::tb::vta {

std::vector<timeline::Lane> timeline_lanes();

// Reads the status vector; when it did not change since the last cycle
// (most cycles: a GEMM runs for thousands), that is all it does.
// The unchanged case is inline: it is every cycle's, and a call per cycle
// was a third of the timeline's cost in the TLM testbench (callgrind).
struct TimelineProbe {
  template <class Model>  // a Verilated variant of vta_top
  bool operator()(const Model& m, uint32_t* values) {
    const uint32_t w[4] = {m.status_o[0], m.status_o[1], m.status_o[2], m.status_o[3]};
    return (*this)(w, values);
  }
  bool operator()(const uint32_t (&status)[4], uint32_t* values) {
    if (primed && status[0] == last[0] && status[1] == last[1] && status[2] == last[2] && status[3] == last[3]) {
      return false;
    }
    return changed(status, values);
  }
  uint32_t last[4] = {0, 0, 0, 0};
  bool primed = false;

 private:
  // A new status vector: kept in `last`, decoded into the lanes' values.
  bool changed(const uint32_t (&status)[4], uint32_t* values);
};

}  // namespace cosim::tb::vta
