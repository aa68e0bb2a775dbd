// The xpm_memory_sdpram stand-in (rtl/vendor/xpm/xpm_memory_sdpram.sv) in four
// configurations (CMakeLists.txt):
//   sdp_l1_wf     32-bit words, 64 of them, byte writes, READ_LATENCY_B 1,
//                 WRITE_MODE_B "write_first", READ_RESET_VALUE_B "DEADBEEF"
//   sdp_l2_rf     36-bit words, 40 of them (7-bit addresses reach beyond),
//                 9-bit byte writes, latency 2 with regceb, "read_first"
//   sdp_l0        16-bit words, 32, word writes, latency 0 (distributed),
//                 MEMORY_INIT_PARAM "1,2,3,ABCD"
//   sdp_l3_async  64-bit words, 16, byte writes, latency 3, RST_MODE_B
//                 "ASYNC", WRITE_PROTECT 0, MEMORY_INIT_FILE data/ram16x64.mem
// Random traffic with a fixed seed, half of it on the address the other port
// uses, is checked cycle by cycle against RamRef (an array and the read
// pipeline); directed tests spell out the documented rules.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "Vxpm_sdp_l0.h"
#include "Vxpm_sdp_l1_wf.h"
#include "Vxpm_sdp_l2_rf.h"
#include "Vxpm_sdp_l3_async.h"

#include "ram_test.hpp"

namespace {

using namespace cosim::vendor_xpm_test;

// The configurations, as the CMakeLists passes them. Port A writes, B reads.
RamTestCfg sdp(unsigned width, unsigned depth, unsigned byte_width, unsigned latency, WriteMode mode,
               uint64_t rst_val, bool async_rst, bool write_protect, unsigned addr_width,
               std::vector<uint64_t> init = {}) {
  RamTestCfg c;
  c.ram.width = width;
  c.ram.depth = depth;
  c.ram.a = {true, false, byte_width, 1, WriteMode::NoChange, 0, false};
  c.ram.b = {false, true, width, latency, mode, rst_val, async_rst};
  c.ram.bypass_b = mode == WriteMode::WriteFirst;
  c.ram.write_protect = write_protect;
  c.addr_width_a = c.addr_width_b = addr_width;
  c.init = std::move(init);
  return c;
}

const std::vector<uint64_t>& kInitFile = kRam16x64Words;

const RamTestCfg kL1Wf = sdp(32, 64, 8, 1, WriteMode::WriteFirst, 0xDEADBEEF, false, true, 6);
const RamTestCfg kL2Rf = sdp(36, 40, 9, 2, WriteMode::ReadFirst, 0xABC, false, true, 7);
const RamTestCfg kL0 = sdp(16, 32, 16, 0, WriteMode::ReadFirst, 0, false, true, 5, {1, 2, 3, 0xABCD});
const RamTestCfg kL3Async = sdp(64, 16, 8, 3, WriteMode::NoChange, 0, true, false, 4, kInitFile);

template <class M>
void check_random(const RamTestCfg& c, uint64_t seed) {
  expect_random_traffic_matches_reference<M, SdpOps<M>>(c, seed, 30000u);
}

TEST(XpmMemorySdpram, Latency1WriteFirstRandomTrafficMatchesReference) {
  check_random<Vxpm_sdp_l1_wf>(kL1Wf, 11);
}
TEST(XpmMemorySdpram, Latency2ReadFirstRandomTrafficMatchesReference) {
  check_random<Vxpm_sdp_l2_rf>(kL2Rf, 12);
}
TEST(XpmMemorySdpram, Latency0RandomTrafficMatchesReference) {
  check_random<Vxpm_sdp_l0>(kL0, 13);
}
TEST(XpmMemorySdpram, Latency3AsyncResetRandomTrafficMatchesReference) {
  check_random<Vxpm_sdp_l3_async>(kL3Async, 14);
}

// Helpers for the directed tests: one edge with port A writing and/or port B
// reading.
template <class M>
void cycle(Tb<M, ClkA>& tb, bool ena, unsigned wea, unsigned addra, uint64_t dina, bool enb,
           unsigned addrb, bool rstb = false, bool regceb = true) {
  RamPortIn a{ena, wea, addra, dina, false, false}, b{enb, 0, addrb, 0, rstb, regceb};
  SdpOps<M>::drive(tb.dut, a, b);
  tb.edge();
}

// cycle(), then doutb once the outputs have settled after that edge.
template <class M, class... Args>
uint64_t doutb_after(Tb<M, ClkA>& tb, Args... cycle_args) {
  cycle(tb, cycle_args...);
  tb.settle();
  return tb.dut.doutb;
}

// doutb shows a read READ_LATENCY_B edges after the edge that starts it.
TEST(XpmMemorySdpram, DoutbFollowsTheReadAfterReadLatencyB) {
  {
    Tb<Vxpm_sdp_l1_wf, ClkA> tb;
    cycle(tb, true, 0xF, 5, 0x11223344, false, 0);
    EXPECT_EQ(doutb_after(tb, false, 0, 0, 0, true, 5), 0x11223344u) << "latency 1: one edge";
  }
  {
    Tb<Vxpm_sdp_l2_rf, ClkA> tb;
    // rstb high: doutb = "ABC"
    EXPECT_EQ(doutb_after(tb, true, 0xF, 5, 0x123456789, false, 0, true), 0xABCu) << "READ_RESET_VALUE_B";
    // The read, regceb low:
    EXPECT_EQ(doutb_after(tb, false, 0, 0, 0, true, 5, false, false), 0xABCu) << "latency 2: not after one edge";
    EXPECT_EQ(doutb_after(tb, false, 0, 0, 0, false, 0, false, false), 0xABCu)
        << "regceb low holds the output register";
    EXPECT_EQ(doutb_after(tb, false, 0, 0, 0, false, 0), 0x123456789u) << "regceb high: the latched word";
  }
  {
    Tb<Vxpm_sdp_l0, ClkA> tb;
    SdpOps<Vxpm_sdp_l0>::drive(tb.dut, {false, 0, 0, 0}, {false, 0, 3, 0});
    tb.settle();
    EXPECT_EQ(tb.dut.doutb, 0xABCDu) << "latency 0: combinational, MEMORY_INIT_PARAM word 3";
    EXPECT_EQ(doutb_after(tb, true, 1, 3, 0x5555, false, 3), 0x5555u) << "latency 0 shows the array as it is";
  }
}

// wea has one bit per BYTE_WRITE_WIDTH_A lane.
TEST(XpmMemorySdpram, ByteWritesChangeOnlyTheirLanes) {
  Tb<Vxpm_sdp_l1_wf, ClkA> tb;
  cycle(tb, true, 0xF, 9, 0xAABBCCDD, false, 0);
  cycle(tb, true, 0x2, 9, 0x11223344, false, 0);  // bits 15:8 only
  EXPECT_EQ(doutb_after(tb, false, 0, 0, 0, true, 9), 0xAABB33DDu);
}

// Port B reading the word port A writes on the same edge: the new word with
// WRITE_MODE_B "write_first", the old word with "read_first".
TEST(XpmMemorySdpram, SameAddressReadFollowsWriteModeB) {
  {
    Tb<Vxpm_sdp_l1_wf, ClkA> tb;
    cycle(tb, true, 0xF, 2, 0x01010101, false, 0);
    EXPECT_EQ(doutb_after(tb, true, 0x1, 2, 0x000000FF, true, 2), 0x010101FFu) << "write_first";
  }
  {
    Tb<Vxpm_sdp_l2_rf, ClkA> tb;
    cycle(tb, true, 0xF, 2, 0x101010101, false, 0);
    cycle(tb, true, 0xF, 2, 0x0FFFFFFFF, true, 2);
    EXPECT_EQ(doutb_after(tb, false, 0, 0, 0, false, 0), 0x101010101u) << "read_first";
  }
}

// MEMORY_INIT_FILE: the words of the file from address 0, zeros after.
// WRITE_PROTECT 0: a write needs wea only. RST_MODE_B "ASYNC": rstb clears
// doutb at once, to zero.
TEST(XpmMemorySdpram, InitFileWriteProtectOffAndAsyncReset) {
  Tb<Vxpm_sdp_l3_async, ClkA> tb;
  for (unsigned addr = 0; addr < 16; ++addr) {
    cycle(tb, false, 0, 0, 0, true, addr);
    cycle(tb, false, 0, 0, 0, false, 0);
    EXPECT_EQ(doutb_after(tb, false, 0, 0, 0, false, 0), addr < kInitFile.size() ? kInitFile[addr] : 0)
        << "word " << addr;
  }
  cycle(tb, false, 0xFF, 15, 0x0123456789ABCDEF, false, 0);  // ena low
  cycle(tb, false, 0, 0, 0, true, 15);
  cycle(tb, false, 0, 0, 0, false, 0);
  EXPECT_EQ(doutb_after(tb, false, 0, 0, 0, false, 0), 0x0123456789ABCDEFu) << "written without ena";
  SdpOps<Vxpm_sdp_l3_async>::drive(tb.dut, {false, 0, 0, 0}, {false, 0, 0, 0, true, true});
  tb.settle();  // no edge
  EXPECT_EQ(tb.dut.doutb, 0u) << "asynchronous reset";
}

}  // namespace
