#include "tf2/core/tf2_core.hpp"

#include <sstream>

#include "tf2/core/tf2_core_model.hpp"  // Tf2Core::Impl (no model class)

namespace cosim::tb::tf2 {

std::string describe_err_info(uint32_t err_info) {
  namespace f = regs::err_info;
  const uint32_t code = (err_info & f::kCodeMask) >> f::kCodeLsb;
  std::ostringstream os;
  os << "code " << code << " (" << regs::err_e::show(code, true) << ") at descriptor "
     << ((err_info & f::kDescIndexMask) >> f::kDescIndexLsb);
  return os.str();
}

namespace model {

std::string describe(const DbgWords& words, bool done, const std::string& host) {
  const regs::Dbg d = regs::decode_dbg(words.w);
  std::ostringstream os;
  const unsigned cs = static_cast<unsigned>(d.ctrl_state);
  os << "tf2 controller in " << regs::ctrl_state_e::show(cs) << " at descriptor " << d.desc_idx << host;
  if (cs == regs::ctrl_state_e::kStIdle && !done) {
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

}  // namespace model

Tf2Core::Tf2Core(const Build& build, harness::AxiSlavePort& slave, const TbConfig* wave)
    : CoreHandle(build.variant, build.make(slave, wave)) {}
Tf2Core::~Tf2Core() = default;

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

bool Tf2Core::busy() const { return seam<Impl>().busy(); }
bool Tf2Core::done() const { return seam<Impl>().done(); }
bool Tf2Core::error() const { return seam<Impl>().error(); }
uint32_t Tf2Core::err_info() const { return seam<Impl>().err_info(); }

std::string Tf2Core::diagnosis(uint32_t desc_count, uint32_t desc_addr) const {
  std::ostringstream host;
  host << " of " << desc_count << " (DESC_ADDR 0x" << std::hex << desc_addr << ")";
  return seam<Impl>().diagnosis(host.str());
}

const EventCounts& Tf2Core::events() const { return seam<Impl>().events(); }
void Tf2Core::number_descriptors_from(std::size_t first) { seam<Impl>().first_desc() = first; }

}  // namespace cosim::tb::tf2
