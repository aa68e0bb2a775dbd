#include "tf2/core/tf2_core.hpp"

#include <sstream>

// Verilator's headers are not -Wextra clean; they are not ours to fix.
#include "Vtf2_top.h"
#include "verilated.h"
#include "dut/tf2_pins.hpp"
#include "harness/control.hpp"
#include "harness/core.hpp"
#include "timeline/timeline_port.hpp"
#include "tf2/core/tf2_timeline.hpp"

namespace cosim::tb::tf2 {

namespace pins = cosim::tf2::pins;  // the generated binding (manifest ports)
namespace dbg = regs::dbg_t;         // the debug vector's fields (manifest `debug`)
using timeline::bits;

std::string describe_err_info(uint32_t err_info) {
  namespace f = regs::err_info;
  const uint32_t code = (err_info & f::kCodeMask) >> f::kCodeLsb;
  std::ostringstream os;
  os << "code " << code << " (" << regs::err_e::show(code, true) << ") at descriptor "
     << ((err_info & f::kDescIndexMask) >> f::kDescIndexLsb);
  return os.str();
}

namespace {

// The debug vector's events, counted at each rising edge.
class EventPort final : public harness::Port<Vtf2_top> {
 public:
  void drive(Vtf2_top& m) override { (void)m; }
  void sample(const Vtf2_top& m, uint64_t time) override {
    (void)time;
    const DbgWords d(m);
    const bool pe_busy = bits<dbg::kPeBusyLsb, dbg::kPeBusyWidth>(d.w);
    if (m.busy_o) {
      ++c.busy;
      const std::size_t i = first_desc + bits<dbg::kDescIdxLsb, dbg::kDescIdxWidth>(d.w);
      if (i >= c.desc_busy.size()) {
        c.desc_busy.resize(i + 1, 0);
        c.desc_pe_busy.resize(i + 1, 0);
      }
      ++c.desc_busy[i];
      if (pe_busy) ++c.desc_pe_busy[i];
    }
    if (pe_busy) ++c.pe_busy;
    if (bits<dbg::kFiltWaitLsb, dbg::kFiltWaitWidth>(d.w)) ++c.filt_wait;
    if (bits<dbg::kOutWaitLsb, dbg::kOutWaitWidth>(d.w)) ++c.out_wait;
  }
  EventCounts c;
  std::size_t first_desc = 0;  // the running list's first descriptor in EventCounts' numbering
};

// `host`: what the host programmed (" of N (DESC_ADDR 0x...)"), or empty.
std::string describe(const Vtf2_top& m, const std::string& host) {
  const regs::Dbg d = regs::decode_dbg(DbgWords(m).w);
  std::ostringstream os;
  const unsigned cs = static_cast<unsigned>(d.ctrl_state);
  os << "tf2 controller in " << regs::ctrl_state_e::show(cs) << " at descriptor " << d.desc_idx << host;
  if (cs == regs::ctrl_state_e::kStIdle && !m.done_o) {
    os << ": idle and not done, the start bit was never written";
  } else {
    os << ", input map " << (d.feat_loaded ? "loaded" : "loading") << ", next output group " << d.group
       << ", filter loader " << regs::filt_state_e::show(d.filt_state) << ", scheduler "
       << (d.sched_idle ? "idle" : "busy") << ", writer " << regs::wr_state_e::show(d.wr_state)
       << ", read arbiter ";
    if (d.rd_busy) os << "burst in flight for the " << regs::rd_client_e::show(d.rd_owner);
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
  harness::ControlBinder<Vtf2_top, pins::Top> ctrl;  // the register port
  harness::AxiMasterBinder<Vtf2_top, pins::Mem> axi;
  EventPort events;
  harness::Core<Vtf2_top, Tf2Status, pins::Top> core;
  bool sample_timeline;
  std::unique_ptr<timeline::Timeline> timeline;
  std::unique_ptr<timeline::TimelinePort<Vtf2_top, TimelineProbe>> timeline_port;
  static_assert(harness::AxiMasterBinder<Vtf2_top, pins::Mem>::kDataBytes == kAxiDataBytes);

  Impl(harness::AxiSlavePort& s, const TbConfig* wave)
      : axi(s), core("tf2", wave, {&ctrl}), sample_timeline(wave != nullptr && wave->timeline) {
    core.add_port(axi);
    core.add_port(events);
  }
};

Tf2Core::Tf2Core(harness::AxiSlavePort& slave, const TbConfig* wave) : impl_(std::make_unique<Impl>(slave, wave)) {}
Tf2Core::~Tf2Core() = default;

void Tf2Core::start_timeline(std::function<void()> after_cycle) {
  impl_->core.start_timeline(std::move(after_cycle));
  // Sampled from here: the timeline's cycles are the DUT's timeline.
  if (impl_->sample_timeline && !impl_->timeline) {
    impl_->timeline = std::make_unique<timeline::Timeline>(timeline_lanes());
    impl_->timeline_port =
        std::make_unique<timeline::TimelinePort<Vtf2_top, TimelineProbe>>(*impl_->timeline, TimelineProbe{});
    impl_->core.add_port(*impl_->timeline_port);
  }
}
const timeline::Timeline* Tf2Core::timeline() const { return impl_->timeline.get(); }
void Tf2Core::cycle() { impl_->core.cycle(); }
uint32_t Tf2Core::reg_read(uint32_t offset) { return impl_->ctrl.read(impl_->core, offset); }
void Tf2Core::reg_write(uint32_t offset, uint32_t value) { impl_->ctrl.write(impl_->core, offset, value); }
bool Tf2Core::run(uint64_t max_cycles) { return impl_->core.run(max_cycles); }

HwConfig Tf2Core::read_config() {
  HwConfig hw;
  namespace f = regs::config;
  const uint32_t c = reg_read(regs::kConfig);
  hw.n_pe = (c & f::kNpeMask) >> f::kNpeLsb;
  hw.ocol3d = (c & f::kOcol3dMask) >> f::kOcol3dLsb;
  hw.ktap = (c & f::kKtapMask) >> f::kKtapLsb;
  hw.ocol2d = (c & f::kOcol2dMask) >> f::kOcol2dLsb;
  hw.feat_depth = reg_read(regs::kFeatDepth);
  hw.filt_depth = reg_read(regs::kFiltDepth);
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
void Tf2Core::number_descriptors_from(std::size_t first) { impl_->events.first_desc = first; }
uint64_t Tf2Core::time() const { return impl_->core.time(); }
std::map<std::string, uint64_t> Tf2Core::wave_stats() const { return impl_->core.wave_stats(); }

}  // namespace cosim::tb::tf2
