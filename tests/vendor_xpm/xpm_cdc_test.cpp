// The synchroniser stand-ins (rtl/vendor/xpm/xpm_cdc_*.sv), Verilated in the
// configurations of CMakeLists.txt, driven from two clocks of their own
// (EdgeSchedule: src_clk and dest_clk periods 10/7, 7/10, 10/10, 3/10 ...):
//   single_reg    xpm_cdc_single, DEST_SYNC_FF 4, SRC_INPUT_REG 1
//   single_noreg  xpm_cdc_single, DEST_SYNC_FF 2, SRC_INPUT_REG 0, INIT_SYNC_FF 1
//   array         xpm_cdc_array_single, 8 bits, DEST_SYNC_FF 3, SRC_INPUT_REG 1
//   gray_comb     xpm_cdc_gray, 6 bits, DEST_SYNC_FF 3, REG_OUTPUT 0
//   gray_reg      xpm_cdc_gray, 4 bits, DEST_SYNC_FF 2, REG_OUTPUT 1,
//                 SIM_LOSSLESS_GRAY_CHK 1, INIT_SYNC_FF 1
//   pulse_rst     xpm_cdc_pulse, DEST_SYNC_FF 4, REG_OUTPUT 0, RST_USED 1
//   pulse_reg     xpm_cdc_pulse, DEST_SYNC_FF 2, REG_OUTPUT 1, RST_USED 0, INIT_SYNC_FF 1
// The documented latency (rtl/vendor/README.md) is checked after every edge:
// what crosses (src_in registered on src_clk, or src_in itself without the
// source register) shows on the output after exactly DEST_SYNC_FF dest_clk
// edges (one more with REG_OUTPUT), a dest_clk edge at the same instant as
// the source's change not counting.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "Vxpm_cdc_array.h"
#include "Vxpm_cdc_gray_comb.h"
#include "Vxpm_cdc_gray_reg.h"
#include "Vxpm_cdc_pulse_reg.h"
#include "Vxpm_cdc_pulse_rst.h"
#include "Vxpm_cdc_single_noreg.h"
#include "Vxpm_cdc_single_reg.h"

#include "xpm_tb.hpp"

namespace {

namespace xt = cosim::vendor_xpm_test;
using xt::EdgeSchedule;
using xt::EdgeTimes;
using xt::History;

template <class M>
using CdcTb = xt::Tb2<M, xt::SrcClk, xt::DestClk>;

// Runs `check(tb, rng, clocks)` on a fresh model for each pair of src_clk /
// dest_clk periods: a faster and a slower source, equal clocks (every edge
// together), much faster and slower ones, and a destination at twice the rate.
template <class M, class Check>
void for_each_clock_pair(uint64_t seed, Check&& check) {
  for (const EdgeSchedule& clocks : {EdgeSchedule{10, 7}, EdgeSchedule{7, 10}, EdgeSchedule{10, 10},
                                     EdgeSchedule{3, 10}, EdgeSchedule{10, 3}, EdgeSchedule{10, 5, 10, 5}}) {
    SCOPED_TRACE(clocks.describe("src_clk", "dest_clk"));
    CdcTb<M> tb(clocks);
    std::mt19937_64 rng(seed);
    check(tb, rng, clocks);
    if (testing::Test::HasFailure()) return;
  }
}

// xpm_cdc_single / xpm_cdc_array_single: random values of src_in, each held
// for a random number of edges; dest_out after dest_clk edge k is what
// crossed just before the (k - DEST_SYNC_FF + 1)-th dest_clk edge.
template <class M>
void check_bits(unsigned stages, bool src_reg, unsigned width, bool init, uint64_t seed) {
  for_each_clock_pair<M>(seed, [&](CdcTb<M>& tb, std::mt19937_64& g, const EdgeSchedule&) {
    const uint64_t mask = (width >= 64) ? ~0ull : (1ull << width) - 1;
    tb.dut.src_in = 0;
    History crossing(0);  // src_in, or its register on src_clk
    EdgeTimes dest;
    unsigned checked = 0, changes = 0;
    uint64_t last_out = 0;
    for (int i = 0; i < 5000; ++i) {
      const EdgeSchedule::Edge e = tb.edge();
      if (e.a && src_reg) crossing.set(2 * e.time, tb.dut.src_in);
      if (e.b) dest.add(2 * e.time);
      tb.settle();
      // Until every stage has taken a value, the flops show their initial
      // values: 0 with INIT_SYNC_FF 1, the simulator's otherwise.
      if (init || dest.count() > stages + 1) {
        const uint64_t want = crossing.before(dest.sample_time(stages));
        ASSERT_EQ(tb.dut.dest_out, want) << "at " << e.time << ", after " << dest.count() << " dest_clk edges";
        ++checked;
      }
      changes += tb.dut.dest_out != last_out;
      last_out = tb.dut.dest_out;
      if (g() % 6 == 0) {  // a new value between this edge and the next
        tb.dut.src_in = g() & mask;
        if (!src_reg) crossing.set(2 * e.time + 1, tb.dut.src_in);
      }
    }
    EXPECT_GT(checked, 4000u);
    EXPECT_GT(changes, 100u);
  });
}

TEST(XpmCdc, SingleWithSourceRegisterArrivesAfterDestSyncFf) {
  check_bits<Vxpm_cdc_single_reg>(4, true, 1, false, 1);
}
TEST(XpmCdc, SingleWithoutSourceRegisterArrivesAfterDestSyncFf) {
  check_bits<Vxpm_cdc_single_noreg>(2, false, 1, true, 2);
}
TEST(XpmCdc, ArraySingleArrivesAfterDestSyncFf) { check_bits<Vxpm_cdc_array>(3, true, 8, false, 3); }

// One change of src_in, counted in edges: with the source register, the
// src_clk edge that registers it, then DEST_SYNC_FF dest_clk edges.
TEST(XpmCdc, SingleLatencyInEdges) {
  CdcTb<Vxpm_cdc_single_reg> tb(EdgeSchedule{10, 7});
  tb.dut.src_in = 0;
  for (int i = 0; i < 20; ++i) tb.edge();
  tb.settle();
  ASSERT_EQ(tb.dut.dest_out, 0);
  tb.dut.src_in = 1;
  while (!tb.edge().a) {
  }  // the src_clk edge that registers it
  unsigned dest_edges = 0;
  for (int i = 0; i < 40 && (tb.settle(), !tb.dut.dest_out); ++i) dest_edges += tb.edge().b;
  EXPECT_EQ(dest_edges, 4u);
}

// xpm_cdc_gray: a counter that steps by one (up or down) or holds, on
// src_clk; dest_out_bin after dest_clk edge k is src_in_bin as registered
// just before the (k - DEST_SYNC_FF + 1)-th dest_clk edge (k - DEST_SYNC_FF
// with REG_OUTPUT), and every value held across a dest_clk edge arrives.
template <class M>
void check_gray(unsigned stages, bool reg_output, unsigned width, uint64_t seed) {
  for_each_clock_pair<M>(seed, [&](CdcTb<M>& tb, std::mt19937_64& g, const EdgeSchedule&) {
    const uint64_t mask = (1ull << width) - 1;
    uint64_t value = 0;
    tb.dut.src_in_bin = 0;
    History registered(0);
    EdgeTimes dest;
    std::set<uint64_t> arrived;
    std::vector<uint64_t> sampled;  // what the first flop took at each dest_clk edge
    const unsigned lag = stages + (reg_output ? 1 : 0);
    for (int i = 0; i < 6000; ++i) {
      const EdgeSchedule::Edge e = tb.edge();
      if (e.a) registered.set(2 * e.time, value);
      if (e.b) {
        dest.add(2 * e.time);
        sampled.push_back(registered.before(2 * e.time));
      }
      tb.settle();
      if (dest.count() > lag) {
        const uint64_t want = registered.before(dest.sample_time(lag));
        ASSERT_EQ(tb.dut.dest_out_bin, want) << "at " << e.time;
        arrived.insert(tb.dut.dest_out_bin);
      }
      if (e.a) {  // the next value: one step, or the same
        const unsigned r = g() % 4;
        value = (r == 0) ? (value + 1) & mask : (r == 1) ? (value - 1) & mask : value;
        tb.dut.src_in_bin = value;
      }
    }
    // Every value the first flop took has arrived, but for the last ones, still on their way.
    for (std::size_t k = 0; k + lag < sampled.size(); ++k) EXPECT_EQ(arrived.count(sampled[k]), 1u) << sampled[k];
    EXPECT_GT(arrived.size(), mask / 2);
  });
}

TEST(XpmCdc, GrayArrivesAfterDestSyncFf) { check_gray<Vxpm_cdc_gray_comb>(3, false, 6, 4); }
TEST(XpmCdc, GrayWithRegOutputArrivesOneEdgeLater) { check_gray<Vxpm_cdc_gray_reg>(2, true, 4, 5); }

// SIM_LOSSLESS_GRAY_CHK 1: a step of two is an error on src_clk.
TEST(XpmCdc, GrayLosslessCheckReportsAStepOfTwo) {
  CdcTb<Vxpm_cdc_gray_reg> tb(EdgeSchedule{10, 7});
  tb.dut.src_in_bin = 3;
  for (int i = 0; i < 10; ++i) tb.edge();
  tb.dut.src_in_bin = 4;  // one step: fine
  for (int i = 0; i < 10; ++i) tb.edge();
  tb.dut.src_in_bin = 6;
  const auto r = xt::expect_rtl_error([&tb] {
    while (!tb.edge().a) {
    }
  });
  EXPECT_TRUE(r.fired) << r.output;
  EXPECT_NE(r.output.find("src_in_bin went from 4 to 6"), std::string::npos) << r.output;
}

// xpm_cdc_pulse: pulses of one to three src_clk cycles with the documented
// gap (2 periods of the slower clock, here more); each rising edge of
// src_pulse seen on src_clk edge s gives dest_pulse high for exactly the one
// dest_clk cycle after the DEST_SYNC_FF-th dest_clk edge after s (one more
// edge with REG_OUTPUT).
template <class M>
void check_pulse(unsigned stages, bool reg_output, bool rst_used, uint64_t seed) {
  for_each_clock_pair<M>(seed, [&](CdcTb<M>& tb, std::mt19937_64& g, const EdgeSchedule& clocks) {
    const uint64_t slow = std::max(clocks.period_a(), clocks.period_b());
    tb.dut.src_pulse = 0;
    tb.dut.src_rst = rst_used;
    tb.dut.dest_rst = rst_used;
    // The documented reset: both resets for (DEST_SYNC_FF + 2) dest_clk and 2
    // src_clk periods; without reset, INIT_SYNC_FF starts the flops at 0.
    for (int i = 0; i < 40; ++i) tb.edge();
    tb.dut.src_rst = 0;
    tb.dut.dest_rst = 0;
    History toggle(0);  // the source side's toggle register
    EdgeTimes dest;
    const unsigned lag = stages + (reg_output ? 1 : 0);
    bool level_q = false;  // src_pulse at the last src_clk edge
    unsigned len = 0, sent = 0, got = 0;
    uint64_t quiet_until = 0;  // the next pulse may start after this time
    for (int i = 0; i < 8000; ++i) {
      const EdgeSchedule::Edge e = tb.edge();
      if (e.a) {
        if (tb.dut.src_pulse && !level_q) {
          toggle.set(2 * e.time, toggle.now() ^ 1);
          ++sent;
        }
        level_q = tb.dut.src_pulse;
      }
      if (e.b) dest.add(2 * e.time);
      tb.settle();
      if (dest.count() > lag + 1) {
        const uint64_t now = toggle.before(dest.sample_time(lag));
        const uint64_t prev = toggle.before(dest.sample_time(lag + 1));
        ASSERT_EQ(tb.dut.dest_pulse, now ^ prev) << "at " << e.time;
      }
      if (e.b) got += tb.dut.dest_pulse;  // high for one dest_clk cycle per pulse
      if (e.a) {  // the next src_pulse level
        if (len > 0) {
          if (--len == 0) {
            tb.dut.src_pulse = 0;
            quiet_until = e.time + 3 * slow;
          }
        } else if (e.time >= quiet_until && g() % 3 == 0) {
          len = 1 + static_cast<unsigned>(g() % 3);
          tb.dut.src_pulse = 1;
        }
      }
    }
    EXPECT_GT(sent, 100u);
    EXPECT_LE(sent - got, 1u) << "pulses lost (the last may be on its way)";
  });
}

TEST(XpmCdc, PulseArrivesAsOneDestCycle) { check_pulse<Vxpm_cdc_pulse_rst>(4, false, true, 6); }
TEST(XpmCdc, PulseWithRegOutputArrivesOneEdgeLater) { check_pulse<Vxpm_cdc_pulse_reg>(2, true, false, 7); }

// RST_USED 1: src_rst and dest_rst together clear a pulse on its way.
TEST(XpmCdc, PulseResetClearsAPulseOnItsWay) {
  CdcTb<Vxpm_cdc_pulse_rst> tb(EdgeSchedule{10, 7});
  tb.dut.src_rst = 1;
  tb.dut.dest_rst = 1;
  tb.dut.src_pulse = 0;
  for (int i = 0; i < 20; ++i) tb.edge();
  tb.dut.src_rst = 0;
  tb.dut.dest_rst = 0;
  for (int i = 0; i < 10; ++i) tb.edge();
  tb.dut.src_pulse = 1;
  while (!tb.edge().a) {
  }
  tb.dut.src_pulse = 0;
  tb.dut.src_rst = 1;  // the pulse is on its way: reset both sides
  tb.dut.dest_rst = 1;
  for (int i = 0; i < 20; ++i) {
    tb.edge();
    tb.settle();
    EXPECT_FALSE(tb.dut.dest_pulse) << i;
  }
  tb.dut.src_rst = 0;
  tb.dut.dest_rst = 0;
  for (int i = 0; i < 30; ++i) {
    tb.edge();
    tb.settle();
    EXPECT_FALSE(tb.dut.dest_pulse) << "after reset " << i;
  }
}

}  // namespace
