// The pin binding of a model with no manifest (one RTL module Verilated
// alone for a unit test), for harness::Core: the test names the clock pin,
//
//   struct Pins : harness::ModuleBinding { COSIM_PIN(clock, clk_i) };
//   harness::Core<Vmodule, harness::NeverDone, Pins> core("TOP");
//
// and resets the module itself (no reset port: the core only holds the
// clock low before the first cycle); no control port, no interrupt. A test
// that leaves its module's reset to the core names the port too,
//
//   struct Pins : harness::ModuleBinding {
//     COSIM_PIN(clock, clk_i)
//     COSIM_PIN(reset, rst_ni)
//     static constexpr bool kResetActiveLow = true;
//     static constexpr int kResetCycles = 0;  // 0: asserted and released with no clock edge
//   };
#pragma once

#include <string>

#include "harness/bus.hpp"

namespace cosim::tb::harness {

struct ModuleBinding {
  static constexpr int kResetCycles = 0;
  static constexpr bool kResetActiveLow = false;
  static constexpr ControlProtocol kControl = ControlProtocol::kNone;
  using Control = NoBus;
  using AxiMasters = BusList<>;
  using AxisIns = BusList<>;
  using AxisOuts = BusList<>;
  using Irqs = BusList<>;
};

// The status of a module clocked cycle by cycle from a test: Core::run is
// not used; done never, no error pin, no diagnosis.
struct NeverDone {
  template <class Model>
  static bool done(const Model&) {
    return false;
  }
  template <class Model>
  static bool error(const Model&) {
    return false;
  }
  template <class Model>
  static std::string diagnosis(const Model&) {
    return "";
  }
};

}  // namespace cosim::tb::harness
