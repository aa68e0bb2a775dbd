// A Verilated rtl/common primitive on its own, clocked from a test: inputs
// are set between edges, outputs read after eval(), assertions (Verilated
// with --assert) become cosim::tb::RtlAssertionError at the cycle they fail.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "rtl_assert/rtl_assert.hpp"

namespace cosim::rtl_common_test {

template <class Model>
struct Tb {
  VerilatedContext ctx;
  Model dut{&ctx};
  uint64_t cycle = 0;

  Tb() {
    cosim::tb::catch_rtl_assertions(ctx);
    dut.clk_i = 0;
  }
  ~Tb() { cosim::tb::before_model_destruction(ctx); }

  // Settles the combinational outputs for the inputs set so far.
  void settle() {
    dut.clk_i = 0;
    dut.eval();
  }
  // One rising edge; an assertion that failed on it throws.
  void edge() {
    dut.clk_i = 0;
    dut.eval();
    dut.clk_i = 1;
    ctx.time(++cycle);
    dut.eval();
    cosim::tb::check_rtl_assertions(ctx, "rtl_common", cycle);
  }
};

// Runs `body`, which must end in an RTL assertion failure whose message
// (Verilator's %Error line on stdout) contains `property`.
template <class F>
void expect_assertion(const std::string& property, F body) {
  testing::internal::CaptureStdout();
  bool fired = false;
  try {
    body();
  } catch (const cosim::tb::RtlAssertionError&) {
    fired = true;
  }
  fflush(stdout);
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_TRUE(fired) << "no assertion failed; stdout: " << out;
  EXPECT_NE(out.find(property), std::string::npos) << "expected " << property << " to fail; stdout: " << out;
}

}  // namespace cosim::rtl_common_test
