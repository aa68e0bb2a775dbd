// The xpm_memory_dpdistram stand-in (rtl/vendor/xpm/xpm_memory_dpdistram.sv)
// in three configurations (CMakeLists.txt):
//   dpd_cc     "common_clock", 32-bit words, 64, byte writes; A:
//              READ_LATENCY_A 1, READ_RESET_VALUE_A "1234"; B: latency 0
//   dpd_cc_l3  "common_clock", 8-bit words, 32; A: latency 3, RST_MODE_A
//              "ASYNC"; B: latency 2, READ_RESET_VALUE_B "C3";
//              MEMORY_INIT_PARAM "AB,CD,EF"
//   dpd_ic     "independent_clock", 36-bit words, 40 (7-bit addresses reach
//              beyond), 9-bit byte writes; A: latency 0; B: latency 2,
//              RST_MODE_B "ASYNC"; MEMORY_INIT_PARAM "5,6,7"
// A distributed RAM has no WRITE_MODE: a port reading the word A writes on
// the same edge gets the old word ("read_first"). Random traffic with a fixed
// seed, half of it on the address the other port uses, is checked after every
// edge against RamRef, on one clock or on two (periods 10/7, 10/23, 3/10,
// 10/10, 10/5); directed tests spell out the rules.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "Vxpm_dpd_cc.h"
#include "Vxpm_dpd_cc_l3.h"
#include "Vxpm_dpd_ic.h"

#include "ram_test.hpp"

namespace {

using namespace cosim::vendor_xpm_test;

// Port A reads and writes, B reads; both "read_first".
RamTestCfg dpd(unsigned width, unsigned depth, unsigned addr_width, unsigned byte_width, unsigned lat_a,
               uint64_t rst_a, bool async_a, unsigned lat_b, uint64_t rst_b, bool async_b,
               std::vector<uint64_t> init = {}) {
  return ram_test_cfg(width, depth, {true, true, byte_width, lat_a, WriteMode::ReadFirst, rst_a, async_a},
                      {false, true, width, lat_b, WriteMode::ReadFirst, rst_b, async_b}, addr_width, addr_width,
                      true, std::move(init));
}

const RamTestCfg kCc = dpd(32, 64, 6, 8, 1, 0x1234, false, 0, 0, false);
const RamTestCfg kCcL3 = dpd(8, 32, 5, 8, 3, 0, true, 2, 0xC3, false, {0xAB, 0xCD, 0xEF});
const RamTestCfg kIc = dpd(36, 40, 7, 9, 0, 0, false, 2, 0, true, {5, 6, 7});

TEST(XpmMemoryDpdistram, CommonClockRandomTrafficMatchesReference) {
  expect_random_traffic_matches_reference<Vxpm_dpd_cc, DpdistOps<Vxpm_dpd_cc>>(kCc, 91, 50000u, 1000u);
  expect_random_traffic_matches_reference<Vxpm_dpd_cc_l3, DpdistOps<Vxpm_dpd_cc_l3>>(kCcL3, 92, 50000u, 1000u);
}

TEST(XpmMemoryDpdistram, IndependentClockRandomTrafficMatchesReference) {
  const EdgeSchedule clocks[] = {{10, 7}, {10, 23}, {3, 10}, {10, 10}, {10, 5, 10, 5}};
  uint64_t seed = 93;
  for (const EdgeSchedule& s : clocks) {
    SCOPED_TRACE(s.describe("clka", "clkb"));
    const RamStats st = random_ram_traffic_two_clocks<Vxpm_dpd_ic, DpdistOps<Vxpm_dpd_ic>>(kIc, s, seed++, 30000);
    if (testing::Test::HasFailure()) return;
    EXPECT_GT(st.reads_checked, 20000u);
    EXPECT_GT(st.collisions, 300u) << "B reads of words A has just written";
  }
}

TEST(XpmMemoryDpdistram, InitialContents) {
  Tb<Vxpm_dpd_cc_l3, ClkA> tb;
  expect_initial_contents<DpdistOps<Vxpm_dpd_cc_l3>>(kCcL3, tb.dut, [&] { tb.edge(); }, [&] { tb.settle(); });
}

// One edge with both ports' inputs.
template <class M>
void cycle(Tb<M, ClkA>& tb, const RamPortIn& a, const RamPortIn& b) {
  DpdistOps<M>::drive(tb.dut, a, b);
  tb.edge();
}
RamPortIn wr(unsigned addr, uint64_t din, unsigned we) { return {true, we, addr, din, false, true}; }
RamPortIn rd(unsigned addr) { return {true, 0, addr, 0, false, true}; }

// A write: douta shows the word before it, doutb (latency 0) the array, so
// the new word after the edge; B reading the written word on that edge with a
// register (latency 2) gets the old word.
TEST(XpmMemoryDpdistram, ReadsAroundAWrite) {
  Tb<Vxpm_dpd_cc, ClkA> tb;
  cycle(tb, wr(4, 0x11111111, 0xF), rd(4));
  cycle(tb, wr(4, 0x22222222, 0x3), rd(4));
  tb.settle();
  EXPECT_EQ(tb.dut.douta, 0x11111111u) << "A: the word before its write";
  EXPECT_EQ(tb.dut.doutb, 0x11112222u) << "B latency 0: the array now";
  DpdistOps<Vxpm_dpd_cc>::drive(tb.dut, {true, 0, 0, 0, true, true}, rd(4));
  tb.edge();
  tb.settle();
  EXPECT_EQ(tb.dut.douta, 0x1234u) << "READ_RESET_VALUE_A";

  Tb<Vxpm_dpd_cc_l3, ClkA> l3;
  cycle(l3, wr(1, 0x99, 1), rd(1));
  cycle(l3, {false, 0, 0, 0, false, true}, {false, 0, 0, 0, true, true});  // rstb
  l3.settle();
  EXPECT_EQ(l3.dut.doutb, 0xC3u) << "READ_RESET_VALUE_B";
  cycle(l3, {false, 0, 0, 0, false, true}, rd(1));
  cycle(l3, {false, 0, 0, 0, false, true}, {false, 0, 0, 0, false, true});
  l3.settle();
  EXPECT_EQ(l3.dut.douta, 0xCDu) << "A latency 3: the word before its write";
  EXPECT_EQ(l3.dut.doutb, 0x99u) << "B latency 2: the written word";
  DpdistOps<Vxpm_dpd_cc_l3>::drive(l3.dut, {false, 0, 0, 0, true, true}, {});
  l3.settle();
  EXPECT_EQ(l3.dut.douta, 0u) << "asynchronous reset, before any edge";
}

}  // namespace
