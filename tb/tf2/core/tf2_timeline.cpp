#include "tf2/core/tf2_timeline.hpp"

#include "timeline/timeline_port.hpp"  // timeline::bits
#include "dut/tf2_regs.hpp"

namespace cosim::tb::tf2 {

namespace {

namespace ctrl = cosim::tf2::regs::ctrl_state_e;
namespace filt = cosim::tf2::regs::filt_state_e;
namespace wr = cosim::tf2::regs::wr_state_e;
namespace rd = cosim::tf2::regs::rd_client_e;
namespace dbg = cosim::tf2::regs::dbg_t;
using timeline::bits;

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

bool TimelineProbe::operator()(const DbgWords& d, uint32_t* v) const {
  const unsigned cs = bits<dbg::kCtrlStateLsb, dbg::kCtrlStateWidth>(d.w);
  const bool rd_busy = bits<dbg::kRdBusyLsb, dbg::kRdBusyWidth>(d.w);
  const unsigned owner = bits<dbg::kRdOwnerLsb, dbg::kRdOwnerWidth>(d.w);
  v[kController] = controller_phase(cs);
  v[kReadPort] = rd_busy ? owner + 1 : 0;
  // The input map loads from the descriptor check until feat_loaded.
  const bool feat_loading =
      !bits<dbg::kFeatLoadedLsb, dbg::kFeatLoadedWidth>(d.w) && cs >= ctrl::kStQinFetch && cs <= ctrl::kStDrain;
  v[kFeature] = !feat_loading                        ? 0
                : rd_busy && owner == rd::kFeature_loader ? 1
                : rd_busy                                 ? 2
                                                          : 3;
  const unsigned fs = bits<dbg::kFiltStateLsb, dbg::kFiltStateWidth>(d.w);
  const bool filt_cmd = fs == filt::kStCmd;
  v[kFilter] = fs == filt::kStIdle                                   ? 0
               : filt_cmd && rd_busy && owner != rd::kFilter_loader ? 3
               : fs == filt::kStCmd || fs == filt::kStPrm           ? 1
                                                                     : 2;
  v[kPe] = bits<dbg::kPeBusyLsb, dbg::kPeBusyWidth>(d.w)       ? 1
           : bits<dbg::kFiltWaitLsb, dbg::kFiltWaitWidth>(d.w) ? 2
           : bits<dbg::kOutWaitLsb, dbg::kOutWaitWidth>(d.w)   ? 3
                                                                : 0;
  const unsigned ws = bits<dbg::kWrStateLsb, dbg::kWrStateWidth>(d.w);
  v[kWriter] = ws == wr::kStIdle ? 0 : ws == wr::kStResCmd || ws == wr::kStRes ? 1 : 2;
  return true;
}

}  // namespace cosim::tb::tf2
