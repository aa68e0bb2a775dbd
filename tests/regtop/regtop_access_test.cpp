// The generated register block against the access types it promises
// (scripts/dutgen_regtop.py): tests/regtop/regtop.yaml has one field of each,
// its block is Verilated with a top that puts reg2hw / hw2reg on pins, and
// every rule is checked through the register port: what a read returns, what
// a write does to the stored value, what the hardware sees and when, and
// which of hardware clear, hardware set and software wins in one cycle.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>

#include "Vregtop_top.h"
#include "verilated.h"

#include "rtl_assert/rtl_assert.hpp"
#include "rtl_common/rtl_common_tb.hpp"

namespace {

// Offsets and bits of tests/regtop/regtop.yaml, written out here (not taken
// from the generated header) so that a generator bug cannot hide in both.
constexpr uint8_t kRw = 0x00, kVal = 0x04, kFlags = 0x08, kLocked = 0x0c;
constexpr uint32_t kC = 1u << 0, kR = 1u << 1, kT = 1u << 2, kS = 1u << 3, kK = 1u << 8, kP = 1u << 9;

// The register port on the harness's clock loop (rtl_common's Tb: one
// rising edge per edge(), an assertion that fails on it throws).
struct Rig : cosim::rtl_common_test::Tb<Vregtop_top> {
  Vregtop_top& m = dut;

  Rig() : Tb("regtop") {
    m.rst_ni = 1;
    m.reg_req_valid_i = 0;
    m.reg_rsp_ready_i = 1;
    settle();
    m.rst_ni = 0;  // a falling edge: the asynchronous reset takes effect
    settle();
    edge();
    m.rst_ni = 1;
    settle();
  }

  // One access (the port takes it at once: the response slot is drained
  // every cycle). `during` sees the outputs in the cycle the access is taken,
  // before the edge that applies it. Returns the response's read data.
  uint32_t access(bool write, uint8_t addr, uint32_t wdata, const std::function<void()>& during = {}) {
    m.reg_req_valid_i = 1;
    m.reg_write_i = write;
    m.reg_addr_i = addr;
    m.reg_wdata_i = wdata;
    settle();
    EXPECT_TRUE(m.reg_req_ready_o);
    if (during) during();
    edge();
    m.reg_req_valid_i = 0;
    settle();
    EXPECT_TRUE(m.reg_rsp_valid_o);
    const uint32_t v = m.reg_rdata_o;
    edge();
    return v;
  }
  uint32_t rd(uint8_t a) { return access(false, a, 0); }
  void wr(uint8_t a, uint32_t v, const std::function<void()>& during = {}) { access(true, a, v, during); }
  // Holds a hardware input high for one edge.
  void pulse(uint8_t& pin) {
    pin = 1;
    edge();
    pin = 0;
    settle();
  }
  // A write with a hardware input held high throughout: which of the two wins.
  void wr_holding(uint8_t& pin, uint8_t a, uint32_t v) {
    pin = 1;
    wr(a, v);
    pin = 0;
    settle();
  }
};

TEST(RegTop, RwResetsToItsValueStoresWritesAndDrivesTheHardware) {
  Rig r;
  EXPECT_EQ(r.rd(kRw), 0xa5a50001u);
  EXPECT_EQ(r.m.rw_o, 0xa5a50001u);
  r.wr(kRw, 0x12345678);
  EXPECT_EQ(r.rd(kRw), 0x12345678u);
  EXPECT_EQ(r.m.rw_o, 0x12345678u);
}

TEST(RegTop, RoReadsTheHardwareAndIgnoresWrites) {
  Rig r;
  r.m.val_i = 0xdeadbeef;
  EXPECT_EQ(r.rd(kVal), 0xdeadbeefu);
  r.wr(kVal, 0);
  EXPECT_EQ(r.rd(kVal), 0xdeadbeefu);
  r.m.val_i = 7;
  EXPECT_EQ(r.rd(kVal), 7u);
}

TEST(RegTop, Rw1cIsSetByHardwareAndClearedOnlyByWritingOne) {
  Rig r;
  EXPECT_EQ(r.rd(kFlags) & kC, 0u);
  r.pulse(r.m.c_set_i);
  EXPECT_EQ(r.rd(kFlags) & kC, kC);
  EXPECT_EQ(r.m.c_o, 1);
  r.wr(kFlags, 0);
  EXPECT_EQ(r.rd(kFlags) & kC, kC) << "writing 0 must leave an rw1c bit set";
  r.wr(kFlags, kC);
  EXPECT_EQ(r.rd(kFlags) & kC, 0u);
  EXPECT_EQ(r.m.c_o, 0);
}

TEST(RegTop, RcReturnsItsValueOnceThenReadsZero) {
  Rig r;
  r.pulse(r.m.r_set_i);
  EXPECT_EQ(r.m.r_o, 1);
  EXPECT_EQ(r.rd(kFlags) & kR, kR) << "the read that clears returns the value before the clear";
  EXPECT_EQ(r.m.r_o, 0);
  EXPECT_EQ(r.rd(kFlags) & kR, 0u);
  r.pulse(r.m.r_set_i);
  r.wr(kFlags, 0);
  EXPECT_EQ(r.m.r_o, 1) << "a write is not a read: rc keeps its value";
}

TEST(RegTop, W1tTogglesOnOneAndKeepsOnZero) {
  Rig r;
  r.wr(kFlags, kT);
  EXPECT_EQ(r.rd(kFlags) & kT, kT);
  r.wr(kFlags, 0);
  EXPECT_EQ(r.rd(kFlags) & kT, kT);
  r.wr(kFlags, kT);
  EXPECT_EQ(r.rd(kFlags) & kT, 0u);
  EXPECT_EQ(r.m.t_o, 0);
}

TEST(RegTop, W1sIsAOneCyclePulseInTheCycleOfTheWriteAndReadsZero) {
  Rig r;
  int seen = -1;
  r.wr(kFlags, kS, [&] { seen = r.m.s_o; });
  EXPECT_EQ(seen, 1) << "the pulse comes with the access, as a hand-written start bit does";
  EXPECT_EQ(r.m.s_o, 0) << "self-clearing";
  EXPECT_EQ(r.rd(kFlags) & kS, 0u);
  r.wr(kFlags, 0, [&] { seen = r.m.s_o; });
  EXPECT_EQ(seen, 0) << "writing 0 gives no pulse";
}

TEST(RegTop, WoHandsOverTheWrittenBitsWithAStrobeAndReadsZero) {
  Rig r;
  int qe = -1, bits = -1;
  r.wr(kFlags, 0xa0, [&] { qe = r.m.o_qe_o, bits = r.m.o_o; });
  EXPECT_EQ(qe, 1);
  EXPECT_EQ(bits, 0xa);
  EXPECT_EQ(r.m.o_qe_o, 0);
  EXPECT_EQ(r.rd(kFlags) & 0xf0u, 0u);
  r.rd(kFlags);
  EXPECT_EQ(r.m.o_qe_o, 0) << "a read is no write";
}

TEST(RegTop, HardwareClearBeatsSetAndSetBeatsSoftware) {
  Rig r;
  r.m.k_set_i = 1;
  r.m.k_clr_i = 1;
  r.edge();
  r.m.k_set_i = r.m.k_clr_i = 0;
  r.settle();
  EXPECT_EQ(r.m.k_o, 0) << "clear beats set";
  r.pulse(r.m.k_set_i);
  EXPECT_EQ(r.rd(kFlags) & kK, kK);
  r.wr(kFlags, kP);  // k's bit 0 (p keeps its 1)
  EXPECT_EQ(r.rd(kFlags) & kK, kK) << "software cannot write an ro field";
  // p: rw with reset 1, cleared by the hardware even while software writes 1.
  EXPECT_EQ(r.m.p_o, 1);
  r.wr_holding(r.m.p_clr_i, kFlags, kP);
  EXPECT_EQ(r.m.p_o, 0) << "the hardware's clear beats software's write";
  r.wr(kFlags, kP);
  EXPECT_EQ(r.m.p_o, 1);
  // c: rw1c set by the hardware in the cycle software clears it.
  r.wr_holding(r.m.c_set_i, kFlags, kC);
  EXPECT_EQ(r.m.c_o, 1) << "the hardware's set beats software's clear";
}

TEST(RegTop, WriteEnableLocksTheRegisterAndWidthCutsTheWrite) {
  Rig r;
  r.m.unlock_i = 0;
  r.wr(kLocked, 0x5a);
  EXPECT_EQ(r.rd(kLocked), 0u) << "a write while the enable is low is dropped";
  r.m.unlock_i = 1;
  r.wr(kLocked, 0x1235a);
  EXPECT_EQ(r.rd(kLocked), 0x5au) << "an 8-bit register keeps 8 bits";
  EXPECT_EQ(r.m.locked_o, 0x5a);
}

TEST(RegTop, AnAddressOfNoRegisterReadsZeroAndChangesNothing) {
  Rig r;
  r.wr(kRw + 1, 0xffffffff);  // exact decode: byte lanes count
  EXPECT_EQ(r.rd(kRw), 0xa5a50001u);
  EXPECT_EQ(r.rd(kRw + 1), 0u);
  EXPECT_EQ(r.rd(0x40), 0u);
}

}  // namespace
