// vta_token_q alone: a dependency token queue is a counter with push, pop,
// empty (avail_o low), saturation at its maximum (vta_pkg::TokenCountWidth =
// 16 bits: 65535), simultaneous push and pop, and a synchronous clear.
// Checked against a reference counter over random traffic.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "token_q_tb.hpp"

namespace {

using vta_unit::kTokenMax;

// These tests check the documented saturation and ignored pops, which the
// queue's assertions flag as contract violations: the model is the one
// Verilated with --assert (test_vta_unit_assert), its checks switched off.
struct TokenTb : vta_unit::TokenQTb {
  TokenTb() : TokenQTb(Checks::kOff) {}
};

TEST(VtaUnitTokenQ, EmptyAfterResetThenPushPop) {
  TokenTb tb;
  EXPECT_FALSE(tb.dut.avail_o);
  EXPECT_EQ(tb.dut.count_o, 0u);
  tb.step(true, false);
  EXPECT_TRUE(tb.dut.avail_o);
  EXPECT_EQ(tb.dut.count_o, 1u);
  tb.step(true, false);
  tb.step(true, false);
  EXPECT_EQ(tb.dut.count_o, 3u);
  tb.step(false, true);
  EXPECT_EQ(tb.dut.count_o, 2u);
  tb.step(false, true);
  tb.step(false, true);
  EXPECT_EQ(tb.dut.count_o, 0u);
  EXPECT_FALSE(tb.dut.avail_o);
}

TEST(VtaUnitTokenQ, PopOfEmptyQueueIsIgnored) {
  TokenTb tb;
  tb.step(false, true);
  EXPECT_EQ(tb.dut.count_o, 0u) << "must not wrap to the maximum";
  EXPECT_FALSE(tb.dut.avail_o);
}

TEST(VtaUnitTokenQ, SimultaneousPushAndPop) {
  TokenTb tb;
  // Empty: a push and a pop in the same cycle leave one token (nothing to
  // pop yet) -- the pop is only legal while avail_o, the push still counts.
  tb.step(true, true);
  EXPECT_EQ(tb.dut.count_o, 1u);
  // Non-empty: count unchanged.
  tb.step(true, false);
  EXPECT_EQ(tb.dut.count_o, 2u);
  for (int i = 0; i < 10; ++i) tb.step(true, true);
  EXPECT_EQ(tb.dut.count_o, 2u);
  EXPECT_TRUE(tb.dut.avail_o);
}

TEST(VtaUnitTokenQ, SaturatesAtMaximum) {
  TokenTb tb;
  for (uint32_t i = 0; i < kTokenMax; ++i) tb.step(true, false);
  EXPECT_EQ(tb.dut.count_o, kTokenMax);
  tb.step(true, false);
  EXPECT_EQ(tb.dut.count_o, kTokenMax) << "push at the maximum is held off, no wrap to 0";
  EXPECT_TRUE(tb.dut.avail_o);
  // At the maximum a push + pop still removes one (the push is dropped).
  tb.step(true, true);
  EXPECT_EQ(tb.dut.count_o, kTokenMax - 1);
  tb.step(true, false);
  EXPECT_EQ(tb.dut.count_o, kTokenMax);
  for (uint32_t i = 0; i < kTokenMax; ++i) tb.step(false, true);
  EXPECT_EQ(tb.dut.count_o, 0u);
  EXPECT_FALSE(tb.dut.avail_o);
}

TEST(VtaUnitTokenQ, ClearEmptiesAndWinsOverPush) {
  TokenTb tb;
  for (int i = 0; i < 5; ++i) tb.step(true, false);
  tb.step(true, false, true);
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
    tb.step(push, pop);
    ref += (push ? 1 : 0) - (pop ? 1 : 0);
    ASSERT_EQ(tb.dut.count_o, static_cast<uint32_t>(ref)) << "cycle " << c;
    ASSERT_EQ(bool(tb.dut.avail_o), ref > 0);
  }
}

}  // namespace
