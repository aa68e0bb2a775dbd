// The binder of a DUT's control interface, chosen by the kind the generated
// binding gives it (manifest `ports`): RegBinder for the common register bus,
// AxiLiteBinder for AXI4-Lite, ApCtrlBinder for block-level control pins,
// NoControl without one. A DUT's core holds it
// like its other binders and gives it to Core as a reset binder, so its idle
// bus is driven through reset and it comes first in every cycle:
//
//   harness::ControlBinder<Model, pins::Top> ctrl;
//   harness::Core<Model, Status, pins::Top> core{"dut", wave, {&ctrl}};
//   ctrl.write(core, addr, value);  uint32_t v = ctrl.read(core, addr);
//
// run_to_done() is the host's "wait until done" for either control protocol.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "common/error.hpp"
#include "common/text.hpp"
#include "harness/ap_ctrl.hpp"
#include "harness/ap_ctrl_binder.hpp"
#include "harness/axi_lite_binder.hpp"
#include "harness/bus.hpp"
#include "harness/control_port.hpp"
#include "harness/reg_binder.hpp"

namespace cosim::tb::harness {

// A DUT whose manifest declares no control port: any register access is bad input.
template <class Model>
class NoControl final : public ControlPort<Model, NoControl<Model>> {
 public:
  void drive(Model&) override {}
  void sample(const Model&, uint64_t) override {}
  template <class Clock>
  uint32_t access(Clock& core, bool, uint32_t addr, uint32_t) {
    throw InputError(core.dut() + ": register access at " + hex(addr) + ", but the manifest declares no control port");
  }
  std::vector<std::string> errors() const { return {}; }
};

template <class Model, class Bus, class = void>
struct ControlBinderOf {
  using type = NoControl<Model>;
};
template <class Model, class Bus>
struct ControlBinderOf<Model, Bus, std::enable_if_t<Bus::kKind == BusKind::kReg>> {
  using type = RegBinder<Model, Bus>;
};
template <class Model, class Bus>
struct ControlBinderOf<Model, Bus, std::enable_if_t<Bus::kKind == BusKind::kAxi4Lite>> {
  using type = AxiLiteBinder<Model, Bus>;
};
template <class Model, class Bus>
struct ControlBinderOf<Model, Bus, std::enable_if_t<Bus::kKind == BusKind::kApCtrl>> {
  using type = ApCtrlBinder<Model, Bus>;
};
// The control binder of a generated binding's top (`Pins`: pins::Top).
template <class Model, class Pins>
using ControlBinder = typename ControlBinderOf<Model, typename Pins::Control>::type;

// Clocks `core` until the DUT finished: for the Vitis protocols (manifest
// control ap_ctrl_hs / ap_ctrl_chain) by polling CTRL for ap_done through
// `control` (harness/ap_ctrl.hpp), else core.run() on its status pins; false
// when `max_cycles` more cycles passed first.
template <class Clock, class Control>
bool run_to_done(Clock& core, Control& control, uint64_t max_cycles) {
  constexpr ControlProtocol kProtocol = Clock::Binding::kControl;
  if constexpr (kProtocol == ControlProtocol::kApCtrlHs || kProtocol == ControlProtocol::kApCtrlChain) {
    const uint64_t end = core.cycles() + max_cycles;
    return ap_ctrl::wait_done(
        kProtocol == ControlProtocol::kApCtrlChain, [&] { return core.cycles() < end; },
        [&](uint32_t a) { return control.read(core, a); }, [&](uint32_t a, uint32_t v) { control.write(core, a, v); });
  } else {
    (void)control;
    return core.run(max_cycles);
  }
}

}  // namespace cosim::tb::harness
