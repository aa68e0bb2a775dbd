// vta_token_q alone (Verilated with --assert), clocked by the harness's clock
// loop (harness::Core): reset on construction, then one clock cycle per
// step() with the given inputs. The context time is the cycle number; a
// failed assertion becomes an RtlAssertionError naming that cycle
// (tb/rtl_assert), or aborts the process, or is not checked at all (see
// Checks).
#pragma once

#include <cstdint>

#include "harness/core.hpp"
#include "harness/module_binding.hpp"
#include "harness/port.hpp"

#include "Vvta_token_q.h"

namespace vta_unit {

constexpr uint32_t kTokenMax = 65535;  // 2^TokenCountWidth - 1 (vta_pkg)

// The queue's clock and active-low reset, released again with no clock edge.
struct TokenQPins : cosim::tb::harness::ModuleBinding {
  COSIM_PIN(clock, clk_i)
  COSIM_PIN(reset, rst_ni)
  static constexpr bool kResetActiveLow = true;
  static constexpr int kResetCycles = 0;
};

// The queue's inputs for the next cycle; all low through reset.
struct TokenQInputs final : cosim::tb::harness::Port<Vvta_token_q> {
  bool push = false, pop = false, clr = false;
  void drive(Vvta_token_q& m) override {
    m.push_i = push;
    m.pop_i = pop;
    m.clr_i = clr;
  }
  void sample(const Vvta_token_q&, uint64_t) override {}
};

struct TokenQTb {
  enum class Checks {
    kThrow,  // as in the harness: the failure is thrown, the run stops
    kAbort,  // Verilator's default: the process aborts
    kOff,    // switched off at run time, for tests of behaviour outside the contract
  };

  TokenQInputs inputs;
  // "token_q" names the DUT in assertion failures; the coverage counts for vta.
  cosim::tb::harness::Core<Vvta_token_q, cosim::tb::harness::NeverDone, TokenQPins> core{"token_q", nullptr, {&inputs}};
  Vvta_token_q& dut = core.model();

  explicit TokenQTb(Checks checks) {
    core.set_coverage_name("vta");
    if (checks == Checks::kAbort) core.context().fatalOnError(true);  // the core catches them otherwise
    if (checks == Checks::kOff) core.context().assertOn(false);
  }

  uint64_t cycles() const { return core.cycles(); }  // clock edges since reset

  // One clock cycle with the given inputs, as the harness clocks a DUT;
  // returns with the post-edge outputs.
  void step(bool push, bool pop, bool clr = false) {
    inputs.push = push;
    inputs.pop = pop;
    inputs.clr = clr;
    core.cycle();
  }
};

}  // namespace vta_unit
