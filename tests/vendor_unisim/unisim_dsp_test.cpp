// The DSP48E2 stand-in (rtl/vendor/unisim/DSP48E2.sv) in
// tops/unisim_dsp_top.sv: seven slices in different configurations (every
// register off; every register on; the pre-adder on B with every pin
// inverted; add/subtract of A:B and C; a two-slice PCIN cascade; a dynamic
// one with ACIN and the pre-adder on both multiplier inputs), driven with
// random data, controls, clock enables and resets, every output compared
// before and after each clock edge with a reference written here from UG579's
// tables (rtl/vendor/README.md "DSP48E2"), not from the RTL (the reference
// slice and the run are unisim_dsp_ref.hpp's, shared with DSP48E1 and DSP58).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "Vunisim_dsp_top.h"
#include "unisim_dsp_ref.hpp"

namespace {

using namespace cosim::vendor_unisim_test::dsp;
constexpr unsigned kNum = 7;  // the top's NUM
constexpr uint64_t kM48 = (1ull << 48) - 1;
const Layout kLayout{30, 18, 48, 27, 3};  // the top's InW 269, OutW 162

// A slice's attributes (the table in tops/unisim_dsp_top.sv).
std::vector<Cfg> configs() {
  std::vector<Cfg> c(kNum, Cfg{""});
  c[0].name = "combinational";
  unregistered(c[0]);
  c[0].rnd = 0x00000001FFFFull;
  c[1].name = "pipelined";
  c[1].areg = c[1].acascreg = c[1].breg = 2;
  c[1].amult_ad = true;
  c[1].rnd = 0x800000000000ull;
  c[2].name = "pre-adder on B, inverted pins";
  c[2].preadd_b = c[2].bmult_ad = true;
  c[2].creg = c[2].dreg = c[2].mreg = c[2].inmodereg = c[2].opmodereg = c[2].carryinreg = 0;
  c[2].rnd = 0x123456789ABCull;
  c[2].inv_carryin = 1;
  c[2].inv_alumode = 0x2;
  c[2].inv_inmode = 0x15;
  c[2].inv_opmode = 0x0A5;
  c[2].inv_rst = 0x3FF;
  c[3].name = "add/subtract";
  c[3].role = Role::kAddSub;
  c[3].use_mult = false;
  c[3].mreg = c[3].alumodereg = c[3].carryinselreg = c[3].adreg = 0;
  c[4].name = "cascade head";
  c[4].role = Role::kHead;
  c[4].breg = c[4].bcascreg = 2;
  c[5].name = "cascade tail";
  c[5].role = Role::kTail;
  c[5].a_cascade = c[5].b_cascade = true;
  c[5].areg = 2;
  c[6].name = "dynamic";
  c[6].a_cascade = c[6].amult_ad = c[6].bmult_ad = true;
  c[6].breg = c[6].bcascreg = 2;
  c[6].creg = c[6].adreg = c[6].alumodereg = c[6].carryinselreg = 0;
  c[6].rnd = 0xFFFFFFFF0000ull;
  return c;
}


class UnisimDsp : public ::testing::Test {
 protected:
  DspRun<Vunisim_dsp_top> run{kLayout, configs(), 0xD5B};
};

// Random everything, clock enables mostly high and rare resets: the data path
// and the control registers by their tables, every output, each cycle.
TEST_F(UnisimDsp, EveryOutputEachCycleOnRandomInputs) {
  if (!run.run(40000, 7, 64)) return;
  EXPECT_GT(run.stats.loads_p, 100000u);
  EXPECT_GT(run.stats.resets_p, 1000u);
  EXPECT_GT(run.stats.nonzero_tail, 30000u);
  EXPECT_GT(run.stats.casc_carries, 2000u);
}

// The cascade as a two-tap systolic filter, checked against the products
// themselves rather than the reference slice: every enable high, no reset,
// slice 4 M and slice 5 PCIN + M, A and B reaching slice 5 through ACOUT /
// BCOUT. With slice 4's AREG 1 and BREG 2 and slice 5's AREG 2 and BREG 1,
// after edge t slice 5's P is a(t-3) b(t-4) + a(t-4) b(t-4) (48 bits), a and b
// being slice 4's A[26:0] and B as driven before each edge.
TEST_F(UnisimDsp, CascadeSumsTwoProducts) {
  std::vector<int64_t> a, bv;
  unsigned nonzero = 0;
  for (int step = 0; step < 20000; ++step) {
    In head;
    head.a = run.g() & ut::mask(30);
    head.b = run.g() & ut::mask(18);
    head.opmode = 0x005;
    head.ce = 0x1FFF;
    In tail = head;
    tail.opmode = 0x015;
    for (unsigned n = 0; n < kNum; ++n) drive(run.b.dut.in, kLayout, n, n == 4 ? head : n == 5 ? tail : In{});
    a.push_back(sext(head.a, 27));
    bv.push_back(sext(head.b, 18));
    run.b.dut.clk = 0;
    run.b.eval();
    run.b.dut.clk = 1;
    run.b.eval();
    const size_t t = a.size() - 1;
    if (t < 5) continue;
    const uint64_t want = static_cast<uint64_t>(a[t - 3] * bv[t - 4] + a[t - 4] * bv[t - 4]) & kM48;
    ASSERT_EQ(sample(run.b.dut.out, kLayout, 5).p, want) << "after edge " << t;
    if (want) ++nonzero;
  }
  EXPECT_GT(nonzero, 19000u);
}

// Enables low half of the time and frequent resets: each register holds and
// clears on its own enable and reset.
TEST_F(UnisimDsp, EnablesAndResetsEachCycle) {
  if (!run.run(30000, 4, 6)) return;
  EXPECT_GT(run.stats.resets_p, 20000u);
}

}  // namespace
