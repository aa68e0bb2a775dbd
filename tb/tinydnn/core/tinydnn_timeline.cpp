#include "tinydnn/core/tinydnn_timeline.hpp"

// Verilator's headers are not -Wextra clean; they are not ours to fix.
#include "Vtinydnn_top.h"
#include "timeline/timeline_port.hpp"
#include "dut/tinydnn_regs.hpp"

namespace cosim::tb::tinydnn {

std::vector<timeline::Lane> timeline_lanes() {
  using timeline::state_lane;
  return {state_lane("stream in (s_axis)", {"idle", "beat", "DUT not ready", "starved"}),
          state_lane("MAC pipeline", {"idle", "step"}),
          state_lane("normaliser", {"idle", "busy"}),
          state_lane("stream out (m_axis)", {"idle", "beat", "testbench not ready"})};
}

bool TimelineProbe::operator()(const Vtinydnn_top& m, uint32_t* v) const {
  namespace dbg = cosim::tinydnn::regs::dbg_t;
  const uint64_t d = m.dbg_o;
  const uint32_t words[2] = {static_cast<uint32_t>(d), static_cast<uint32_t>(d >> 32)};
  v[0] = in->fire() ? 1 : in->tvalid ? 2 : (in->tready && m.busy_o) ? 3 : 0;
  v[1] = m.mac_step_o ? 1 : 0;
  v[2] = timeline::bits<dbg::kPostBusyLsb, dbg::kPostBusyWidth>(words);
  v[3] = out->fire() ? 1 : out->tvalid ? 2 : 0;
  return true;
}

}  // namespace cosim::tb::tinydnn
