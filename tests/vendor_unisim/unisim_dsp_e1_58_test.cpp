// The DSP48E1 and DSP58 stand-ins (rtl/vendor/unisim/DSP48E1.sv, DSP58.sv) in
// tops/unisim_dsp_e1_58_top.sv: eleven slices (DSP48E1: every register off;
// every register on with every pin inverted; no D port, dynamic; add/subtract
// of A:B and C; a two-slice cascade. DSP58: every register off with the
// pre-adder on B; every register on with every pin inverted; the INT8 dot
// product; a two-slice cascade), driven with random data, controls, NEGATE,
// clock enables and resets, every output compared before and after each
// clock edge with the reference slice of unisim_dsp_ref.hpp at each one's
// widths, written from UG479's and AM004's tables (rtl/vendor/README.md
// "DSP48E1", "DSP58"), not from the RTL.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "Vunisim_dsp_e1_58_top.h"
#include "unisim_dsp_ref.hpp"

namespace {

using namespace cosim::vendor_unisim_test::dsp;
constexpr unsigned kNum = 11;              // the top's NUM
const Layout kLayout{34, 24, 58, 27, 3};  // the top's InW 309, OutW 192

// The slices' attributes (the table in tops/unisim_dsp_e1_58_top.sv).
std::vector<Cfg> configs() {
  std::vector<Cfg> c;
  c.push_back(dsp48e1("DSP48E1 combinational"));
  unregistered(c.back());
  c.back().amult_ad = true;  // USE_DPORT "TRUE"
  c.push_back(dsp48e1("DSP48E1 pipelined, inverted pins"));
  c.back().areg = c.back().breg = c.back().bcascreg = 2;
  c.back().amult_ad = true;
  c.back().inv_carryin = 1;
  c.back().inv_alumode = 0x5;
  c.back().inv_inmode = 0x0A;
  c.back().inv_opmode = 0x35;
  c.push_back(dsp48e1("DSP48E1 no D port, dynamic"));
  c.back().creg = c.back().dreg = c.back().adreg = c.back().inmodereg = 0;
  c.back().alumodereg = c.back().carryinselreg = 0;
  c.push_back(dsp48e1("DSP48E1 add/subtract"));
  c.back().use_mult = false;
  c.back().mreg = c.back().alumodereg = c.back().carryinselreg = c.back().adreg = 0;
  c.back().role = Role::kAddSub;
  c.push_back(dsp48e1("DSP48E1 cascade head"));
  c.back().breg = c.back().bcascreg = 2;
  c.back().amult_ad = true;
  c.back().role = Role::kHead;
  c.push_back(dsp48e1("DSP48E1 cascade tail"));
  c.back().a_cascade = c.back().b_cascade = true;
  c.back().areg = 2;
  c.back().role = Role::kTail;
  c.push_back(dsp58("DSP58 combinational, pre-adder on B"));
  unregistered(c.back());
  c.back().preadd_b = c.back().bmult_ad = true;
  c.back().rnd = 0x00000001FFFFFFFull;
  c.push_back(dsp58("DSP58 pipelined, inverted pins"));
  c.back().areg = c.back().acascreg = c.back().breg = 2;
  c.back().amult_ad = true;
  c.back().rnd = 0x200000000000000ull;
  c.back().inv_carryin = 1;
  c.back().inv_alumode = 0x2;
  c.back().inv_inmode = 0x15;
  c.back().inv_negate = 0x5;
  c.back().inv_opmode = 0x0A5;
  c.back().inv_rst = 0x3FF;
  c.push_back(dsp58("DSP58 INT8"));
  c.back().int8 = true;
  c.back().a_cascade = true;
  c.back().creg = c.back().dreg = c.back().adreg = c.back().alumodereg = c.back().carryinselreg = 0;
  c.push_back(dsp58("DSP58 cascade head"));
  c.back().breg = c.back().bcascreg = 2;
  c.back().role = Role::kHead;
  c.push_back(dsp58("DSP58 cascade tail"));
  c.back().a_cascade = c.back().b_cascade = true;
  c.back().areg = 2;
  c.back().role = Role::kTail;
  return c;
}

class UnisimDspE158 : public ::testing::Test {
 protected:
  DspRun<Vunisim_dsp_e1_58_top> run{kLayout, configs(), 0xE158};
};

TEST_F(UnisimDspE158, TableMatchesTheTop) {
  ASSERT_EQ(run.ref.size(), kNum);
  EXPECT_EQ(kLayout.in_w(), 309u);
  EXPECT_EQ(kLayout.out_w(), 192u);
}

// Random everything, clock enables mostly high and rare resets: the data path
// and the control registers by their tables, every output, each cycle.
TEST_F(UnisimDspE158, EveryOutputEachCycleOnRandomInputs) {
  if (!run.run(40000, 7, 64)) return;
  EXPECT_GT(run.stats.loads_p, 300000u);
  EXPECT_GT(run.stats.resets_p, 3000u);
  EXPECT_GT(run.stats.nonzero_tail, 60000u);
  EXPECT_GT(run.stats.casc_carries, 4000u);
}

// Enables low half of the time and frequent resets: each register holds and
// clears on its own enable and reset.
TEST_F(UnisimDspE158, EnablesAndResetsEachCycle) {
  if (!run.run(30000, 4, 6)) return;
  EXPECT_GT(run.stats.resets_p, 40000u);
}

// The INT8 dot product against the three products themselves (slice 8,
// every enable high, no reset, M on X and Y, P = M): A (through ACIN), B and
// NEGATE each pass one register (AREG, BREG, INMODEREG 1), then MREG and
// PREG, so after edge t P is the sum of the lanes' products driven before
// edge t - 2, negated when NEGATE was 1 then (58 bits).
TEST_F(UnisimDspE158, Int8DotProductOfThreeLanes) {
  std::vector<int64_t> want;
  unsigned negated = 0, nonzero = 0;
  for (int step = 0; step < 20000; ++step) {
    In in;
    in.acin = run.g() & ut::mask(34);  // A_INPUT "CASCADE"
    in.b = run.g() & ut::mask(24);
    in.negate = run.g() % 2;
    in.opmode = 0x005;
    in.ce = 0x1FFF;
    int64_t dot = 0;
    for (unsigned k = 0; k < 3; ++k) dot += sext(in.acin >> (9 * k), 9) * sext(in.b >> (8 * k), 8);
    want.push_back(in.negate ? -dot : dot);
    negated += in.negate;
    for (unsigned n = 0; n < kNum; ++n) drive(run.b.dut.in, kLayout, n, n == 8 ? in : In{});
    run.b.dut.clk = 0;
    run.b.eval();
    run.b.dut.clk = 1;
    run.b.eval();
    const size_t t = want.size() - 1;
    if (t < 3) continue;
    const uint64_t p = static_cast<uint64_t>(want[t - 2]) & ut::mask(58);
    ASSERT_EQ(sample(run.b.dut.out, kLayout, 8).p, p) << "after edge " << t;
    if (p) ++nonzero;
  }
  EXPECT_GT(negated, 9000u);
  EXPECT_GT(nonzero, 19000u);
}

}  // namespace
