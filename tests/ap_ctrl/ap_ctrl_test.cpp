// The ap_ctrl binder (harness/ap_ctrl_binder.hpp) on a real Verilated kernel
// with block-level control pins (ap_ctrl_top.sv), through the pin bindings
// its two manifests generate: the host writes argument registers and CTRL,
// polls CTRL for ap_done (harness::run_to_done, as for an AXI4-Lite control
// port) and reads the result. What the result must be comes from the
// kernel's specification (the header of ap_ctrl_top.sv), computed here.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "harness/core.hpp"
// core.hpp first: it brings in Verilator's headers.
#include "Vap_ctrl_chain.h"
#include "Vap_ctrl_hs.h"
#include "Vap_ctrl_late.h"
#include "Vap_ctrl_pipe.h"
#include "dut/ap_ctrl_chain_pins.hpp"
#include "dut/ap_ctrl_hs_pins.hpp"
#include "dut/ap_ctrl_late_pins.hpp"
#include "dut/ap_ctrl_pipe_pins.hpp"
#include "harness/ap_ctrl.hpp"
#include "harness/control.hpp"

namespace cosim::tb::harness {
namespace {

struct Idle : NoErrorPin {
  template <class Model>
  static bool done(const Model& m) {
    return m.ap_idle != 0;
  }
  template <class Model>
  static std::string diagnosis(const Model&) {
    return "ap_ctrl_top";
  }
};

// The accumulator the kernel computes for `n` steps over the 96-bit key.
uint32_t expected_acc(uint32_t n, const uint32_t key[3]) {
  uint32_t acc = 1;
  for (uint32_t i = 0; i < n; ++i) acc = (acc * 33u) ^ key[i % 3];
  return acc;
}

// Offsets of the manifests' argument registers.
constexpr uint32_t kN = 0x10, kKey = 0x18, kResultLo = 0x28, kResultHi = 0x2c, kPeek = 0x30;

template <class Model, class Pins>
class Kernel {
 public:
  Kernel() : core("ap_ctrl_top", nullptr, {&ctrl}) { core.start_timeline(); }

  // One call: arguments, ap_start, wait for done; {runs, acc} from RESULT.
  std::pair<uint32_t, uint32_t> call(uint32_t n, const uint32_t key[3]) {
    ctrl.write(core, kN, n);
    for (uint32_t w = 0; w < 3; ++w) ctrl.write(core, kKey + 4 * w, key[w]);
    ctrl.write(core, ap_ctrl::kCtrl, ap_ctrl::kApStart);
    EXPECT_TRUE(run_to_done(core, ctrl, 10000)) << "no ap_done";
    return {ctrl.read(core, kResultHi), ctrl.read(core, kResultLo)};
  }

  ControlBinder<Model, Pins> ctrl;
  Core<Model, Idle, Pins> core;
};

template <class Model, class Pins>
void expect_calls_bit_exact() {
  Kernel<Model, Pins> k;
  const uint32_t keys[3][3] = {{0x01234567u, 0x89abcdefu, 0xdeadbeefu},
                               {0xffffffffu, 0x00000000u, 0x80000001u},
                               {0x13579bdfu, 0x2468ace0u, 0x0f0f0f0fu}};
  const uint32_t ns[3] = {7, 1000, 0};
  for (uint32_t c = 0; c < 3; ++c) {
    SCOPED_TRACE(c);
    const auto [runs, acc] = k.call(ns[c], keys[c]);
    EXPECT_EQ(runs, c + 1);  // one run per call: ap_start dropped once the kernel took it
    EXPECT_EQ(acc, expected_acc(ns[c], keys[c]));
  }
  // Idle again, and each read of CTRL cleared ap_done.
  const uint32_t ctrl = k.ctrl.read(k.core, ap_ctrl::kCtrl);
  EXPECT_EQ(ctrl & (ap_ctrl::kApDone | ap_ctrl::kApStart), 0u) << ctrl;
  EXPECT_NE(ctrl & ap_ctrl::kApIdle, 0u) << ctrl;
  EXPECT_EQ(k.ctrl.errors(), std::vector<std::string>{});
  // Three calls counted once each (under ap_ctrl_chain too, whose ap_done stays high until
  // ap_continue), their latencies n steps apart: n = 1000 the longest, n = 0 the shortest.
  const auto c = k.ctrl.counters();
  EXPECT_EQ(c.at("control.calls"), 3u);
  EXPECT_EQ(c.at("control.latency_max") - c.at("control.latency_min"), 1000u);
  EXPECT_EQ(c.at("control.latency_total"), 3 * c.at("control.latency_min") + 1007u);
}

// A call's latency runs from the first cycle ap_start is high to the one ap_done is high in (HLS's
// definition): n + 2 cycles for this kernel (the start cycle, n + 1 in Busy, the check included),
// also when ap_ready comes only in the ap_done cycle, as a dataflow kernel's does.
TEST(ApCtrl, LatencyRunsFromApStartNotApReady) {
  const uint32_t key[3] = {5, 6, 7};
  Kernel<Vap_ctrl_hs, cosim::ap_ctrl_hs::pins::Top> hs;
  Kernel<Vap_ctrl_late, cosim::ap_ctrl_late::pins::Top> late;
  EXPECT_EQ(hs.call(40, key), late.call(40, key));
  EXPECT_EQ(hs.ctrl.counters().at("control.latency_max"), 42u);
  EXPECT_EQ(late.ctrl.counters().at("control.latency_max"), 42u);
  EXPECT_EQ(late.ctrl.counters().at("control.calls"), 1u);
}

// Calls one after the other: the interval between the starts taken is the host's whole call (its
// argument writes, ap_start, the poll for ap_done), and none overlaps.
TEST(ApCtrl, SequentialCallsCountTheirIntervalAndNoOverlap) {
  const uint32_t key[3] = {5, 6, 7};
  Kernel<Vap_ctrl_hs, cosim::ap_ctrl_hs::pins::Top> k;
  k.call(40, key);
  k.call(40, key);
  const auto c = k.ctrl.counters();
  EXPECT_EQ(c.at("control.overlapped"), 0u);
  EXPECT_GT(c.at("control.interval_min"), c.at("control.latency_min"));
}

// A kernel pipelined at II=1 (ap_pipe_top.sv) called as the op `call` does with overlap: true: a
// call's argument, its ap_start, and CTRL read until ap_start reads back low (taken), then the
// next, without waiting for ap_done. Each access takes one cycle, so a start is taken every three
// cycles, each while the one before is still in the pipeline (DEPTH 4); the latency is DEPTH.
TEST(ApCtrl, OverlappingCallsCountTheirIntervalAndOverlap) {
  constexpr uint32_t kX = 0x10, kY = 0x18;
  constexpr uint32_t kCalls = 20;
  Kernel<Vap_ctrl_pipe, cosim::ap_ctrl_pipe::pins::Top> k;
  for (uint32_t c = 0; c < kCalls; ++c) {
    k.ctrl.write(k.core, kX, 1000 + c);
    k.ctrl.write(k.core, ap_ctrl::kCtrl, ap_ctrl::kApStart);
    int polls = 0;
    while ((k.ctrl.read(k.core, ap_ctrl::kCtrl) & ap_ctrl::kApStart) != 0 && polls < 100) ++polls;
    ASSERT_EQ(polls, 0) << "call " << c << ": the pipelined kernel takes a start in the cycle it sees it";
  }
  for (int i = 0; i < 10; ++i) k.core.cycle();
  const auto c = k.ctrl.counters();
  EXPECT_EQ(c.at("control.calls"), kCalls);
  EXPECT_EQ(c.at("control.latency_min"), 4u);
  EXPECT_EQ(c.at("control.latency_max"), 4u);
  EXPECT_EQ(c.at("control.interval_min"), 3u);
  EXPECT_EQ(c.at("control.interval_max"), 3u);
  EXPECT_EQ(c.at("control.overlapped"), kCalls - 1);
  EXPECT_EQ(k.ctrl.read(k.core, kY), (1000 + kCalls - 1) * 3 + 1);  // the last call's y, latched at its ap_done
  EXPECT_EQ(k.ctrl.errors(), std::vector<std::string>{});
}

TEST(ApCtrl, CallsThroughBlockLevelPinsAreBitExact) {
  expect_calls_bit_exact<Vap_ctrl_hs, cosim::ap_ctrl_hs::pins::Top>();
}

// ap_ctrl_chain: the kernel holds ap_done until ap_continue, which
// run_to_done writes after seeing it; without it the second call would
// never start.
TEST(ApCtrl, ChainedKernelIsReleasedByApContinue) {
  static_assert(cosim::ap_ctrl_chain::pins::Top::kControl == ControlProtocol::kApCtrlChain);
  expect_calls_bit_exact<Vap_ctrl_chain, cosim::ap_ctrl_chain::pins::Top>();
}

TEST(ApCtrl, WithoutApContinueAChainedKernelStaysDone) {
  Kernel<Vap_ctrl_chain, cosim::ap_ctrl_chain::pins::Top> k;
  const uint32_t key[3] = {1, 2, 3};
  k.ctrl.write(k.core, kN, 5);
  k.ctrl.write(k.core, ap_ctrl::kCtrl, ap_ctrl::kApStart);
  for (int i = 0; i < 50; ++i) k.core.cycle();
  EXPECT_NE(k.ctrl.read(k.core, ap_ctrl::kCtrl) & ap_ctrl::kApDone, 0u);
  for (int i = 0; i < 50; ++i) k.core.cycle();
  // Still done (the pin is held, so the bit is set again after its read), never idle.
  const uint32_t ctrl = k.ctrl.read(k.core, ap_ctrl::kCtrl);
  EXPECT_NE(ctrl & ap_ctrl::kApDone, 0u) << ctrl;
  EXPECT_EQ(ctrl & ap_ctrl::kApIdle, 0u) << ctrl;
  (void)key;
}

// An output pin's register reads its word as of the last ap_done, as an
// adapter latches a returned value: not the pin while the next call runs.
TEST(ApCtrl, ResultRegistersHoldTheValueAtApDone) {
  Kernel<Vap_ctrl_hs, cosim::ap_ctrl_hs::pins::Top> k;
  const uint32_t key[3] = {0x11111111u, 0x22222222u, 0x33333333u};
  const auto [runs, acc] = k.call(10, key);
  ASSERT_EQ(acc, expected_acc(10, key));
  k.ctrl.write(k.core, kN, 500);
  k.ctrl.write(k.core, ap_ctrl::kCtrl, ap_ctrl::kApStart);
  for (int i = 0; i < 100; ++i) k.core.cycle();
  ASSERT_EQ(k.ctrl.read(k.core, ap_ctrl::kCtrl) & ap_ctrl::kApIdle, 0u);  // running
  EXPECT_NE(k.core.model().result & 0xffffffffu, acc);                    // the pin moves on
  EXPECT_EQ(k.ctrl.read(k.core, kResultLo), acc);                         // the register holds
  EXPECT_EQ(k.ctrl.read(k.core, kResultHi), runs);
}

// An output pin with a valid strobe (an HLS output's ap_vld): its register
// holds the word of the cycle the strobe was high, not the pin's value at
// ap_done.
TEST(ApCtrl, AnOutputWithAValidStrobeIsLatchedWhenValid) {
  Kernel<Vap_ctrl_hs, cosim::ap_ctrl_hs::pins::Top> k;
  const uint32_t key[3] = {0x01020304u, 0x0a0b0c0du, 0x7f7f7f7fu};
  const auto [runs, acc] = k.call(9, key);
  ASSERT_EQ(acc, expected_acc(9, key));
  EXPECT_EQ(k.ctrl.read(k.core, kPeek), expected_acc(2, key));
  EXPECT_NE(expected_acc(2, key), acc);  // so the test tells the two apart
  (void)runs;
}

TEST(ApCtrl, InterruptStatusFollowsIerAndTogglesOnWrite) {
  Kernel<Vap_ctrl_hs, cosim::ap_ctrl_hs::pins::Top> k;
  k.ctrl.write(k.core, ap_ctrl::kIer, 1);  // ap_done only
  k.ctrl.write(k.core, kN, 3);
  k.ctrl.write(k.core, ap_ctrl::kCtrl, ap_ctrl::kApStart);
  ASSERT_TRUE(run_to_done(k.core, k.ctrl, 1000));
  EXPECT_EQ(k.ctrl.read(k.core, ap_ctrl::kIsr), 1u);  // done; ready not enabled
  k.ctrl.write(k.core, ap_ctrl::kIsr, 1);
  EXPECT_EQ(k.ctrl.read(k.core, ap_ctrl::kIsr), 0u);
}

TEST(ApCtrl, AnOffsetTheMapLacksIsAnError) {
  Kernel<Vap_ctrl_hs, cosim::ap_ctrl_hs::pins::Top> k;
  k.ctrl.write(k.core, 0x14, 5);
  EXPECT_EQ(k.ctrl.read(k.core, 0x40), 0u);
  EXPECT_EQ(k.ctrl.errors(), (std::vector<std::string>{
                                 "control (ap_ctrl): write of 0x5 at 0x14, where no register is",
                                 "control (ap_ctrl): read at 0x40, where no register is"}));
}

}  // namespace
}  // namespace cosim::tb::harness
