// Verilator's headers go first: seen after <systemc> they switch to their
// SystemC mode, which the Verilated library was not built for.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"  // inside Verilator's headers
#include <verilated.h>

#include "V@NAME@.h"
#include "V@NAME@___024root.h"
#pragma GCC diagnostic pop
#include "dut/@NAME@_pins.hpp"
#include "harness/axi_master_binder.hpp"
#include "harness/control.hpp"
#include "harness/core.hpp"
// (blank line keeps include sorters from moving the above)

#include <sstream>

#include "@NAME@/@NAME@_wrapper.hpp"

namespace cosim::tb::@NAME@ {

namespace pins = cosim::@NAME@::pins;  // the generated binding (manifest ports)

namespace {

// The kernel's FSM (rtl/@NAME@/@NAME@.sv state_e), read through the signals
// the manifest's waiver file makes public.
const char* const kStates[] = {"StIdle", "StRead", "StWriteAddr", "StWriteData", "StWriteResp"};

// Done comes from CTRL (ap_ctrl_hs), not from a pin: harness::run_to_done polls it.
struct Status : harness::NoErrorPin {
  static bool done(const V@NAME@&) { return false; }
  static std::string diagnosis(const V@NAME@& m) {
    const unsigned st = m.rootp->@NAME@__DOT__state_q;
    std::ostringstream os;
    os << "@NAME@ in state " << (st < 5 ? kStates[st] : "?") << " with " << m.rootp->@NAME@__DOT__beats_left_q
       << " beats left, interrupt=" << int(pins::Interrupt::irq(m));
    if (st == 0) os << ": idle, ap_start was never set or the kernel finished and nobody read CTRL";
    return os.str();
  }
};

// Cycles the kernel is out of its idle state.
class BusyPort final : public harness::Port<V@NAME@> {
 public:
  void drive(V@NAME@&) override {}
  void sample(const V@NAME@& m, uint64_t) override { busy_cycles += m.rootp->@NAME@__DOT__state_q != 0; }
  uint64_t busy_cycles = 0;
};

using Gmem0 = harness::AxiMasterBinder<V@NAME@, pins::Gmem0>;
using Gmem1 = harness::AxiMasterBinder<V@NAME@, pins::Gmem1>;

}  // namespace

struct Wrapper::Impl {
  harness::ControlBinder<V@NAME@, pins::Top> ctrl;  // s_axi_control
  Gmem0 gmem0;
  Gmem1 gmem1;
  BusyPort busy;
  harness::Core<V@NAME@, Status, pins::Top> core;

  Impl(harness::AxiSlavePort& s0, harness::AxiSlavePort& s1, const TbConfig& cfg)
      : gmem0(s0), gmem1(s1), core("@NAME@", &cfg, {&ctrl}) {
    core.add_port(gmem0);
    core.add_port(gmem1);
    core.add_port(busy);
  }
};

Wrapper::Wrapper(sc_core::sc_module_name name, const TbConfig& cfg)
    : AxiDutWrapper(name, cfg,
                    {{pins::Gmem0::kName, static_cast<uint32_t>(Gmem0::kDataBytes), pins::Gmem0::kStallSeed},
                     {pins::Gmem1::kName, static_cast<uint32_t>(Gmem1::kDataBytes), pins::Gmem1::kStallSeed}}),
      impl_(std::make_unique<Impl>(axi_port(0), axi_port(1), cfg)) {
  impl_->core.start_timeline([this] { tick(); });
}

Wrapper::~Wrapper() = default;

bool Wrapper::run(uint64_t max_cycles) {
  const bool done = harness::run_to_done(impl_->core, impl_->ctrl, max_cycles);  // polls CTRL for ap_done
  sync();
  return done;
}

bool Wrapper::run_until_irq(uint64_t max_cycles) {
  const bool seen = impl_->core.run_until_irq(max_cycles);
  sync();
  return seen;
}

uint32_t Wrapper::reg_read(uint32_t offset) { return impl_->ctrl.read(impl_->core, offset); }
void Wrapper::reg_write(uint32_t offset, uint32_t value) { impl_->ctrl.write(impl_->core, offset, value); }

std::string Wrapper::dut_diagnosis() const { return impl_->core.diagnosis(); }

std::map<std::string, uint64_t> Wrapper::dut_counters() const {
  std::map<std::string, uint64_t> p = impl_->core.wave_stats();  // wave_*: moved to report.json "wave"
  p["busy_cycles"] = impl_->busy.busy_cycles;
  return p;
}

std::vector<std::string> Wrapper::dut_errors() const { return impl_->ctrl.errors(); }

}  // namespace cosim::tb::@NAME@
