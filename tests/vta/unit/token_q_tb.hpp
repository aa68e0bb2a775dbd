// vta_token_q alone (Verilated with --assert), clocked from a test: reset on
// construction, then one clock edge per step() with the given inputs. The
// context time is the cycle number; a failed assertion becomes an
// RtlAssertionError naming that cycle (tb/rtl_assert), or aborts the
// process, or is not checked at all (see Checks).
#pragma once

#include <cstdint>

#include "Vvta_token_q.h"
#include "verilated.h"

#include "coverage/rtl_coverage.hpp"
#include "rtl_assert/rtl_assert.hpp"

namespace vta_unit {

constexpr uint32_t kTokenMax = 65535;  // 2^TokenCountWidth - 1 (vta_pkg)

struct TokenQTb {
  enum class Checks {
    kThrow,  // as in the harness: the failure is thrown, the run stops
    kAbort,  // Verilator's default: the process aborts
    kOff,    // switched off at run time, for tests of behaviour outside the contract
  };

  VerilatedContext ctx;
  Vvta_token_q dut{&ctx};
  uint64_t cycle = 0;  // clock edges since reset

  explicit TokenQTb(Checks checks) {
    if (checks == Checks::kThrow) cosim::tb::catch_rtl_assertions(ctx);
    if (checks == Checks::kOff) ctx.assertOn(false);
    dut.clk_i = 0;
    dut.rst_ni = 0;
    dut.clr_i = 0;
    dut.push_i = 0;
    dut.pop_i = 0;
    dut.eval();
    dut.rst_ni = 1;
    dut.eval();
  }
  ~TokenQTb() {
    cosim::tb::before_model_destruction(ctx);
    cosim::tb::write_rtl_coverage(ctx, "vta");  // coverage builds only
  }

  // One clock edge with the given inputs, as the harness clocks a DUT;
  // returns with the post-edge outputs and the inputs back at 0.
  void step(bool push, bool pop, bool clr = false) {
    dut.clk_i = 0;
    dut.push_i = push;
    dut.pop_i = pop;
    dut.clr_i = clr;
    dut.eval();
    dut.clk_i = 1;
    ctx.time(cycle + 1);
    dut.eval();
    ++cycle;
    cosim::tb::check_rtl_assertions(ctx, "token_q", cycle);
    dut.push_i = 0;
    dut.pop_i = 0;
    dut.clr_i = 0;
    dut.clk_i = 0;
    dut.eval();
  }
};

}  // namespace vta_unit
