// The RTL assertions (Verilated with --assert) stop a run at the cycle of the
// violation: vta_token_q driven outside its contract (a pop of an empty
// queue, a push at the saturated count) through the same helpers the VTA
// harness uses (tb/rtl_assert): the failure becomes an RtlAssertionError that
// names the cycle, and Verilator's own message names the property, the file
// and the same cycle. Without the helpers a failure aborts the process.
#include <gtest/gtest.h>

#include <csignal>
#include <cstdint>
#include <random>
#include <string>

#include "rtl_assert/rtl_assert.hpp"
#include "token_q_tb.hpp"

namespace {

using vta_unit::kTokenMax;
using vta_unit::TokenQTb;

// Runs `body`, which must throw RtlAssertionError; returns it with stdout.
template <class F>
std::pair<cosim::tb::RtlAssertionError, std::string> expect_failure(F body) {
  testing::internal::CaptureStdout();
  try {
    body();
  } catch (const cosim::tb::RtlAssertionError& e) {
    fflush(stdout);
    return {e, testing::internal::GetCapturedStdout()};
  }
  fflush(stdout);
  const std::string out = testing::internal::GetCapturedStdout();
  ADD_FAILURE() << "no assertion failure; stdout: " << out;
  return {cosim::tb::RtlAssertionError("none", 0), out};
}

TEST(VtaAssert, PopOfEmptyQueueFailsAtItsCycle) {
  TokenQTb tb(TokenQTb::Checks::kThrow);
  tb.step(true, false);   // cycle 1: one token
  tb.step(true, false);   // cycle 2: two
  tb.step(false, true);   // cycle 3: one
  tb.step(false, true);   // cycle 4: empty (legal so far)
  tb.step(false, false);  // cycle 5
  auto [err, out] = expect_failure([&] { tb.step(false, true); });  // cycle 6: underflow
  EXPECT_EQ(err.cycle(), 6u);
  EXPECT_NE(std::string(err.what()).find("token_q: RTL assertion failed at cycle 6"), std::string::npos)
      << err.what();
  EXPECT_NE(out.find("[6]"), std::string::npos) << out;
  EXPECT_NE(out.find("vta_token_q.sv"), std::string::npos) << out;
  EXPECT_NE(out.find("a_no_underflow"), std::string::npos) << out;
  // The property reaches the error by name (captured from Verilator's output
  // by tb/rtl_assert/vl_print_hook), for report.json.
  EXPECT_EQ(err.info().name, "a_no_underflow") << err.info().raw;
  EXPECT_EQ(err.info().file, "vta_token_q.sv") << err.info().raw;
  EXPECT_GT(err.info().line, 0) << err.info().raw;
  EXPECT_NE(err.info().instance.find("vta_token_q"), std::string::npos) << err.info().raw;
  EXPECT_NE(std::string(err.what()).find("a_no_underflow"), std::string::npos) << err.what();
}

TEST(VtaAssert, VerilatorLineIsSplitIntoItsParts) {
  const cosim::tb::RtlAssertionInfo a = cosim::tb::parse_rtl_assertion(
      "[42] %Error: cosim_fifo_sync.sv:69: Assertion failed in TOP.vta_top.u_store.u_data.a_count_le_depth: "
      "cosim_fifo_sync: occupancy 5 beyond depth 4");
  EXPECT_EQ(a.file, "cosim_fifo_sync.sv");
  EXPECT_EQ(a.line, 69);
  EXPECT_EQ(a.name, "a_count_le_depth");
  EXPECT_EQ(a.instance, "TOP.vta_top.u_store.u_data");
  EXPECT_EQ(a.message, "cosim_fifo_sync: occupancy 5 beyond depth 4");
  const cosim::tb::RtlAssertionInfo none = cosim::tb::parse_rtl_assertion("some other line");
  EXPECT_TRUE(none.name.empty());
  EXPECT_TRUE(none.file.empty());
}

TEST(VtaAssert, PushAtSaturationFailsAtItsCycle) {
  TokenQTb tb(TokenQTb::Checks::kThrow);
  for (uint64_t i = 0; i < kTokenMax; ++i) tb.step(true, false);  // cycles 1..65535: legal
  EXPECT_EQ(tb.dut.count_o, kTokenMax);
  auto [err, out] = expect_failure([&] { tb.step(true, false); });
  EXPECT_EQ(err.cycle(), kTokenMax + 1);
  EXPECT_NE(out.find("[" + std::to_string(kTokenMax + 1) + "]"), std::string::npos) << out;
  EXPECT_NE(out.find("a_no_overflow"), std::string::npos) << out;
}

TEST(VtaAssert, LegalTrafficRaisesNothing) {
  TokenQTb tb(TokenQTb::Checks::kThrow);
  std::mt19937 g(7);
  uint64_t ref = 0;
  for (int i = 0; i < 20000; ++i) {
    const bool push = g() % 2 && ref < kTokenMax;
    const bool pop = g() % 2 && ref > 0;
    ASSERT_NO_THROW(tb.step(push, pop)) << "cycle " << tb.cycles() + 1;
    ref += (push ? 1 : 0) - (pop ? 1 : 0);
  }
  EXPECT_EQ(tb.dut.count_o, ref);
}

TEST(VtaAssertDeathTest, WithoutTheHelpersAFailureAborts) {
  // Verilator's default ($stop is fatal): the message goes to stdout and the
  // process aborts.
  EXPECT_EXIT(
      {
        TokenQTb tb(TokenQTb::Checks::kAbort);
        tb.step(false, true);
      },
      testing::KilledBySignal(SIGABRT), "");
}

}  // namespace
