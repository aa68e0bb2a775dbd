// The xpm_memory_sprom and xpm_memory_dprom stand-ins
// (rtl/vendor/xpm/xpm_memory_sprom.sv, xpm_memory_dprom.sv) in five
// configurations (CMakeLists.txt):
//   rom_file_l1   sprom, 64-bit words, 16 (5-bit addresses reach beyond),
//                 MEMORY_INIT_FILE data/ram16x64.mem, READ_LATENCY_A 1,
//                 READ_RESET_VALUE_A "5A5A", SIM_ASSERT_CHK 1
//   rom_param_l2  sprom, 8-bit words, 10 (4-bit addresses reach beyond),
//                 MEMORY_INIT_PARAM (the vendor's example), latency 2 with
//                 regcea, RST_MODE_A "ASYNC"
//   rom_param_l0  sprom, 12-bit words, 8, MEMORY_INIT_PARAM, latency 0
//   dprom_cc      dprom, "common_clock", the file; A latency 1; B latency 3
//                 with regceb, READ_RESET_VALUE_B "FEED", 5-bit addresses
//   dprom_ic      dprom, "independent_clock", 12-bit words, MEMORY_INIT_PARAM;
//                 A latency 2, RST_MODE_A "ASYNC"; B latency 0, 4-bit addresses
// Every word is read back (beyond the depth: zero); random reads, resets and
// regce are checked every edge against RamRef with nothing written, on one
// clock or, for dprom_ic, on two (periods 10/7, 10/23, 3/10, 10/10, 10/5).
#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "Vxpm_dprom_cc.h"
#include "Vxpm_dprom_ic.h"
#include "Vxpm_rom_file_l1.h"
#include "Vxpm_rom_param_l0.h"
#include "Vxpm_rom_param_l2.h"

#include "ram_test.hpp"

namespace {

using namespace cosim::vendor_xpm_test;

RamTestCfg rom(unsigned width, unsigned depth, unsigned addr_width_a, unsigned addr_width_b, RamPortCfg a,
               RamPortCfg b, std::vector<uint64_t> init) {
  return ram_test_cfg(width, depth, a, b, addr_width_a, addr_width_b, true, std::move(init));
}
// A read port, and no port.
RamPortCfg reads(unsigned width, unsigned latency, uint64_t rst_val, bool async_rst) {
  return {false, true, width, latency, WriteMode::ReadFirst, rst_val, async_rst};
}
RamPortCfg none(unsigned width) { return {false, false, width, 0, WriteMode::ReadFirst, 0, false}; }

const std::vector<uint64_t>& kInitFile = kRam16x64Words;
const std::vector<uint64_t> kParam8 = {0xAB, 0xCD, 0xEF, 0x1, 0x2, 0x34, 0x56, 0x78};
const std::vector<uint64_t> kParam12 = {0x123, 0x456, 0x789, 0xABC, 0xDEF, 0x0, 0xFFF, 0x1};

const RamTestCfg kFileL1 = rom(64, 16, 5, 1, reads(64, 1, 0x5A5A, false), none(64), kInitFile);
const RamTestCfg kParamL2 = rom(8, 10, 4, 1, reads(8, 2, 0, true), none(8), kParam8);
const RamTestCfg kParamL0 = rom(12, 8, 3, 1, reads(12, 0, 0, false), none(12), kParam12);
const RamTestCfg kDpCc = rom(64, 16, 4, 5, reads(64, 1, 0, false), reads(64, 3, 0xFEED, false), kInitFile);
const RamTestCfg kDpIc = rom(12, 8, 3, 4, reads(12, 2, 0x777, true), reads(12, 0, 0, false), kParam12);

// Every word, through each reading port, on one clock.
template <class M, class Ops>
void expect_contents(const RamTestCfg& c) {
  Tb<M, ClkA> tb;
  expect_initial_contents<Ops>(c, tb.dut, [&] { tb.edge(); }, [&] { tb.settle(); });
}

TEST(XpmMemoryRom, SpromReadsBackItsInitFile) {
  testing::internal::CaptureStdout();  // SIM_ASSERT_CHK 1: reads beyond the depth warn
  testing::internal::CaptureStderr();
  expect_contents<Vxpm_rom_file_l1, SpromOps<Vxpm_rom_file_l1>>(kFileL1);
  const std::string out = testing::internal::GetCapturedStdout() + testing::internal::GetCapturedStderr();
  EXPECT_NE(out.find("xpm_memory_sprom: port A address 0x10 is beyond the 16 words"), std::string::npos)
      << out.substr(0, 400);
}
TEST(XpmMemoryRom, SpromReadsBackItsInitParam) {
  expect_contents<Vxpm_rom_param_l2, SpromOps<Vxpm_rom_param_l2>>(kParamL2);
  expect_contents<Vxpm_rom_param_l0, SpromOps<Vxpm_rom_param_l0>>(kParamL0);
}
TEST(XpmMemoryRom, DpromReadsBackItsContentsOnBothPorts) {
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  expect_contents<Vxpm_dprom_cc, DpromOps<Vxpm_dprom_cc>>(kDpCc);
  const std::string out = testing::internal::GetCapturedStdout() + testing::internal::GetCapturedStderr();
  EXPECT_NE(out.find("xpm_memory_dprom: port B address 0x1f is beyond"), std::string::npos) << out.substr(0, 400);
  Tb2<Vxpm_dprom_ic, ClkA, ClkB> tb(EdgeSchedule{10, 10});  // both clocks rise together
  expect_initial_contents<DpromOps<Vxpm_dprom_ic>>(kDpIc, tb.dut, [&] { tb.edge(); }, [&] { tb.settle(); });
}

// The out-of-range warnings are captured, and shown only with a failure.
template <class M, class Ops>
void check_random(const RamTestCfg& c, uint64_t seed) {
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  const RamStats s = random_ram_traffic<M, Ops>(c, seed, 40000);
  const std::string out = testing::internal::GetCapturedStdout() + testing::internal::GetCapturedStderr();
  EXPECT_GT(s.reads_checked, 20000u) << out.substr(0, 2000);
  if (testing::Test::HasFailure()) std::cout << out.substr(out.size() > 2000 ? out.size() - 2000 : 0);
}

TEST(XpmMemoryRom, SpromRandomReadsMatchReference) {
  check_random<Vxpm_rom_file_l1, SpromOps<Vxpm_rom_file_l1>>(kFileL1, 81);
  check_random<Vxpm_rom_param_l2, SpromOps<Vxpm_rom_param_l2>>(kParamL2, 82);
  check_random<Vxpm_rom_param_l0, SpromOps<Vxpm_rom_param_l0>>(kParamL0, 83);
}
TEST(XpmMemoryRom, DpromCommonClockRandomReadsMatchReference) {
  check_random<Vxpm_dprom_cc, DpromOps<Vxpm_dprom_cc>>(kDpCc, 84);
}

// independent_clock: each port reads, resets and moves its pipeline on its
// own clock's edges only.
TEST(XpmMemoryRom, DpromIndependentClockRandomReadsMatchReference) {
  const EdgeSchedule clocks[] = {{10, 7}, {10, 23}, {3, 10}, {10, 10}, {10, 5, 10, 5}};
  uint64_t seed = 85;
  for (const EdgeSchedule& s : clocks) {
    SCOPED_TRACE(s.describe("clka", "clkb"));
    const RamStats st =
        random_ram_traffic_two_clocks<Vxpm_dprom_ic, DpromOps<Vxpm_dprom_ic>>(kDpIc, s, seed++, 30000);
    if (testing::Test::HasFailure()) return;
    EXPECT_GT(st.reads_checked, 20000u);
  }
}

// rsta: READ_RESET_VALUE_A on the edge (SYNC), zero at once (ASYNC); regcea
// low holds a latency-2 output.
TEST(XpmMemoryRom, ResetsAndRegce) {
  {
    Tb<Vxpm_rom_file_l1, ClkA> tb;
    SpromOps<Vxpm_rom_file_l1>::drive(tb.dut, {true, 0, 3, 0, true, true}, {});
    tb.edge();
    tb.settle();
    EXPECT_EQ(tb.dut.douta, 0x5A5Au) << "rsta wins over the read";
  }
  Tb<Vxpm_rom_param_l2, ClkA> tb;
  using Ops = SpromOps<Vxpm_rom_param_l2>;
  Ops::drive(tb.dut, {true, 0, 5, 0, false, true}, {});
  tb.edge();
  tb.edge();
  tb.settle();
  EXPECT_EQ(tb.dut.douta, 0x34u);
  Ops::drive(tb.dut, {true, 0, 6, 0, false, false}, {});
  tb.edge();
  Ops::drive(tb.dut, {false, 0, 6, 0, false, false}, {});
  tb.edge();
  tb.settle();
  EXPECT_EQ(tb.dut.douta, 0x34u) << "regcea low holds douta";
  Ops::drive(tb.dut, {false, 0, 6, 0, false, true}, {});
  tb.edge();
  tb.settle();
  EXPECT_EQ(tb.dut.douta, 0x56u);
  Ops::drive(tb.dut, {false, 0, 6, 0, true, true}, {});
  tb.settle();
  EXPECT_EQ(tb.dut.douta, 0u) << "asynchronous reset, before any edge";
}

}  // namespace
