// A Verilated rtl/common primitive on its own, clocked from a test on the
// harness's clock loop (harness::Core over a ModuleBinding: the test resets
// the module): inputs are set between edges, outputs read after eval(),
// assertions (Verilated with --assert) become cosim::tb::RtlAssertionError
// at the cycle they fail.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "harness/core.hpp"
#include "harness/module_binding.hpp"
#include "rtl_assert/rtl_assert.hpp"

namespace cosim::rtl_common_test {

struct ClockPin : cosim::tb::harness::ModuleBinding {
  COSIM_PIN(clock, clk_i)
};

template <class Model>
struct Tb {
  // `name`: the model instance and the DUT an assertion failure names.
  explicit Tb(const char* name = "rtl_common") : core(name) {}

  cosim::tb::harness::Core<Model, cosim::tb::harness::NeverDone, ClockPin> core;
  Model& dut = core.model();

  // Settles the combinational outputs for the inputs set so far.
  void settle() { core.settle(); }
  // One rising edge; an assertion that failed on it throws.
  void edge() { core.cycle(); }
  // rst_ni low with the inputs at the values `idle(dut)` gives them, settled;
  // then rst_ni high, settled again.
  template <class Idle>
  void reset(Idle idle) {
    dut.rst_ni = 0;
    idle(dut);
    settle();
    dut.rst_ni = 1;
    settle();
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
