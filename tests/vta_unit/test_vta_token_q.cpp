// vta_token_q alone: a dependency token queue is a counter with push, pop,
// empty (avail_o low), saturation at its maximum (vta_pkg::TokenCountWidth =
// 16 bits: 65535), simultaneous push and pop, and a synchronous clear.
// Checked against a reference counter over random traffic.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "Vvta_token_q.h"
#include "verilated.h"
#pragma GCC diagnostic pop

#include "coverage/rtl_coverage.hpp"

namespace {

constexpr uint32_t kMax = 65535;  // 2^TokenCountWidth - 1

struct TokenTb {
  VerilatedContext ctx;
  Vvta_token_q dut{&ctx};
  ~TokenTb() {
    // Verilator 5.006 unregisters the model's scopes (--assert) from the
    // thread's current context: make that ours, not a destroyed one.
    Verilated::threadContextp(&ctx);
    cosim::tb::write_rtl_coverage(ctx, "vta");  // coverage builds only
  }
  TokenTb() {
    // These tests check the documented saturation and ignored pops, which the
    // queue's assertions flag as contract violations: the model is the one
    // Verilated with --assert (test_vta_unit_assert), its checks switched off.
    ctx.assertOn(false);
    dut.clk_i = 0;
    dut.rst_ni = 0;
    dut.clr_i = 0;
    dut.push_i = 0;
    dut.pop_i = 0;
    dut.eval();
    dut.rst_ni = 1;
    dut.eval();
  }
  // One cycle with the given inputs; returns with the post-edge outputs.
  void cycle(bool push, bool pop, bool clr = false) {
    dut.clk_i = 0;
    dut.push_i = push;
    dut.pop_i = pop;
    dut.clr_i = clr;
    dut.eval();
    dut.clk_i = 1;
    dut.eval();
    dut.push_i = 0;
    dut.pop_i = 0;
    dut.clr_i = 0;
    dut.clk_i = 0;
    dut.eval();
  }
};

TEST(VtaUnitTokenQ, EmptyAfterResetThenPushPop) {
  TokenTb tb;
  EXPECT_FALSE(tb.dut.avail_o);
  EXPECT_EQ(tb.dut.count_o, 0u);
  tb.cycle(true, false);
  EXPECT_TRUE(tb.dut.avail_o);
  EXPECT_EQ(tb.dut.count_o, 1u);
  tb.cycle(true, false);
  tb.cycle(true, false);
  EXPECT_EQ(tb.dut.count_o, 3u);
  tb.cycle(false, true);
  EXPECT_EQ(tb.dut.count_o, 2u);
  tb.cycle(false, true);
  tb.cycle(false, true);
  EXPECT_EQ(tb.dut.count_o, 0u);
  EXPECT_FALSE(tb.dut.avail_o);
}

TEST(VtaUnitTokenQ, PopOfEmptyQueueIsIgnored) {
  TokenTb tb;
  tb.cycle(false, true);
  EXPECT_EQ(tb.dut.count_o, 0u) << "must not wrap to the maximum";
  EXPECT_FALSE(tb.dut.avail_o);
}

TEST(VtaUnitTokenQ, SimultaneousPushAndPop) {
  TokenTb tb;
  // Empty: a push and a pop in the same cycle leave one token (nothing to
  // pop yet) -- the pop is only legal while avail_o, the push still counts.
  tb.cycle(true, true);
  EXPECT_EQ(tb.dut.count_o, 1u);
  // Non-empty: count unchanged.
  tb.cycle(true, false);
  EXPECT_EQ(tb.dut.count_o, 2u);
  for (int i = 0; i < 10; ++i) tb.cycle(true, true);
  EXPECT_EQ(tb.dut.count_o, 2u);
  EXPECT_TRUE(tb.dut.avail_o);
}

TEST(VtaUnitTokenQ, SaturatesAtMaximum) {
  TokenTb tb;
  for (uint32_t i = 0; i < kMax; ++i) tb.cycle(true, false);
  EXPECT_EQ(tb.dut.count_o, kMax);
  tb.cycle(true, false);
  EXPECT_EQ(tb.dut.count_o, kMax) << "push at the maximum is held off, no wrap to 0";
  EXPECT_TRUE(tb.dut.avail_o);
  // At the maximum a push + pop still removes one (the push is dropped).
  tb.cycle(true, true);
  EXPECT_EQ(tb.dut.count_o, kMax - 1);
  tb.cycle(true, false);
  EXPECT_EQ(tb.dut.count_o, kMax);
  for (uint32_t i = 0; i < kMax; ++i) tb.cycle(false, true);
  EXPECT_EQ(tb.dut.count_o, 0u);
  EXPECT_FALSE(tb.dut.avail_o);
}

TEST(VtaUnitTokenQ, ClearEmptiesAndWinsOverPush) {
  TokenTb tb;
  for (int i = 0; i < 5; ++i) tb.cycle(true, false);
  tb.cycle(true, false, true);
  EXPECT_EQ(tb.dut.count_o, 0u);
  EXPECT_FALSE(tb.dut.avail_o);
}

TEST(VtaUnitTokenQ, RandomTrafficMatchesACounter) {
  TokenTb tb;
  std::mt19937 g(17);
  int64_t ref = 0;
  for (int c = 0; c < 20000; ++c) {
    const bool push = g() % 2;
    const bool pop = (g() % 2) && ref > 0;  // pops only while a token is there
    tb.cycle(push, pop);
    ref += (push ? 1 : 0) - (pop ? 1 : 0);
    ASSERT_EQ(tb.dut.count_o, static_cast<uint32_t>(ref)) << "cycle " << c;
    ASSERT_EQ(bool(tb.dut.avail_o), ref > 0);
  }
}

}  // namespace
