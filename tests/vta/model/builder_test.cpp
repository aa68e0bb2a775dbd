#include <algorithm>

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "matmul_program.hpp"
#include "vta/functional_model.hpp"
#include "vta/program_builder.hpp"

namespace cosim::vta {
namespace {

TEST(VtaBuilder, LoadStoreFieldsAndValidation) {
  ProgramBuilder b;
  b.load_2d(MemType::kInp, 3, 100, 2, 5, 7, Pad{1, 2, 3, 4});
  b.store_2d(9, 200, 3, 4, 6);
  const auto& l = std::get<MemInsn>(b.insns()[0]);
  EXPECT_EQ(l.opcode, Opcode::kLoad);
  EXPECT_EQ(l.mem_type, MemType::kInp);
  EXPECT_EQ(l.sram_base, 3);
  EXPECT_EQ(l.dram_base, 100u);
  EXPECT_EQ(l.y_size, 2);
  EXPECT_EQ(l.x_size, 5);
  EXPECT_EQ(l.x_stride, 7);
  EXPECT_EQ(l.y_pad_0, 1);
  EXPECT_EQ(l.y_pad_1, 2);
  EXPECT_EQ(l.x_pad_0, 3);
  EXPECT_EQ(l.x_pad_1, 4);
  const auto& s = std::get<MemInsn>(b.insns()[1]);
  EXPECT_EQ(s.opcode, Opcode::kStore);
  EXPECT_EQ(s.mem_type, MemType::kOut);
  EXPECT_EQ(s.y_size, 3);
  EXPECT_THROW(b.load_2d(MemType::kInp, 0, 0, 70000, 1, 1), InputError);
  EXPECT_THROW(b.load_2d(MemType::kInp, 0, 0, 1, 1, 1, Pad{16, 0, 0, 0}), InputError);
  EXPECT_THROW(b.load_2d(MemType::kWgt, 1020, 0, 1, 5, 5), InputError);  // past WGT depth
  EXPECT_THROW(b.load_2d(MemType::kOut, 0, 0, 1, 1, 1), InputError);
  EXPECT_THROW(b.store_2d(2040, 0, 3, 3, 3), InputError);
  EXPECT_THROW(b.gemm(UopRange{0, 1}, Loop{0x4000, 0, 0, 0}), InputError);
  EXPECT_THROW(b.alu_imm(AluOp::kAdd, 40000, UopRange{0, 1}), InputError);
  EXPECT_EQ(b.size(), 2u);  // failed calls add nothing
}

TEST(VtaBuilder, PushPopAndFinish) {
  ProgramBuilder b;
  b.load_1d(MemType::kInp, 0, 0, 4);  // 0 LOAD
  b.push(Engine::kLoad, Engine::kCompute);  // flag on instruction 0
  EXPECT_TRUE(dep_of(b.insns()[0]).push_next);
  b.push(Engine::kLoad, Engine::kCompute);  // already pushing: a LOAD no-op carries it
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(std::get<MemInsn>(b.insns()[1]).x_size, 0);
  EXPECT_TRUE(dep_of(b.insns()[1]).push_next);
  b.pop(Engine::kLoad, Engine::kCompute);
  EXPECT_THROW(b.pop(Engine::kLoad, Engine::kCompute), std::logic_error);
  EXPECT_THROW(b.push(Engine::kLoad, Engine::kStore), std::logic_error);
  b.load_1d(MemType::kInp, 4, 4, 4);  // LOAD engine: does not take the compute pop
  EXPECT_FALSE(dep_of(b.insns()[2]).pop_prev);
  b.gemm_reset(UopRange{0, 0});  // compute: takes it
  EXPECT_TRUE(dep_of(b.insns()[3]).pop_prev);
  b.pop(Engine::kLoad, Engine::kCompute);  // the second token
  b.sync(Engine::kCompute, Engine::kStore);  // GEMM pushes; STORE pops
  EXPECT_TRUE(dep_of(b.insns()[3]).push_next);
  b.store_2d(0, 0, 1, 1, 1);
  EXPECT_TRUE(dep_of(b.insns()[4]).pop_prev);
  b.finish();  // carries the pending compute pop first, then syncs L and S
  const auto& insns = b.insns();
  ASSERT_TRUE(std::holds_alternative<FinishInsn>(insns.back()));
  EXPECT_TRUE(dep_of(insns.back()).pop_prev);
  EXPECT_TRUE(dep_of(insns.back()).pop_next);
  DramLayout layout;
  std::vector<uint8_t> dram(1024, 0);
  const BuiltProgram p = b.build(layout);
  place(p, dram);
  // Token balance: the model runs it without deadlock.
  EXPECT_TRUE(run_model(dram, p.insn_region.byte_addr, static_cast<uint32_t>(p.insns.size())).finished);
}

TEST(VtaBuilder, UopKernelsAreReusedAndRelocated) {
  ProgramBuilder b;
  const std::vector<Uop> k1 = {{1, 2, 3}, {4, 5, 6}};
  const std::vector<Uop> k2 = {{7, 8, 9}};
  const UopRange r1 = b.load_uops(k1);
  const UopRange r2 = b.load_uops(k2);
  const UopRange r1b = b.load_uops(k1);  // still resident: no reload
  EXPECT_EQ(r1.bgn, 0u);
  EXPECT_EQ(r1.end, 2u);
  EXPECT_EQ(r2.bgn, 2u);
  EXPECT_EQ(r1b.bgn, r1.bgn);
  EXPECT_EQ(b.size(), 2u);
  const UopRange r3 = b.load_uops(k2, 1);  // overwrites part of k1
  EXPECT_EQ(r3.bgn, 1u);
  b.load_uops(k1);  // must reload now
  EXPECT_EQ(b.size(), 4u);
  b.finish();
  DramLayout layout(1000);
  const BuiltProgram p = b.build(layout);
  EXPECT_EQ(p.uop_region.byte_addr, 1008u);  // aligned to 16
  EXPECT_EQ(p.uops.size(), 6u);  // 2 + 1 + 1 + 2: each load has its own copy
  const auto& l0 = std::get<MemInsn>(p.insns[0]);
  const auto& l1 = std::get<MemInsn>(p.insns[1]);
  EXPECT_EQ(l0.dram_base, 1008u / 4);
  EXPECT_EQ(l1.dram_base, 1008u / 4 + 2);
  EXPECT_EQ(p.insn_region.byte_addr % 16, 0u);
  EXPECT_GE(p.insn_region.byte_addr, p.uop_region.end());
  std::vector<uint8_t> dram;
  place(p, dram);
  EXPECT_EQ(dram[1008 + 4], 4u);  // uop {4,5,6}: dst 4 in the low bits
  const uint32_t w = uint32_t{dram[1012]} | (uint32_t{dram[1013]} << 8) | (uint32_t{dram[1014]} << 16) |
                     (uint32_t{dram[1015]} << 24);
  EXPECT_EQ(w, 4u | (5u << 11) | (6u << 22));
}

TEST(VtaBuilder, LayoutAlignsRegionsByElementSize) {
  DramLayout layout(10);
  const DramRegion a = layout.alloc("a", MemType::kInp, 3);
  const DramRegion w = layout.alloc("w", MemType::kWgt, 2);
  const DramRegion c = layout.alloc("c", MemType::kAcc, 1);
  EXPECT_EQ(a.byte_addr, 16u);
  EXPECT_EQ(a.elem_base(), 1u);
  EXPECT_EQ(w.byte_addr, 256u);
  EXPECT_EQ(w.elem_base(), 1u);
  EXPECT_EQ(w.elem(1), 2u);
  EXPECT_EQ(c.byte_addr, 768u);
  EXPECT_EQ(c.elem_base(), 12u);
  EXPECT_EQ(layout.size(), 832u);
  EXPECT_EQ(layout.find("w").byte_addr, 256u);
  std::vector<uint8_t> img = layout.make_image();
  const uint8_t bytes[4] = {1, 2, 3, 4};
  EXPECT_THROW(write_region(img, a, bytes, 4, 46), InputError);  // past the region
}

// A layout placed high in DRAM (a network's later layer) has an image of
// its own regions only, written and placed at addresses less the base.
TEST(VtaBuilder, ImageStartsAtTheLayoutBase) {
  constexpr uint64_t kBase = 1u << 20;
  DramLayout layout(kBase);
  const DramRegion a = layout.alloc("a", MemType::kInp, 2);  // two 16-byte INP elements
  ASSERT_EQ(a.byte_addr, kBase);
  std::vector<uint8_t> img = layout.make_image();
  EXPECT_EQ(img.size(), 32u);
  std::vector<uint8_t> bytes(32);
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i + 1);
  write_region(img, a, bytes.data(), bytes.size(), 0, kBase);
  EXPECT_EQ(img[0], 1u);
  EXPECT_EQ(img[31], 32u);
  // Read as an image from address 0, the region lies past its end.
  EXPECT_THROW(write_region(img, a, bytes.data(), bytes.size()), InputError);
  ProgramBuilder b;
  b.finish();
  const BuiltProgram p = b.build(layout);
  ASSERT_GE(p.insn_region.byte_addr, kBase + 32);
  place(p, img, kBase);
  EXPECT_EQ(img.size(), p.insn_region.byte_addr + p.insns.size() * kInsnBytes - kBase);
  const std::vector<uint8_t> insn = to_bytes(p.insns);
  EXPECT_TRUE(std::equal(insn.begin(), insn.end(), img.begin() + static_cast<std::ptrdiff_t>(p.insn_region.byte_addr - kBase)));
  EXPECT_EQ(img[0], 1u);  // the data stays where it was written
}

TEST(VtaBuilder, MatmulProgramOnTheModel) {
  for (uint32_t seed : {1u, 2u, 3u}) {
    testing::MatmulCase c = testing::make_matmul_case(seed);
    const ModelStats st = run_model(c.dram, c.program.insn_region.byte_addr,
                                    static_cast<uint32_t>(c.program.insns.size()));
    EXPECT_TRUE(st.finished);
    EXPECT_EQ(st.gemm_uops, 4u * 4u);  // M x (NB x KB)
    const std::vector<uint8_t> got(c.dram.begin() + c.out.byte_addr, c.dram.begin() + c.out.end());
    EXPECT_EQ(got, c.expect) << "seed " << seed;
  }
}

TEST(VtaBuilder, PingPongProgramIsRaceFreeOnTheModel) {
  testing::MatmulCase c = testing::make_pingpong_case(4);
  for (uint64_t sched : {0u, 1u, 2u, 3u, 4u, 5u}) {
    std::vector<uint8_t> dram = c.dram;
    ModelOptions opt;
    opt.schedule_seed = sched;
    const ModelStats st = run_model(dram, c.program.insn_region.byte_addr,
                                    static_cast<uint32_t>(c.program.insns.size()), opt);
    EXPECT_TRUE(st.finished);
    EXPECT_EQ(st.unexecuted, 0u);
    const std::vector<uint8_t> got(dram.begin() + c.out.byte_addr, dram.begin() + c.out.end());
    EXPECT_EQ(got, c.expect) << "schedule " << sched;
  }
}

}  // namespace
}  // namespace cosim::vta
