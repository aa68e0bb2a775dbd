#include "tf2_bare/tf2_core.hpp"

#include <sstream>

// Verilator's headers are not -Wextra clean; they are not ours to fix.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "Vtf2_top.h"
#include "verilated.h"
#pragma GCC diagnostic pop
#include "harness/core.hpp"

namespace cosim::tb::tf2 {

const char* controller_state_name(unsigned s) {
  static const char* const k[] = {"StIdle", "StFetch", "StFetchWait", "StCheck", "StRun", "StDrain", "StDone"};
  return s < 7 ? k[s] : "StUnknown";
}
const char* filter_loader_state_name(unsigned s) {
  static const char* const k[] = {"StIdle", "StPrmCmd", "StPrm", "StWgtCmd", "StWgt"};
  return s < 5 ? k[s] : "StUnknown";
}
const char* writer_state_name(unsigned s) {
  static const char* const k[] = {"StIdle", "StResCmd", "StRes", "StAw", "StW"};
  return s < 5 ? k[s] : "StUnknown";
}
const char* error_code_name(unsigned c) {
  static const char* const k[] = {"none", "invalid weight code 1111", "descriptor malformed or too large",
                                  "AXI read error response", "AXI write error response"};
  return c < 5 ? k[c] : "unknown";
}

namespace {

// The event pins, counted at each rising edge.
class EventPort final : public harness::Port<Vtf2_top> {
 public:
  void drive(Vtf2_top& m) override { (void)m; }
  void sample(const Vtf2_top& m, uint64_t time) override {
    (void)time;
    if (m.busy_o) ++c.busy;
    if (m.ev_pe_busy_o) ++c.pe_busy;
    if (m.ev_filt_wait_o) ++c.filt_wait;
    if (m.ev_out_wait_o) ++c.out_wait;
  }
  EventCounts c;
};

// `host`: what the host programmed (" of N (DESC_ADDR 0x...)"), or empty.
std::string describe(const Vtf2_top& m, const std::string& host) {
  std::ostringstream os;
  const unsigned cs = m.dbg_ctrl_state_o;
  os << "tf2 controller in " << controller_state_name(cs) << " at descriptor " << m.dbg_desc_idx_o << host;
  if (cs == 0 && !m.done_o) {
    os << ": idle and not done, the start bit was never written";
  } else {
    os << ", input map " << (m.dbg_feat_loaded_o ? "loaded" : "loading") << ", next output group "
       << m.dbg_group_o << ", filter loader " << filter_loader_state_name(m.dbg_filt_state_o) << ", scheduler "
       << (m.dbg_sched_idle_o ? "idle" : "busy") << ", writer " << writer_state_name(m.dbg_wr_state_o)
       << ", read arbiter ";
    static const char* const kClients[] = {"descriptor fetch", "feature loader", "filter loader", "writer residual"};
    if (m.dbg_rd_busy_o) os << "burst in flight for the " << kClients[m.dbg_rd_owner_o & 3];
    else os << "free";
  }
  return os.str();
}

// CTRL.done; an engine error also ends the run with done. Tf2Core::diagnosis
// adds the host's descriptor registers to the units' states.
struct Tf2Status : harness::NoErrorPin {
  static bool done(const Vtf2_top& m) { return m.done_o != 0; }
  static std::string diagnosis(const Vtf2_top& m) { return describe(m, ""); }
};

}  // namespace

struct Tf2Core::Impl {
  harness::AxiMasterBinder<Vtf2_top> axi;
  EventPort events;
  harness::Core<Vtf2_top, Tf2Status> core;
  static_assert(harness::AxiMasterBinder<Vtf2_top>::kDataBytes == kAxiDataBytes);

  Impl(harness::AxiSlavePort& s, const TbConfig* wave) : axi(s), core("tf2", wave) {
    core.add_port(axi);
    core.add_port(events);
  }
};

Tf2Core::Tf2Core(harness::AxiSlavePort& slave, const TbConfig* wave) : impl_(std::make_unique<Impl>(slave, wave)) {}
Tf2Core::~Tf2Core() = default;

void Tf2Core::start_timeline(std::function<void()> after_cycle) { impl_->core.start_timeline(std::move(after_cycle)); }
void Tf2Core::cycle() { impl_->core.cycle(); }
uint32_t Tf2Core::reg_read(uint32_t offset) { return impl_->core.reg_read(offset); }
void Tf2Core::reg_write(uint32_t offset, uint32_t value) { impl_->core.reg_write(offset, value); }
bool Tf2Core::run(uint64_t max_cycles) { return impl_->core.run(max_cycles); }

HwConfig Tf2Core::read_config() {
  HwConfig hw;
  const uint32_t c = reg_read(tf2_reg::kConfig);
  hw.n_pe = c & 0xFF;
  hw.ocol3d = (c >> 8) & 0xFF;
  hw.ktap = (c >> 16) & 0xFF;
  hw.ocol2d = c >> 24;
  hw.feat_depth = reg_read(tf2_reg::kFeatDepth);
  hw.filt_depth = reg_read(tf2_reg::kFiltDepth);
  return hw;
}

bool Tf2Core::busy() const { return impl_->core.model().busy_o; }
bool Tf2Core::done() const { return impl_->core.model().done_o; }
bool Tf2Core::error() const { return impl_->core.model().error_o; }
uint32_t Tf2Core::err_info() const { return impl_->core.model().err_info_o; }

std::string Tf2Core::diagnosis(uint32_t desc_count, uint32_t desc_addr) const {
  std::ostringstream host;
  host << " of " << desc_count << " (DESC_ADDR 0x" << std::hex << desc_addr << ")";
  return describe(impl_->core.model(), host.str());
}

const EventCounts& Tf2Core::events() const { return impl_->events.c; }
uint64_t Tf2Core::time() const { return impl_->core.time(); }
std::map<std::string, uint64_t> Tf2Core::wave_stats() const { return impl_->core.wave_stats(); }

}  // namespace cosim::tb::tf2
