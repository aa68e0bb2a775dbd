// The xpm_memory_spram stand-in (rtl/vendor/xpm/xpm_memory_spram.sv) in four
// configurations (CMakeLists.txt):
//   sp_l1_wf  32-bit words, 64 (7-bit addresses reach beyond), byte writes,
//             READ_LATENCY_A 1, "write_first", READ_RESET_VALUE_A "DEADBEEF",
//             SIM_ASSERT_CHK 1
//   sp_l2_nc  36-bit words, 40 (6-bit addresses reach beyond), 9-bit byte
//             writes, latency 2 with regcea, "no_change", RST_MODE_A "ASYNC",
//             MEMORY_INIT_PARAM "5,6,7"
//   sp_l3_rf  64-bit words, 16, byte writes, latency 3, "read_first",
//             WRITE_PROTECT 0, MEMORY_INIT_FILE data/ram16x64.mem
//   sp_l0     16-bit words, 32, word writes, latency 0 (distributed)
// Random traffic with a fixed seed is checked cycle by cycle against RamRef
// (port A of the RAM model, port B unused); directed tests spell out the
// documented rules.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "Vxpm_sp_l0.h"
#include "Vxpm_sp_l1_wf.h"
#include "Vxpm_sp_l2_nc.h"
#include "Vxpm_sp_l3_rf.h"

#include "ram_test.hpp"

namespace {

using namespace cosim::vendor_xpm_test;

// Port A alone; port B has no paths.
RamTestCfg sp(unsigned width, unsigned depth, unsigned addr_width, RamPortCfg a, bool write_protect,
              std::vector<uint64_t> init = {}) {
  return ram_test_cfg(width, depth, a, {false, false, width, 0, WriteMode::ReadFirst, 0, false}, addr_width, 1,
                      write_protect, std::move(init));
}

const std::vector<uint64_t>& kInitFile = kRam16x64Words;

//                                        write read byte lat mode                  reset       async
const RamTestCfg kL1Wf = sp(32, 64, 7, {true, true, 8, 1, WriteMode::WriteFirst, 0xDEADBEEF, false}, true);
const RamTestCfg kL2Nc = sp(36, 40, 6, {true, true, 9, 2, WriteMode::NoChange, 0, true}, true, {5, 6, 7});
const RamTestCfg kL3Rf = sp(64, 16, 4, {true, true, 8, 3, WriteMode::ReadFirst, 0xABC, false}, false, kInitFile);
const RamTestCfg kL0 = sp(16, 32, 5, {true, true, 16, 0, WriteMode::ReadFirst, 0, false}, true);

template <class M>
void check_random(const RamTestCfg& c, uint64_t seed) {
  expect_random_traffic_matches_reference<M, SpOps<M>>(c, seed, 20000u, 0);
}

TEST(XpmMemorySpram, Latency1WriteFirstRandomTrafficMatchesReference) {
  testing::internal::CaptureStdout();  // SIM_ASSERT_CHK 1: a warning per address beyond the depth
  testing::internal::CaptureStderr();
  check_random<Vxpm_sp_l1_wf>(kL1Wf, 71);
  const std::string out = testing::internal::GetCapturedStdout() + testing::internal::GetCapturedStderr();
  EXPECT_NE(out.find("xpm_memory_spram: port A address 0x"), std::string::npos) << out.substr(0, 400);
}
TEST(XpmMemorySpram, NoChangeReadFirstLatency0RandomTrafficMatchesReference) {
  check_random<Vxpm_sp_l2_nc>(kL2Nc, 72);
  check_random<Vxpm_sp_l3_rf>(kL3Rf, 73);
  check_random<Vxpm_sp_l0>(kL0, 74);
}

// One edge with port A's inputs.
template <class M>
void cycle(Tb<M, ClkA>& tb, const RamPortIn& a) {
  SpOps<M>::drive(tb.dut, a, {});
  tb.edge();
}
RamPortIn wr(unsigned addr, uint64_t din, unsigned we) { return {true, we, addr, din, false, true}; }
RamPortIn rd(unsigned addr) { return {true, 0, addr, 0, false, true}; }
RamPortIn idle() { return {false, 0, 0, 0, false, true}; }

// Without a write, nothing has changed: MEMORY_INIT_PARAM, MEMORY_INIT_FILE,
// zeros elsewhere and beyond the depth.
TEST(XpmMemorySpram, InitialContents) {
  {
    Tb<Vxpm_sp_l2_nc, ClkA> tb;
    expect_initial_contents<SpOps<Vxpm_sp_l2_nc>>(kL2Nc, tb.dut, [&] { tb.edge(); }, [&] { tb.settle(); });
  }
  {
    Tb<Vxpm_sp_l3_rf, ClkA> tb;
    expect_initial_contents<SpOps<Vxpm_sp_l3_rf>>(kL3Rf, tb.dut, [&] { tb.edge(); }, [&] { tb.settle(); });
  }
}

// douta after a write follows WRITE_MODE_A: the merged new word
// ("write_first"), the word before ("read_first"), what it showed
// ("no_change").
TEST(XpmMemorySpram, WriteModeA) {
  {
    Tb<Vxpm_sp_l1_wf, ClkA> tb;
    cycle(tb, wr(3, 0xAABBCCDD, 0xF));
    cycle(tb, wr(3, 0x11223344, 0x2));
    tb.settle();
    EXPECT_EQ(tb.dut.douta, 0xAABB33DDu) << "write_first, latency 1";
  }
  {
    Tb<Vxpm_sp_l3_rf, ClkA> tb;
    cycle(tb, wr(1, 0x0123456789ABCDEF, 0x0F));
    cycle(tb, idle());
    cycle(tb, idle());
    tb.settle();
    EXPECT_EQ(tb.dut.douta, kInitFile[1]) << "read_first, latency 3: the word before the write";
    cycle(tb, rd(1));
    cycle(tb, idle());
    cycle(tb, idle());
    tb.settle();
    EXPECT_EQ(tb.dut.douta, (kInitFile[1] & ~0xFFFFFFFFull) | 0x89ABCDEFull) << "the low four lanes";
  }
  {
    Tb<Vxpm_sp_l2_nc, ClkA> tb;
    cycle(tb, rd(2));
    cycle(tb, idle());
    tb.settle();
    EXPECT_EQ(tb.dut.douta, 7u) << "MEMORY_INIT_PARAM word 2";
    for (int i = 0; i < 3; ++i) cycle(tb, wr(2, 0x123456789, 0xF));
    tb.settle();
    EXPECT_EQ(tb.dut.douta, 7u) << "no_change: writes leave douta";
  }
}

// rsta: READ_RESET_VALUE_A on the edge (SYNC); zero at once (ASYNC).
// WRITE_PROTECT 0: a write needs wea only. Latency 0: the array as it is.
TEST(XpmMemorySpram, ResetsWriteProtectAndLatency0) {
  {
    Tb<Vxpm_sp_l1_wf, ClkA> tb;
    SpOps<Vxpm_sp_l1_wf>::drive(tb.dut, {true, 0, 0, 0, true, true}, {});
    tb.edge();
    tb.settle();
    EXPECT_EQ(tb.dut.douta, 0xDEADBEEFu);
  }
  {
    Tb<Vxpm_sp_l2_nc, ClkA> tb;
    cycle(tb, rd(0));
    cycle(tb, idle());
    SpOps<Vxpm_sp_l2_nc>::drive(tb.dut, {false, 0, 0, 0, true, true}, {});
    tb.settle();
    EXPECT_EQ(tb.dut.douta, 0u) << "asynchronous reset, before any edge";
  }
  {
    Tb<Vxpm_sp_l3_rf, ClkA> tb;
    cycle(tb, {false, 0xFF, 15, 0x0F0F0F0F0F0F0F0F, false, true});  // ena low
    cycle(tb, rd(15));
    cycle(tb, idle());
    cycle(tb, idle());
    tb.settle();
    EXPECT_EQ(tb.dut.douta, 0x0F0F0F0F0F0F0F0Fu) << "written without ena";
  }
  {
    Tb<Vxpm_sp_l0, ClkA> tb;
    cycle(tb, wr(9, 0xBEEF, 1));
    SpOps<Vxpm_sp_l0>::drive(tb.dut, {false, 0, 9, 0, false, false}, {});
    tb.settle();
    EXPECT_EQ(tb.dut.douta, 0xBEEFu) << "latency 0: combinational";
  }
}

}  // namespace
