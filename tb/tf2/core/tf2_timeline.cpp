#include "tf2/core/tf2_timeline.hpp"

// Verilator's headers are not -Wextra clean; they are not ours to fix.
#include "Vtf2_top.h"
#include "dut/tf2_regs.hpp"

namespace cosim::tb::tf2 {

namespace {

namespace ctrl = cosim::tf2::regs::ctrl_state_e;
namespace filt = cosim::tf2::regs::filt_state_e;
namespace wr = cosim::tf2::regs::wr_state_e;
namespace rd = cosim::tf2::regs::rd_client_e;

enum LaneIndex : unsigned { kController, kFeature, kFilter, kPe, kWriter, kReadPort };

uint32_t controller_phase(unsigned s) {
  switch (s) {
    case ctrl::kStFetch:
    case ctrl::kStFetchWait:
    case ctrl::kStCheck: return 1;
    case ctrl::kStQinFetch:
    case ctrl::kStQinWait: return 2;
    case ctrl::kStRun: return 3;
    case ctrl::kStDrain:
    case ctrl::kStDone: return 4;
    default: return 0;
  }
}

}  // namespace

std::vector<timeline::Lane> timeline_lanes() {
  using timeline::state_lane;
  return {state_lane("controller", {"idle", "descriptor fetch", "quantiser fetch", "run", "drain"}),
          state_lane("feature loader", {"idle", "read burst", "wait read port", "loading"}),
          state_lane("filter loader", {"idle", "parameters", "weights", "wait read port"}),
          state_lane("PE array", {"idle", "busy", "wait filters", "wait output slot"}),
          state_lane("writer", {"idle", "residual read", "write"}),
          state_lane("AXI read port", {"free", "descriptors", "filters", "features", "residuals"})};
}

bool TimelineProbe::operator()(const Vtf2_top& m, uint32_t* v) const {
  const unsigned cs = m.dbg_ctrl_state_o;
  const bool rd_busy = m.dbg_rd_busy_o;
  const unsigned owner = m.dbg_rd_owner_o;
  v[kController] = controller_phase(cs);
  v[kReadPort] = rd_busy ? owner + 1 : 0;
  // The input map loads from the descriptor check until feat_loaded.
  const bool feat_loading = !m.dbg_feat_loaded_o && cs >= ctrl::kStQinFetch && cs <= ctrl::kStDrain;
  v[kFeature] = !feat_loading                        ? 0
                : rd_busy && owner == rd::kFeature_loader ? 1
                : rd_busy                                 ? 2
                                                          : 3;
  const unsigned fs = m.dbg_filt_state_o;
  const bool filt_cmd = fs == filt::kStCmd;
  v[kFilter] = fs == filt::kStIdle                                   ? 0
               : filt_cmd && rd_busy && owner != rd::kFilter_loader ? 3
               : fs == filt::kStCmd || fs == filt::kStPrm           ? 1
                                                                     : 2;
  v[kPe] = m.ev_pe_busy_o ? 1 : m.ev_filt_wait_o ? 2 : m.ev_out_wait_o ? 3 : 0;
  const unsigned ws = m.dbg_wr_state_o;
  v[kWriter] = ws == wr::kStIdle ? 0 : ws == wr::kStResCmd || ws == wr::kStRes ? 1 : 2;
  return true;
}

}  // namespace cosim::tb::tf2
