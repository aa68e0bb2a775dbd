// The clock buffer stand-ins (rtl/vendor/unisim/BUFG*.sv) in
// tops/unisim_bufg_top.sv: BUFG passes I; BUFGCE gates I with CE (UG974: O
// is 0 while CE is low, I while it is high), "SYNC" without glitches (CE
// latched while I is low, so O only ever shows whole high phases of I),
// "ASYNC" at once; IS_CE_INVERTED / IS_I_INVERTED invert the pins first.
// Random changes of one input at a time, checked after each.
#include <gtest/gtest.h>

#include <random>

#include "Vunisim_bufg_top.h"
#include "unisim_tb.hpp"

namespace {

namespace ut = cosim::vendor_unisim_test;

// The top's BUFGCE k: CE_TYPE "SYNC" or "ASYNC", inversions.
struct Gate {
  bool sync;
  unsigned inv_ce, inv_i;
  unsigned ce_latched = 0;  // SYNC: CE as it was when I last was low
  unsigned out(unsigned i, unsigned ce) {
    const unsigned ii = i ^ inv_i, cc = ce ^ inv_ce;
    if (!sync) return ii & cc;
    if (!ii) ce_latched = cc;
    return ii & ce_latched;
  }
};

TEST(UnisimBufg, BufgIsAWire) {
  ut::Bench<Vunisim_bufg_top> b;
  for (unsigned v : {0u, 1u, 1u, 0u, 1u}) {
    b.dut.bufg_i = v;
    b.eval();
    EXPECT_EQ(b.dut.bufg_o, v);
  }
}

TEST(UnisimBufg, BufgceGatesAsDocumented) {
  ut::Bench<Vunisim_bufg_top> b;
  Gate ref[5] = {{true, 0, 0}, {false, 0, 0}, {true, 1, 0}, {true, 0, 1}, {false, 1, 1}};
  std::mt19937_64 g(7);
  unsigned i = 0, ce = 0;
  for (unsigned k = 0; k < 5; ++k) ref[k].out(0, 0);
  b.dut.i = i;
  b.dut.ce = ce;
  b.eval();
  unsigned last_o = b.dut.o, pulses = 0, gated = 0;
  for (int step = 0; step < 20000; ++step) {
    const unsigned k = g() % 5;
    const bool change_i = ut::coin(g, 2, 3);
    (change_i ? i : ce) ^= 1u << k;
    b.dut.i = i;
    b.dut.ce = ce;
    b.eval();
    const unsigned o = b.dut.o;
    for (unsigned m = 0; m < 5; ++m) {
      const unsigned want = ref[m].out(ut::bit(i, m), ut::bit(ce, m));
      ASSERT_EQ(ut::bit(o, m), want) << "BUFGCE " << m << " at step " << step;
      // Glitch-free: a SYNC gate's O changes only with its I.
      if (ref[m].sync && ut::bit(o ^ last_o, m)) {
        ASSERT_TRUE(change_i && m == k) << "BUFGCE " << m << " (SYNC) changed with CE at step " << step;
      }
    }
    pulses += ut::bit(o & ~last_o, k);
    // A rising I that the gate held back.
    gated += change_i && ut::bit(i, k) != ref[k].inv_i && !ut::bit(o, k);
    last_o = o;
  }
  EXPECT_GT(pulses, 1000u);
  EXPECT_GT(gated, 1000u);
}

// SYNC: CE falling while I is high lets the high phase finish; CE rising
// while I is high waits for I's next rising edge. ASYNC follows CE at once.
TEST(UnisimBufg, SyncFinishesAndWaitsForWholeHighPhases) {
  ut::Bench<Vunisim_bufg_top> b;
  auto set = [&](unsigned i, unsigned ce) {
    b.dut.i = i ? 0b00011 : 0;  // gates 0 (SYNC) and 1 (ASYNC)
    b.dut.ce = ce ? 0b00011 : 0;
    b.eval();
    return b.dut.o & 3u;
  };
  EXPECT_EQ(set(0, 1), 0u);
  EXPECT_EQ(set(1, 1), 3u);
  EXPECT_EQ(set(1, 0), 1u) << "SYNC ends the high phase, ASYNC stops at once";
  EXPECT_EQ(set(0, 0), 0u);
  EXPECT_EQ(set(1, 0), 0u);
  EXPECT_EQ(set(1, 1), 2u) << "SYNC waits for the next rising edge of I, ASYNC starts at once";
  EXPECT_EQ(set(0, 1), 0u);
  EXPECT_EQ(set(1, 1), 3u);
}

}  // namespace
