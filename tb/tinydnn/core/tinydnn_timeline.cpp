#include "tinydnn/core/tinydnn_timeline.hpp"

#include "timeline/timeline_port.hpp"  // timeline::bits
#include "dut/tinydnn_regs.hpp"

namespace cosim::tb::tinydnn {

std::vector<timeline::Lane> timeline_lanes() {
  using timeline::state_lane;
  return {state_lane("stream in (s_axis)", {"idle", "beat", "DUT not ready", "starved"}),
          state_lane("MAC pipeline", {"idle", "step"}),
          state_lane("normaliser", {"idle", "busy"}),
          state_lane("stream out (m_axis)", {"idle", "beat", "testbench not ready"})};
}

bool TimelineProbe::sample(uint64_t d, bool busy, bool mac_step, uint32_t* v) const {
  namespace dbg = cosim::tinydnn::regs::dbg_t;
  const uint32_t words[2] = {static_cast<uint32_t>(d), static_cast<uint32_t>(d >> 32)};
  v[0] = in->fire() ? 1 : in->tvalid ? 2 : (in->tready && busy) ? 3 : 0;
  v[1] = mac_step ? 1 : 0;
  v[2] = timeline::bits<dbg::kPostBusyLsb, dbg::kPostBusyWidth>(words);
  v[3] = out->fire() ? 1 : out->tvalid ? 2 : 0;
  return true;
}

}  // namespace cosim::tb::tinydnn
