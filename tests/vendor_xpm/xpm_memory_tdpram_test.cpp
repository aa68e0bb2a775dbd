// The xpm_memory_tdpram stand-in (rtl/vendor/xpm/xpm_memory_tdpram.sv) in
// three configurations (CMakeLists.txt):
//   tdp_wf_rf    32-bit words, 64 of them; A: byte writes, READ_LATENCY_A 1,
//                "write_first", READ_RESET_VALUE_A "1234"; B: word writes,
//                latency 2 with regceb, "read_first", reset "FFFF0000"
//   tdp_nc_l0    36-bit words, 48 of them (6-bit addresses reach beyond),
//                9-bit byte writes; A: latency 3, "no_change"; B: latency 0
//   tdp_async    8-bit words, 256; both latency 2; A "read_first" with
//                RST_MODE_A "ASYNC"; B "no_change"; MEMORY_INIT_PARAM (the
//                vendor's example) and MESSAGE_CONTROL 1 (collision warnings)
// Random traffic with a fixed seed on both ports, half of it on the address
// the other port uses, is checked cycle by cycle against RamRef; directed
// tests spell out the documented rules.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "Vxpm_tdp_async.h"
#include "Vxpm_tdp_nc_l0.h"
#include "Vxpm_tdp_wf_rf.h"

#include "ram_test.hpp"

namespace {

using namespace cosim::vendor_xpm_test;

RamTestCfg tdp(unsigned width, unsigned depth, unsigned addr_width, RamPortCfg a, RamPortCfg b,
               std::vector<uint64_t> init = {}) {
  RamTestCfg c;
  c.ram.width = width;
  c.ram.depth = depth;
  c.ram.a = a;
  c.ram.b = b;
  c.ram.bypass_b = false;
  c.ram.write_protect = true;
  c.addr_width_a = c.addr_width_b = addr_width;
  c.init = std::move(init);
  return c;
}

//                          write read byte lat mode                   reset        async
const RamTestCfg kWfRf = tdp(32, 64, 6, {true, true, 8, 1, WriteMode::WriteFirst, 0x1234, false},
                             {true, true, 32, 2, WriteMode::ReadFirst, 0xFFFF0000, false});
const RamTestCfg kNcL0 = tdp(36, 48, 6, {true, true, 9, 3, WriteMode::NoChange, 0, false},
                             {true, true, 9, 0, WriteMode::WriteFirst, 0, false});
const RamTestCfg kAsync = tdp(8, 256, 8, {true, true, 8, 2, WriteMode::ReadFirst, 0, true},
                              {true, true, 8, 2, WriteMode::NoChange, 0, false},
                              {0xAB, 0xCD, 0xEF, 0x1, 0x2, 0x34, 0x56, 0x78});

template <class M>
void check_random(const RamTestCfg& c, uint64_t seed) {
  expect_random_traffic_matches_reference<M, TdpOps<M>>(c, seed, 60000u);
}

TEST(XpmMemoryTdpram, WriteFirstReadFirstRandomTrafficMatchesReference) {
  check_random<Vxpm_tdp_wf_rf>(kWfRf, 21);
}
TEST(XpmMemoryTdpram, NoChangeLatency0RandomTrafficMatchesReference) {
  check_random<Vxpm_tdp_nc_l0>(kNcL0, 22);
}
TEST(XpmMemoryTdpram, AsyncResetRandomTrafficMatchesReference) {
  testing::internal::CaptureStdout();  // MESSAGE_CONTROL 1: a warning per collision
  check_random<Vxpm_tdp_async>(kAsync, 23);
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find("collision"), std::string::npos);
}

// One edge with both ports' inputs.
template <class M>
void cycle(Tb<M, ClkA>& tb, const RamPortIn& a, const RamPortIn& b) {
  TdpOps<M>::drive(tb.dut, a, b);
  tb.edge();
}
RamPortIn wr(unsigned addr, uint64_t din, unsigned we = 0xF) { return {true, we, addr, din, false, true}; }
RamPortIn rd(unsigned addr) { return {true, 0, addr, 0, false, true}; }
RamPortIn idle() { return {false, 0, 0, 0, false, true}; }

// A port writing shows on its own dout the word after the write
// ("write_first"), the word before it ("read_first"), or keeps what it showed
// ("no_change").
TEST(XpmMemoryTdpram, EachPortFollowsItsWriteMode) {
  Tb<Vxpm_tdp_wf_rf, ClkA> tb;
  cycle(tb, wr(4, 0xAAAAAAAA), wr(5, 0x55555555, 1));
  cycle(tb, wr(4, 0x000000BB, 0x1), wr(5, 0x66666666, 1));
  tb.settle();
  EXPECT_EQ(tb.dut.douta, 0xAAAAAABBu) << "A write_first, latency 1: the merged new word";
  cycle(tb, idle(), idle());
  tb.settle();
  EXPECT_EQ(tb.dut.doutb, 0x55555555u) << "B read_first, latency 2: the word before the write";

  Tb<Vxpm_tdp_nc_l0, ClkA> nc;
  cycle(nc, wr(7, 0x123456789), idle());
  cycle(nc, rd(7), idle());
  cycle(nc, idle(), idle());
  cycle(nc, idle(), idle());
  nc.settle();
  EXPECT_EQ(nc.dut.douta, 0x123456789u) << "latency 3";
  for (int i = 0; i < 4; ++i) cycle(nc, wr(7, 0xFEDCBA987), idle());
  nc.settle();
  EXPECT_EQ(nc.dut.douta, 0x123456789u) << "A no_change: writes leave douta";
  TdpOps<Vxpm_tdp_nc_l0>::drive(nc.dut, idle(), {false, 0, 7, 0, false, false});
  nc.settle();
  EXPECT_EQ(nc.dut.doutb, 0xFEDCBA987u) << "B latency 0: the array, combinationally";
}

// A port reading the word the other port writes on the same edge gets the
// old word; both ports writing one word leave port B's lanes.
TEST(XpmMemoryTdpram, CollisionsBetweenThePorts) {
  Tb<Vxpm_tdp_wf_rf, ClkA> tb;
  cycle(tb, wr(9, 0x11111111), idle());
  cycle(tb, idle(), {true, 1, 9, 0x22222222, false, true});  // B writes 9 ...
  cycle(tb, rd(9), idle());
  tb.settle();
  EXPECT_EQ(tb.dut.douta, 0x22222222u);
  cycle(tb, rd(9), {true, 1, 9, 0x33333333, false, true});  // ... while A reads it
  tb.settle();
  EXPECT_EQ(tb.dut.douta, 0x22222222u) << "A reads the word before B's write";
  cycle(tb, {true, 0x3, 9, 0x44444444, false, true}, {true, 1, 9, 0x55555555, false, true});
  cycle(tb, rd(9), idle());
  tb.settle();
  EXPECT_EQ(tb.dut.douta, 0x55555555u) << "both write: B's lanes";
}

// MEMORY_INIT_PARAM "AB,CD,EF,1,2,34,56,78": word 0 is AB, word 7 is 78.
// RST_MODE_A "ASYNC": rsta clears douta at once; rstb (SYNC) sets doutb to
// READ_RESET_VALUE_B on the edge.
TEST(XpmMemoryTdpram, InitParamAndResets) {
  Tb<Vxpm_tdp_async, ClkA> tb;
  const uint64_t want[] = {0xAB, 0xCD, 0xEF, 0x1, 0x2, 0x34, 0x56, 0x78, 0, 0};
  for (unsigned addr = 0; addr < 10; ++addr) {
    cycle(tb, rd(addr), rd(9 - addr));
    cycle(tb, idle(), idle());
    tb.settle();
    EXPECT_EQ(tb.dut.douta, want[addr]) << "word " << addr;
    EXPECT_EQ(tb.dut.doutb, want[9 - addr]) << "word " << 9 - addr;
  }
  TdpOps<Vxpm_tdp_async>::drive(tb.dut, {false, 0, 0, 0, true, true}, {false, 0, 0, 0, true, true});
  tb.settle();
  EXPECT_EQ(tb.dut.douta, 0u) << "asynchronous reset, before any edge";
  EXPECT_NE(tb.dut.doutb, 0u) << "synchronous reset waits for the edge";
  tb.edge();
  tb.settle();
  EXPECT_EQ(tb.dut.doutb, 0u);
}

}  // namespace
