// Verilator's headers go first: seen after <systemc> they switch to their
// SystemC mode, which the Verilated library was not built for.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"  // inside Verilator's headers
#include <verilated.h>

#include "V@NAME@.h"
#pragma GCC diagnostic pop
#include "@NAME@/@NAME@_status.hpp"
#include "dut/@NAME@_pins.hpp"
#include "harness/axi_master_binder.hpp"
#include "harness/control.hpp"
#include "harness/core.hpp"
// (blank line keeps include sorters from moving the above)

#include "@NAME@/@NAME@_wrapper.hpp"

namespace cosim::tb::@NAME@ {

namespace pins = cosim::@NAME@::pins;  // the generated binding (manifest ports)

namespace {

// Cycles the adder is out of its idle state.
class BusyPort final : public harness::Port<V@NAME@> {
 public:
  void drive(V@NAME@& m) override { (void)m; }
  void sample(const V@NAME@& m, uint64_t time) override {
    (void)time;
    if (m.state_o != cosim::@NAME@::regs::state_e::kStIdle) ++busy_cycles;
  }
  uint64_t busy_cycles = 0;
};

}  // namespace

// The AXI data width the slave serves: the model's m_axi_wdata_o.
constexpr uint32_t kAxiDataBytes = harness::AxiMasterBinder<V@NAME@, pins::Mem>::kDataBytes;

struct Wrapper::Impl {
  harness::ControlBinder<V@NAME@, pins::Top> ctrl;  // the register port
  harness::AxiMasterBinder<V@NAME@, pins::Mem> axi_pins;
  BusyPort busy;
  harness::Core<V@NAME@, Status, pins::Top> core;

  Impl(harness::AxiSlavePort& slave, const TbConfig& cfg) : axi_pins(slave), core("@NAME@", &cfg, {&ctrl}) {
    core.add_port(axi_pins);
    core.add_port(busy);
  }
};

Wrapper::Wrapper(sc_core::sc_module_name name, const TbConfig& cfg)
    : AxiDutWrapper(name, cfg, kAxiDataBytes), impl_(std::make_unique<Impl>(axi_port(), cfg)) {
  impl_->core.start_timeline([this] { tick(); });
}

Wrapper::~Wrapper() = default;

bool Wrapper::run(uint64_t max_cycles) {
  const bool done = impl_->core.run(max_cycles);
  sync();
  return done;
}

uint32_t Wrapper::reg_read(uint32_t offset) { return impl_->ctrl.read(impl_->core, offset); }
void Wrapper::reg_write(uint32_t offset, uint32_t value) { impl_->ctrl.write(impl_->core, offset, value); }

std::string Wrapper::dut_diagnosis() const { return impl_->core.diagnosis(); }

std::map<std::string, uint64_t> Wrapper::dut_counters() const {
  std::map<std::string, uint64_t> p = impl_->core.wave_stats();  // wave_*: moved to report.json "wave"
  p["busy_cycles"] = impl_->busy.busy_cycles;
  return p;
}

}  // namespace cosim::tb::@NAME@
