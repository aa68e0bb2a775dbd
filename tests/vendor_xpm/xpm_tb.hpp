// A Verilated XPM stand-in (rtl/vendor/xpm) on its own, clocked from a test:
// inputs are set between edges, outputs read after settle(), and a
// SystemVerilog $error (the stand-ins' SIM_ASSERT_CHK checks) becomes
// cosim::tb::RtlAssertionError at the edge it happens on. The vendor names
// the clock wr_clk (FIFO) or clka (memories): Clock picks it.
#pragma once

#include <cstdint>

#include "rtl_assert/rtl_assert.hpp"

namespace cosim::vendor_xpm_test {

template <class Model, class Clock>
struct Tb {
  VerilatedContext ctx;
  Model dut{&ctx};
  uint64_t cycle = 0;

  Tb() {
    cosim::tb::catch_rtl_assertions(ctx);
    clk() = 0;
  }
  ~Tb() { cosim::tb::before_model_destruction(ctx); }

  auto& clk() { return Clock{}(dut); }

  // Settles the combinational outputs for the inputs set so far.
  void settle() {
    clk() = 0;
    dut.eval();
  }
  // One rising edge.
  void edge() {
    clk() = 0;
    dut.eval();
    clk() = 1;
    ctx.time(++cycle);
    dut.eval();
    cosim::tb::check_rtl_assertions(ctx, "vendor_xpm", cycle);
  }
};

struct WrClk {
  template <class M>
  auto& operator()(M& m) const { return m.wr_clk; }
};
struct ClkA {
  template <class M>
  auto& operator()(M& m) const { return m.clka; }
};

}  // namespace cosim::vendor_xpm_test
