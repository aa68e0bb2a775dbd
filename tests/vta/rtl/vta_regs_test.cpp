// The VTA core's host registers and start-up checks, read through the
// register port itself (the bare driver watches the done / error pins): CTRL
// bits through a run, done-clear without a restart, an error's CTRL and
// ERR_INFO, a misaligned instruction address; and a long train of STOREs on
// slow memory, so that the store queue fills and FETCH must hold STOREs back.
// Kills the mutants vta_regs_flags_swap, vta_regs_start_keeps_done,
// vta_fetch_align_check and vta_fetch_store_pop_unready of rtl/vta/mutants.yaml.
#include <gtest/gtest.h>

#include <cstring>

#include "axi/axi4_slave.hpp"
#include "vta/core/vta_core.hpp"
#include "vta_rtl_util.hpp"

class Vvta_rtl;  // the variant this test runs (cosim_vta_core_vta_rtl)

using namespace vta_rtl_test;
using namespace cosim::test::vta_isa;  // the instruction encoder
using cosim::tb::vta::RtlRunResult;

namespace {

constexpr uint8_t kCtrl = 0x00, kCycles = 0x04, kInsnCount = 0x08, kInsnAddr = 0x0c, kErrInfo = 0x10;
constexpr uint32_t kRunning = 1, kDone = 2, kError = 4;

// A core over a DRAM image with the program's instructions at insn_addr.
struct Rig {
  Program p;
  cosim::tb::VectorMemory mem{p.dram};
  cosim::tb::Axi4SlaveModel slave{mem, cosim::tb::Axi4SlaveConfig{}};
  cosim::tb::harness::AxiSlaveRef<cosim::tb::Axi4SlaveModel> port{slave};
  std::unique_ptr<cosim::tb::vta::VtaCore> core;

  void load(const std::vector<Insn>& insns, uint64_t insn_addr) {
    for (std::size_t i = 0; i < insns.size(); ++i) insns[i].store(&p.dram[insn_addr + 16 * i]);
    core = std::make_unique<cosim::tb::vta::VtaCore>(cosim::tb::vta::VtaCoreOver<Vvta_rtl>::build(), port);
  }
  uint32_t rd(uint8_t a) { return core->reg_read(a); }
  void wr(uint8_t a, uint32_t v) { core->reg_write(a, v); }
  // Clocks until the done or error pin, at most n cycles; true when one came.
  bool wait(int n) {
    for (int i = 0; i < n; ++i) {
      if (core->done() || core->error()) return true;
      core->cycle();
    }
    return core->done() || core->error();
  }
};

TEST(VtaRegs, CtrlBitsThroughARunAndDoneClearDoesNotRestart) {
  Rig r;
  r.load({finish_insn()}, Layout::kInsn);
  EXPECT_EQ(r.rd(kCtrl), 0u) << "idle after reset";
  r.wr(kInsnCount, 1);
  r.wr(kInsnAddr, Layout::kInsn);
  EXPECT_EQ(r.rd(kInsnCount), 1u);
  EXPECT_EQ(r.rd(kInsnAddr), Layout::kInsn);
  r.wr(kCtrl, 1);  // start
  ASSERT_TRUE(r.wait(2000));
  EXPECT_EQ(r.rd(kCtrl), kDone) << "done, not running, no error";
  const uint32_t cycles = r.rd(kCycles);
  EXPECT_GT(cycles, 0u);
  // Bit 1 alone clears done; it must not start another run.
  r.wr(kCtrl, 2);
  EXPECT_EQ(r.rd(kCtrl), 0u);
  for (int i = 0; i < 50; ++i) r.core->cycle();
  EXPECT_EQ(r.rd(kCtrl), 0u) << "a done-clear started a run";
  EXPECT_EQ(r.rd(kCycles), cycles) << "CYCLES counts only while running";
}

TEST(VtaRegs, StartClearsThePreviousDone) {
  Rig r;
  r.load({finish_insn()}, Layout::kInsn);
  r.wr(kInsnCount, 1);
  r.wr(kInsnAddr, Layout::kInsn);
  r.wr(kCtrl, 1);
  ASSERT_TRUE(r.wait(2000));
  ASSERT_EQ(r.rd(kCtrl), kDone);
  // A second start without clearing done: running, and done is gone until FINISH.
  r.wr(kCtrl, 1);
  EXPECT_EQ(r.rd(kCtrl), kRunning) << "start must clear the previous program's done";
  ASSERT_TRUE(r.wait(2000));
  EXPECT_EQ(r.rd(kCtrl), kDone);
}

TEST(VtaRegs, ErrorReadsErrorNotDone) {
  Rig r;
  r.load({header(6, Deps{}), finish_insn()}, Layout::kInsn);  // opcode 6 is undefined
  r.wr(kInsnCount, 2);
  r.wr(kInsnAddr, Layout::kInsn);
  r.wr(kCtrl, 1);
  ASSERT_TRUE(r.wait(2000));
  EXPECT_EQ(r.rd(kCtrl), kError) << "error, not done, not running";
  EXPECT_EQ(r.rd(kErrInfo), 1u) << "FETCH (engine 0), undefined opcode (code 1)";
}

TEST(VtaRegs, MisalignedInstructionAddressIsAnError) {
  // Instruction addresses are 16-byte aligned; 8 and 4 bytes off are refused
  // at start, before anything is fetched.
  for (const uint32_t off : {8u, 4u, 12u}) {
    Rig r;
    r.load({finish_insn()}, Layout::kInsn + off);
    r.wr(kInsnCount, 1);
    r.wr(kInsnAddr, static_cast<uint32_t>(Layout::kInsn + off));
    r.wr(kCtrl, 1);
    ASSERT_TRUE(r.wait(2000)) << "offset " << off;
    EXPECT_EQ(r.rd(kCtrl), kError) << "offset " << off;
    EXPECT_EQ(r.rd(kErrInfo), 3u) << "offset " << off << ": FETCH, instruction address not 16-byte aligned";
  }
  (void)kRunning;
}

TEST(VtaRegs, LongStoreTrainOnSlowMemoryLosesNoStore) {
  // 300 one-element STOREs back to back on a slow, stalling memory: the store
  // queue fills and FETCH must keep each STORE until the queue takes it.
  constexpr uint32_t kN = 300;  // more than the store queue (128) and the prefetch buffer (32) hold
  Program p;
  for (uint32_t e = 0; e < kN; ++e) {
    for (uint32_t o = 0; o < 16; ++o) {
      p.put_u32(Layout::kAcc + 64ull * e + 4 * o, 0x100 * e + 7 * o + 1);  // low byte: e*0 + 7o + 1
    }
  }
  std::fill(p.dram.begin() + Layout::kOut, p.dram.begin() + Layout::kOut + 16 * kN, uint8_t{0xEE});
  p.add(mem_insn(kLoad, kAcc, 0, p.acc_base(), 1, kN, kN, Deps{false, false, false, true}));
  for (uint32_t e = 0; e < kN; ++e) {
    Deps d;
    d.pop_prev = (e == 0);
    d.push_prev = (e + 1 == kN);
    p.add(mem_insn(kStore, kOut, e, p.out_base() + e, 1, 1, 1, d));
  }
  p.add(finish_insn(Deps{false, true, false, false}));
  cosim::tb::vta::BareOptions o;
  o.read_latency = 40;
  o.stall_probability = 0.3;
  o.seed = 5;
  std::vector<std::string> proto;
  const RtlRunResult res = p.run(o, 2'000'000, &proto);
  ASSERT_EQ(res.status, RtlRunResult::Status::kDone) << res.diagnosis;
  EXPECT_TRUE(proto.empty()) << proto.front();
  for (uint32_t e = 0; e < kN; ++e) {
    for (uint32_t l = 0; l < 16; ++l) {
      ASSERT_EQ(p.dram[Layout::kOut + 16 * e + l], static_cast<uint8_t>(7 * l + 1)) << "OUT element " << e
                                                                                     << " lane " << l;
    }
  }
}

}  // namespace
