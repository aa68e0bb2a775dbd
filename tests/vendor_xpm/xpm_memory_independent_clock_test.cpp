// The xpm_memory_sdpram and xpm_memory_tdpram stand-ins with CLOCKING_MODE
// "independent_clock" (port A on clka, port B on clkb), in four
// configurations (CMakeLists.txt):
//   sdp_ic_l1     32-bit words, 64, byte writes, READ_LATENCY_B 1,
//                 "write_first", READ_RESET_VALUE_B "DEADBEEF", MESSAGE_CONTROL 1
//   sdp_ic_l2     36-bit words, 40 (7-bit addresses reach beyond), 9-bit byte
//                 writes, latency 2 with regceb, "read_first", RST_MODE_B
//                 "ASYNC", MEMORY_INIT_PARAM "5,6,7"
//   tdp_ic_l1_l2  32-bit words, 64; A: byte writes, latency 1, "write_first";
//                 B: word writes, latency 2, "read_first"; MESSAGE_CONTROL 1
//   tdp_ic_l2_l1  36-bit words, 48 (6-bit addresses reach beyond), 9-bit byte
//                 writes; A: latency 2, "no_change", RST_MODE_A "ASYNC";
//                 B: latency 1, "write_first", READ_RESET_VALUE_B "ABC"
// Both clocks run from an EdgeSchedule (clka / clkb periods 10/7, 10/23,
// 3/10, and 10/10 and 10/5, whose edges coincide). Random traffic on both
// ports, changing before every edge of either clock, is checked after every
// edge against RamRef advancing each port on its own clock's edges only; a
// read takes the array as it is just before the reading port's edge (a write
// of the other port at that same instant not included), as documented.
// Directed tests spell the rules out.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "Vxpm_sdp_ic_l1.h"
#include "Vxpm_sdp_ic_l2.h"
#include "Vxpm_tdp_ic_l1_l2.h"
#include "Vxpm_tdp_ic_l2_l1.h"

#include "ram_test.hpp"

namespace {

using namespace cosim::vendor_xpm_test;

RamTestCfg ram(unsigned width, unsigned depth, unsigned addr_width, RamPortCfg a, RamPortCfg b,
               bool write_protect, std::vector<uint64_t> init = {}) {
  RamTestCfg c;
  c.ram.width = width;
  c.ram.depth = depth;
  c.ram.a = a;
  c.ram.b = b;
  c.ram.bypass_b = false;  // "write_first" across two clocks: no bypass
  c.ram.write_protect = write_protect;
  c.addr_width_a = c.addr_width_b = addr_width;
  c.init = std::move(init);
  return c;
}

//                                       write  read   byte lat mode                  reset       async
const RamTestCfg kSdpL1 = ram(32, 64, 6, {true, false, 8, 1, WriteMode::NoChange, 0, false},
                              {false, true, 32, 1, WriteMode::WriteFirst, 0xDEADBEEF, false}, true);
const RamTestCfg kSdpL2 = ram(36, 40, 7, {true, false, 9, 1, WriteMode::NoChange, 0, false},
                              {false, true, 36, 2, WriteMode::ReadFirst, 0, true}, true, {5, 6, 7});
const RamTestCfg kTdpL1L2 = ram(32, 64, 6, {true, true, 8, 1, WriteMode::WriteFirst, 0x1234, false},
                                {true, true, 32, 2, WriteMode::ReadFirst, 0xFFFF0000, false}, true);
const RamTestCfg kTdpL2L1 = ram(36, 48, 6, {true, true, 9, 2, WriteMode::NoChange, 0, true},
                                {true, true, 9, 1, WriteMode::WriteFirst, 0xABC, false}, true);

// clka / clkb: B faster, B slower, A faster, equal (every edge together), B
// at twice A's rate (every A edge with a B edge).
const EdgeSchedule kClocks[] = {{10, 7}, {10, 23}, {3, 10}, {10, 10}, {10, 5, 10, 5}};

// 30000 edges a schedule; each must check reads and reach reads of words the
// other port wrote since the reading port's last edge.
template <class M, class Ops>
void check_random(const RamTestCfg& c, uint64_t seed) {
  for (const EdgeSchedule& clocks : kClocks) {
    SCOPED_TRACE(clocks.describe("clka", "clkb"));
    const RamStats s = random_ram_traffic_two_clocks<M, Ops>(c, clocks, seed++, 30000);
    if (testing::Test::HasFailure()) return;
    EXPECT_GT(s.reads_checked, 10000u);
    EXPECT_GT(s.collisions, 300u);
  }
}

// MESSAGE_CONTROL 1 warns of collisions in common_clock only.
template <class M, class Ops>
void check_random_without_warnings(const RamTestCfg& c, uint64_t seed) {
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  check_random<M, Ops>(c, seed);
  const std::string out = testing::internal::GetCapturedStdout() + testing::internal::GetCapturedStderr();
  EXPECT_EQ(out.find("collision"), std::string::npos) << out.substr(0, 400);
}

TEST(XpmMemoryIndependentClock, SdpramLatency1RandomTrafficMatchesReference) {
  check_random_without_warnings<Vxpm_sdp_ic_l1, SdpOps<Vxpm_sdp_ic_l1>>(kSdpL1, 31);
}
TEST(XpmMemoryIndependentClock, SdpramLatency2AsyncResetRandomTrafficMatchesReference) {
  check_random<Vxpm_sdp_ic_l2, SdpOps<Vxpm_sdp_ic_l2>>(kSdpL2, 41);
}
TEST(XpmMemoryIndependentClock, TdpramLatency1And2RandomTrafficMatchesReference) {
  check_random_without_warnings<Vxpm_tdp_ic_l1_l2, TdpOps<Vxpm_tdp_ic_l1_l2>>(kTdpL1L2, 51);
}
TEST(XpmMemoryIndependentClock, TdpramLatency2And1AsyncResetRandomTrafficMatchesReference) {
  check_random<Vxpm_tdp_ic_l2_l1, TdpOps<Vxpm_tdp_ic_l2_l1>>(kTdpL2L1, 61);
}

RamPortIn wr(unsigned addr, uint64_t din, unsigned we = 0xF) { return {true, we, addr, din, false, true}; }
RamPortIn rd(unsigned addr) { return {true, 0, addr, 0, false, true}; }
RamPortIn idle() { return {false, 0, 0, 0, false, true}; }

// Drives a and b and takes the next edge of the schedule; which clocks rose.
template <class M>
EdgeSchedule::Edge step(Tb2<M, ClkA, ClkB>& tb, const RamPortIn& a, const RamPortIn& b) {
  TdpOps<M>::drive(tb.dut, a, b);
  const EdgeSchedule::Edge e = tb.edge();
  tb.settle();
  return e;
}

// Each port reads and writes on its own clock: clka 10, clkb 23. Port B's
// read of what A wrote waits for a clkb edge; A's edges move nothing of B.
TEST(XpmMemoryIndependentClock, EachPortRunsOnItsOwnClock) {
  Tb2<Vxpm_tdp_ic_l2_l1, ClkA, ClkB> tb(EdgeSchedule{10, 23});
  RamPortIn b_rst = rd(3);
  b_rst.rst = true;
  EXPECT_TRUE(step(tb, wr(3, 0x111111111, 0xF), b_rst).a);  // t=10: A writes 3; B (rstb) waits
  EXPECT_TRUE(step(tb, idle(), b_rst).a);                   // t=20
  EXPECT_NE(tb.dut.doutb, 0xABCu) << "rstb acts on clkb edges only";
  EXPECT_TRUE(step(tb, idle(), b_rst).b);  // t=23: B's reset
  EXPECT_EQ(tb.dut.doutb, 0xABCu) << "READ_RESET_VALUE_B on the clkb edge";
  EXPECT_TRUE(step(tb, wr(3, 0x222222222, 0x1), rd(3)).a);  // t=30: A writes lane 0 while B waits to read
  EXPECT_TRUE(step(tb, idle(), rd(3)).a);                     // t=40
  EXPECT_EQ(tb.dut.doutb, 0xABCu) << "clka edges leave doutb";
  EXPECT_TRUE(step(tb, idle(), rd(3)).b);  // t=46: B reads both of A's writes
  EXPECT_EQ(tb.dut.doutb, 0x111111022u);
  EXPECT_TRUE(step(tb, idle(), wr(4, 0x333333333, 0xF)).a);  // t=50: B's write waits for clkb
  EXPECT_TRUE(step(tb, rd(4), wr(4, 0x333333333, 0xF)).a);   // t=60: A reads 4 before it
  EXPECT_TRUE(step(tb, idle(), wr(4, 0x333333333, 0xF)).b);  // t=69: B writes 4 (write_first: doutb too)
  EXPECT_EQ(tb.dut.doutb, 0x333333333u);
  EXPECT_TRUE(step(tb, idle(), idle()).a);  // t=70: latency 2, regcea high
  EXPECT_EQ(tb.dut.douta, 0u) << "A read word 4 on the clka edge before B's write";
  EXPECT_TRUE(step(tb, rd(4), idle()).a);  // t=80
  EXPECT_TRUE(step(tb, idle(), idle()).a);  // t=90
  EXPECT_EQ(tb.dut.douta, 0x333333333u);
}

// Edges of both clocks at one instant: the reading port takes the array from
// before it, so port B does not see A's write of that instant even with
// WRITE_MODE_B "write_first" (common_clock would bypass it); the next clkb
// edge does.
TEST(XpmMemoryIndependentClock, ReadAtTheInstantOfTheOtherPortsWriteTakesTheOldWord) {
  Tb2<Vxpm_sdp_ic_l1, ClkA, ClkB> tb(EdgeSchedule{10, 10});
  auto go = [&](const RamPortIn& a, const RamPortIn& b) {
    SdpOps<Vxpm_sdp_ic_l1>::drive(tb.dut, a, b);
    tb.edge();
    tb.settle();
  };
  go(wr(2, 0x01010101), idle());
  go(wr(2, 0x000000FF, 0x1), rd(2));
  EXPECT_EQ(tb.dut.doutb, 0x01010101u) << "the word before the write of the same instant";
  go(idle(), rd(2));
  EXPECT_EQ(tb.dut.doutb, 0x010101FFu);
}

}  // namespace
