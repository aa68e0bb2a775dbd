// Functional model semantics, rule by rule. Expected values are computed in
// the test independently (hand-written constants or straightforward loops
// over the spec formulas with 64-bit arithmetic).
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "common/error.hpp"
#include "insn_builders.hpp"
#include "support/expect_text.hpp"
#include "vta/functional_model.hpp"

namespace cosim::vta {
namespace {

using test::expect_contains;
using test::alu_imm;
using test::load;
using test::nest;
using test::what_of;

MemInsn store(uint16_t sram, uint32_t dram, uint16_t y, uint16_t x, uint16_t stride) {
  MemInsn m = load(MemType::kOut, sram, dram, y, x, stride);
  m.opcode = Opcode::kStore;
  return m;
}

void exec(const Insn& insn, VtaSram& s, std::vector<uint8_t>& dram) {
  ModelStats st;
  execute_insn(insn, 0, s, dram, st);
}

std::vector<uint8_t> pattern_dram(std::size_t n) {
  std::vector<uint8_t> d(n);
  for (std::size_t i = 0; i < n; ++i) d[i] = static_cast<uint8_t>(i * 7 + 3);
  return d;
}

TEST(VtaModelLoad, PaddingOrderAndStride) {
  std::vector<uint8_t> dram = pattern_dram(4096);
  VtaSram s;
  std::fill(s.inp.begin(), s.inp.end(), int8_t{0x55});
  // xt = 1 + 2 + 1 = 4; rows: 1 pad row, 2 data rows, 1 pad row -> 16 entries from 5.
  exec(load(MemType::kInp, 5, 10, 2, 2, 3, 1, 1, 1, 1), s, dram);
  auto entry = [&](int i) { return std::vector<int8_t>(s.inp.begin() + i * 16, s.inp.begin() + i * 16 + 16); };
  auto dram_elem = [&](int e) {
    std::vector<int8_t> v(16);
    for (int b = 0; b < 16; ++b) v[b] = static_cast<int8_t>(dram[e * 16 + b]);
    return v;
  };
  const std::vector<int8_t> zero(16, 0), untouched(16, 0x55);
  EXPECT_EQ(entry(4), untouched);
  for (int i = 5; i <= 9; ++i) EXPECT_EQ(entry(i), zero) << i;  // y_pad_0 row, then x_pad_0
  EXPECT_EQ(entry(10), dram_elem(10));
  EXPECT_EQ(entry(11), dram_elem(11));
  EXPECT_EQ(entry(12), zero);  // x_pad_1
  EXPECT_EQ(entry(13), zero);  // x_pad_0 of row 1
  EXPECT_EQ(entry(14), dram_elem(13));  // dram advanced by x_stride = 3
  EXPECT_EQ(entry(15), dram_elem(14));
  for (int i = 16; i <= 20; ++i) EXPECT_EQ(entry(i), zero) << i;  // x_pad_1, y_pad_1 row
  EXPECT_EQ(entry(21), untouched);
}

TEST(VtaModelLoad, XSizeZeroMovesNothing) {
  std::vector<uint8_t> dram = pattern_dram(1024);
  VtaSram s;
  std::fill(s.inp.begin(), s.inp.end(), int8_t{0x11});
  const auto before = s.inp;
  // Pads and a far DRAM address would matter if anything moved.
  ModelStats st;
  execute_insn(load(MemType::kInp, 0, 0xFFFFFF00u, 3, 0, 4, 2, 2, 2, 2), 0, s, dram, st);
  EXPECT_EQ(s.inp, before);
  EXPECT_EQ(st.syncs, 1u);
  MemInsn sync_store = store(0, 0xFFFFFF00u, 3, 0, 4);
  const auto dram_before = dram;
  execute_insn(sync_store, 1, s, dram, st);
  EXPECT_EQ(dram, dram_before);
}

TEST(VtaModelLoad, Acc8SignExtendsWithSixteenByteAddressing) {
  std::vector<uint8_t> dram(256, 0);
  // Element 2 (bytes 32..47) and element 2 + stride 3 = 5 (bytes 80..95).
  for (int l = 0; l < 16; ++l) {
    dram[32 + l] = static_cast<uint8_t>(0x80 + l * 9);  // 0x80, 0x89, ... wraps through 0xF8, 0x01...
    dram[80 + l] = static_cast<uint8_t>(l == 0 ? 0xFF : l == 1 ? 0x7F : l);
  }
  VtaSram s;
  exec(load(MemType::kAcc8, 7, 2, 2, 1, 3), s, dram);
  for (int l = 0; l < 16; ++l) {
    const int raw = (0x80 + l * 9) & 0xFF;
    const int32_t expect = raw >= 128 ? raw - 256 : raw;
    EXPECT_EQ(s.acc[7 * 16 + l], expect) << l;
  }
  EXPECT_EQ(s.acc[8 * 16 + 0], -1);
  EXPECT_EQ(s.acc[8 * 16 + 1], 127);
  EXPECT_EQ(s.acc[8 * 16 + 5], 5);
}

TEST(VtaModelLoad, AccWgtUopElements) {
  std::vector<uint8_t> dram(4096, 0);
  // ACC element 3 = bytes 192..255, lane l = little-endian int32.
  for (int l = 0; l < 16; ++l) {
    const uint32_t v = 0x80000001u + static_cast<uint32_t>(l) * 0x01010101u;
    for (int b = 0; b < 4; ++b) dram[192 + 4 * l + b] = static_cast<uint8_t>(v >> (8 * b));
  }
  // WGT element 1 = bytes 256..511; row o, column k = byte o*16 + k.
  for (int b = 0; b < 256; ++b) dram[256 + b] = static_cast<uint8_t>(b);
  // UOP element 200 = bytes 800..803.
  const uint32_t uw = 9u | (10u << 11) | (11u << 22);
  for (int b = 0; b < 4; ++b) dram[800 + b] = static_cast<uint8_t>(uw >> (8 * b));
  VtaSram s;
  exec(load(MemType::kAcc, 0, 3, 1, 1, 1), s, dram);
  for (int l = 0; l < 16; ++l) {
    EXPECT_EQ(static_cast<uint32_t>(s.acc[l]), 0x80000001u + static_cast<uint32_t>(l) * 0x01010101u);
  }
  exec(load(MemType::kWgt, 4, 1, 1, 1, 1), s, dram);
  EXPECT_EQ(s.wgt[4 * 256 + 0], 0);
  EXPECT_EQ(s.wgt[4 * 256 + 17], 17);
  EXPECT_EQ(s.wgt[4 * 256 + 200], static_cast<int8_t>(200 - 256));
  // UOP with padding: x_pad_0 = 1 gives a {0,0,0} uop first.
  s.uop[20] = Uop{1, 1, 1};
  exec(load(MemType::kUop, 20, 200, 1, 1, 1, 0, 0, 1, 0), s, dram);
  EXPECT_EQ(s.uop[20], (Uop{0, 0, 0}));
  EXPECT_EQ(s.uop[21], (Uop{9, 10, 11}));
}

TEST(VtaModelStore, TruncatesAndUsesStride) {
  std::vector<uint8_t> dram(1024, 0xEE);
  VtaSram s;
  const int32_t vals[4] = {0x12345680, -1, 255, 256};
  for (int e = 0; e < 6; ++e) {
    for (int l = 0; l < 16; ++l) s.acc[(10 + e) * 16 + l] = vals[l % 4] + e * 0x100 + l;
  }
  // 2 rows x 3 elements from ACC 10..15 to DRAM elements 4 + y*5 + x.
  exec(store(10, 4, 2, 3, 5), s, dram);
  for (int y = 0; y < 2; ++y) {
    for (int x = 0; x < 3; ++x) {
      const int e = y * 3 + x;
      for (int l = 0; l < 16; ++l) {
        const int64_t v = int64_t{vals[l % 4]} + e * 0x100 + l;
        const uint8_t expect = static_cast<uint8_t>(((v % 256) + 256) % 256);
        EXPECT_EQ(dram[(4 + y * 5 + x) * 16 + l], expect) << y << "," << x << "," << l;
      }
    }
  }
  // Bytes between the rows and around them are untouched.
  for (int e : {3, 7, 8, 12}) {
    for (int l = 0; l < 16; ++l) EXPECT_EQ(dram[e * 16 + l], 0xEE) << e;
  }
}

// Straightforward reimplementation of the GEMM formula with int64.
void reference_gemm(const VtaSram& before, const GemmInsn& g, std::vector<int64_t>& acc) {
  for (uint32_t i = 0; i < g.loop.iter_out; ++i) {
    for (uint32_t j = 0; j < g.loop.iter_in; ++j) {
      for (uint32_t u = g.loop.uop_bgn; u < g.loop.uop_end; ++u) {
        const Uop& uop = before.uop[u];
        const uint32_t a = uop.dst + i * g.loop.dst_factor_out + j * g.loop.dst_factor_in;
        const uint32_t x = uop.src + i * g.loop.src_factor_out + j * g.loop.src_factor_in;
        const uint32_t w = uop.wgt + i * g.wgt_factor_out + j * g.wgt_factor_in;
        for (int o = 0; o < 16; ++o) {
          if (g.reset) {
            acc[a * 16 + o] = 0;
            continue;
          }
          int64_t dot = 0;
          for (int k = 0; k < 16; ++k) dot += int64_t{before.inp[x * 16 + k]} * before.wgt[w * 256 + o * 16 + k];
          acc[a * 16 + o] += dot;
        }
      }
    }
  }
}

int32_t wrap32(int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v))); }

TEST(VtaModelGemm, BothLoopLevelsWithAccumulation) {
  std::mt19937 rng(5);
  VtaSram s;
  for (auto& v : s.inp) v = static_cast<int8_t>(rng());
  for (auto& v : s.wgt) v = static_cast<int8_t>(rng());
  for (auto& v : s.acc) v = static_cast<int32_t>(rng());
  s.uop[100] = Uop{3, 7, 2};
  s.uop[101] = Uop{40, 1, 9};
  s.uop[102] = Uop{5, 30, 0};
  GemmInsn g;
  g.loop = nest(100, 103, {3, 4}, {11, 0}, {5, 2});  // dst_in 0: accumulate over the inner loop
  g.wgt_factor_out = 3;
  g.wgt_factor_in = 1;
  std::vector<int64_t> expect(s.acc.begin(), s.acc.end());
  reference_gemm(s, g, expect);
  std::vector<uint8_t> dram;
  ModelStats st;
  execute_insn(g, 0, s, dram, st);
  for (std::size_t i = 0; i < expect.size(); ++i) ASSERT_EQ(s.acc[i], wrap32(expect[i])) << "acc word " << i;
  EXPECT_EQ(st.gemm_uops, 3u * 4u * 3u);
  EXPECT_EQ(st.macs(), 36u * 256u);
}

TEST(VtaModelGemm, HandComputedDotProductAndWrap) {
  VtaSram s;
  for (int k = 0; k < 16; ++k) s.inp[2 * 16 + k] = static_cast<int8_t>(k - 8);  // -8..7
  for (int o = 0; o < 16; ++o) {
    for (int k = 0; k < 16; ++k) s.wgt[1 * 256 + o * 16 + k] = static_cast<int8_t>(o == k ? 2 : (o == 0 ? 1 : 0));
  }
  s.uop[0] = Uop{4, 2, 1};
  for (int o = 0; o < 16; ++o) s.acc[4 * 16 + o] = 1000;
  s.acc[4 * 16 + 15] = 2147483647;  // INT32_MAX + 2*7 wraps
  GemmInsn g;
  g.loop.uop_bgn = 0;
  g.loop.uop_end = 1;
  std::vector<uint8_t> dram;
  exec(g, s, dram);
  // lane 0: sum_k (k-8) * (k==0 ? 2 : 1) = (-8*2) + sum_{k=1..15}(k-8) = -16 + (-7+...+7) = -16.
  EXPECT_EQ(s.acc[4 * 16 + 0], 1000 - 16);
  // lane o>0: 2*(o-8).
  EXPECT_EQ(s.acc[4 * 16 + 3], 1000 + 2 * (3 - 8));
  EXPECT_EQ(s.acc[4 * 16 + 15], static_cast<int32_t>(0x80000000u + 13u));  // 2147483647 + 14 wraps
  // Large products wrap too: 16 x (-128 * -128) = 262144 per lane.
  for (int k = 0; k < 16; ++k) s.inp[k] = -128;
  for (int b = 0; b < 256; ++b) s.wgt[b] = -128;
  s.uop[1] = Uop{9, 0, 0};
  for (int o = 0; o < 16; ++o) s.acc[9 * 16 + o] = 2147483647 - 100000;
  g.loop.uop_bgn = 1;
  g.loop.uop_end = 2;
  exec(g, s, dram);
  EXPECT_EQ(s.acc[9 * 16 + 0], wrap32(int64_t{2147483647} - 100000 + 262144));
}

TEST(VtaModelGemm, ResetZeroesOnlyTouchedEntries) {
  VtaSram s;
  for (auto& v : s.acc) v = 77;
  s.uop[0] = Uop{10, 0, 0};
  GemmInsn g;
  g.reset = true;
  g.loop = nest(0, 1, {2, 2}, {4, 1});
  std::vector<uint8_t> dram;
  ModelStats st;
  execute_insn(g, 0, s, dram, st);
  for (int a = 0; a < 20; ++a) {
    const bool touched = a == 10 || a == 11 || a == 14 || a == 15;
    for (int o = 0; o < 16; ++o) EXPECT_EQ(s.acc[a * 16 + o], touched ? 0 : 77) << a;
  }
  EXPECT_EQ(st.gemm_uops, 0u);
  EXPECT_EQ(st.gemm_resets, 4u);
}

struct AluCase {
  AluOp op;
  int32_t a, b, expect;
};

TEST(VtaModelAlu, EachOpWithImmAndRegister) {
  const AluCase cases[] = {
      {AluOp::kMin, -5, 3, -5},
      {AluOp::kMin, 7, -2, -2},
      {AluOp::kMax, -5, 3, 3},
      {AluOp::kMax, -1, -9, -1},
      {AluOp::kAdd, 2147483647, 1, -2147483647 - 1},  // wraps
      {AluOp::kAdd, -10, -20, -30},
      {AluOp::kMul, 65536, 2, 131072},
      {AluOp::kMul, -3, 7, -21},
      {AluOp::kMul, 0x12345678, 256, 0x34567800},  // low 32 bits
      {AluOp::kMul, 32767, -32768, -1073709056},
      {AluOp::kShr, -16, 2, -4},           // arithmetic right shift
      {AluOp::kShr, 1000, 3, 125},
      {AluOp::kShr, 1, -4, 16},            // negative = left shift
      {AluOp::kShr, 0x40000000, -1, -2147483647 - 1},
      {AluOp::kShr, -7, 0, -7},
      {AluOp::kShr, 5, 31, 0},
  };
  for (const AluCase& c : cases) {
    for (bool imm : {true, false}) {
      if (imm && (c.b < -32768 || c.b > 32767)) continue;
      if (!imm && c.op == AluOp::kShr && c.b < 0) continue;  // register shifts stay in 0..31
      VtaSram s;
      s.uop[0] = Uop{1, 2, 0};
      for (int l = 0; l < 16; ++l) {
        s.acc[1 * 16 + l] = c.a;
        s.acc[2 * 16 + l] = imm ? 12345 : c.b;
      }
      AluInsn a;
      a.op = c.op;
      a.use_imm = imm;
      a.imm = static_cast<int16_t>(imm ? c.b : 999);
      a.loop.uop_bgn = 0;
      a.loop.uop_end = 1;
      std::vector<uint8_t> dram;
      exec(a, s, dram);
      for (int l = 0; l < 16; ++l) {
        EXPECT_EQ(s.acc[16 + l], c.expect) << alu_op_name(c.op) << " a=" << c.a << " b=" << c.b << " imm=" << imm;
      }
      EXPECT_EQ(s.acc[2 * 16], imm ? 12345 : c.b);  // src untouched
    }
  }
}

TEST(VtaModelAlu, ImmediateIsSignExtended) {
  VtaSram s;
  s.uop[0] = Uop{0, 0, 0};
  s.acc[0] = 100;
  AluInsn a = alu_imm(AluOp::kAdd, static_cast<int16_t>(0xFFFF), nest(0, 1));  // -1
  std::vector<uint8_t> dram;
  exec(a, s, dram);
  EXPECT_EQ(s.acc[0], 99);
  a.imm = static_cast<int16_t>(0x8000);  // -32768
  exec(a, s, dram);
  EXPECT_EQ(s.acc[0], 99 - 32768);
}

TEST(VtaModelAlu, LoopIndicesPerLaneAndResetIgnored) {
  VtaSram s;
  for (int a = 0; a < 64; ++a) {
    for (int l = 0; l < 16; ++l) s.acc[a * 16 + l] = a * 100 + l;
  }
  s.uop[5] = Uop{0, 32, 0};
  s.uop[6] = Uop{1, 40, 0};
  AluInsn a;
  a.op = AluOp::kAdd;
  a.reset = true;  // ignored by ALU
  a.loop = nest(5, 7, {2, 3}, {10, 2}, {1, 3});
  std::vector<int32_t> expect = s.acc;
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 3; ++j) {
      for (int u = 0; u < 2; ++u) {
        const int d = (u ? 1 : 0) + i * 10 + j * 2;
        const int r = (u ? 40 : 32) + i * 1 + j * 3;
        for (int l = 0; l < 16; ++l) expect[d * 16 + l] += expect[r * 16 + l];
      }
    }
  }
  std::vector<uint8_t> dram;
  ModelStats st;
  execute_insn(a, 0, s, dram, st);
  EXPECT_EQ(s.acc, expect);
  EXPECT_EQ(st.alu_ops, 12u);
}

// ---- whole programs: tokens, errors, deadlock ------------------------------

std::vector<uint8_t> image_with(const std::vector<Insn>& insns, std::size_t data_bytes, uint64_t* insn_addr) {
  std::vector<uint8_t> dram(data_bytes, 0);
  *insn_addr = data_bytes;
  const auto b = to_bytes(insns);
  dram.insert(dram.end(), b.begin(), b.end());
  return dram;
}

TEST(VtaModelProgram, PopWaitsForPushAcrossEngines) {
  // STORE comes first in the stream but pops compute->store, so it must see
  // the ALU result. ACC_8BIT load of 1s, +41, store -> 42.
  MemInsn st = store(0, 4, 1, 1, 1);
  st.dep.pop_prev = true;
  st.dep.push_prev = true;
  MemInsn ld = load(MemType::kAcc8, 0, 1, 1, 1, 1);
  MemInsn uop = load(MemType::kUop, 0, 8, 1, 1, 1);  // DRAM bytes 32..35 = uop {0,0,0}
  AluInsn add = alu_imm(AluOp::kAdd, 41, nest(0, 1));
  add.dep.push_next = true;
  FinishInsn fin;
  fin.dep.pop_next = true;
  uint64_t addr = 0;
  std::vector<uint8_t> dram = image_with({st, ld, uop, add, fin}, 128, &addr);
  for (int l = 0; l < 16; ++l) dram[16 + l] = 1;
  std::vector<std::size_t> order;
  ModelOptions opt;
  opt.on_execute = [&](std::size_t i, Engine) { order.push_back(i); };
  const ModelStats s = run_model(dram, addr, 5, opt);
  for (int l = 0; l < 16; ++l) EXPECT_EQ(dram[64 + l], 42);
  EXPECT_EQ(order, (std::vector<std::size_t>{1, 2, 3, 0, 4}));
  EXPECT_TRUE(s.finished);
  EXPECT_EQ(s.alu_ops, 1u);
  EXPECT_EQ(s.stores, 1u);
}

// A program without the tokens it needs gives schedule-dependent bytes, and
// the random schedules find that (which makes the race-freedom check of the
// random programs meaningful).
TEST(VtaModelProgram, RandomSchedulesExposeARace) {
  MemInsn ld = load(MemType::kAcc8, 0, 1, 1, 1, 1);
  MemInsn uop = load(MemType::kUop, 0, 8, 1, 1, 1);  // uop {0,0,0}
  MemInsn st = store(0, 4, 1, 1, 1);                 // no pop: races with the ALU
  st.dep.push_prev = true;
  const AluInsn add = alu_imm(AluOp::kAdd, 5, nest(0, 1));
  FinishInsn fin;
  fin.dep.pop_next = true;
  uint64_t addr = 0;
  const std::vector<uint8_t> image = image_with({ld, uop, st, add, fin}, 128, &addr);
  std::set<uint8_t> outcomes;
  for (uint64_t sched = 0; sched < 32; ++sched) {
    std::vector<uint8_t> dram = image;
    ModelOptions opt;
    opt.schedule_seed = sched;
    run_model(dram, addr, 5, opt);
    outcomes.insert(dram[64]);
  }
  EXPECT_GE(outcomes.size(), 2u);  // stored before and after the ADD
}

TEST(VtaModelProgram, IgnoredFlagsDoNotBlockOrPush) {
  MemInsn li = load(MemType::kInp, 0, 0, 0, 0, 0);
  li.dep.pop_prev = true;   // ignored on the LOAD engine
  li.dep.push_prev = true;  // ignored
  MemInsn st = store(0, 0, 0, 0, 0);
  st.dep.pop_next = true;   // ignored on the STORE engine
  st.dep.push_next = true;  // ignored
  FinishInsn fin;
  std::vector<uint8_t> dram(64, 0);
  const ModelStats s = run_model({li, st, fin}, dram);
  EXPECT_TRUE(s.finished);
  // A compute pop that only an ignored push could satisfy deadlocks.
  FinishInsn fin2;
  fin2.dep.pop_prev = true;
  EXPECT_THROW(run_model({li, fin2}, dram), TimeoutError);
}

TEST(VtaModelProgram, FinishStopsAndCountsTheRest) {
  MemInsn ld = load(MemType::kInp, 0, 0, 1, 1, 1);
  ld.dep.pop_next = true;  // waits for a token that comes after FINISH
  GemmInsn noop;
  noop.loop.iter_out = 0;
  noop.dep.push_prev = true;
  std::vector<uint8_t> dram(64, 0);
  const ModelStats s = run_model({ld, FinishInsn{}, noop}, dram);
  EXPECT_TRUE(s.finished);
  EXPECT_EQ(s.unexecuted, 2u);
}

TEST(VtaModelProgram, DeadlockNamesEngineAndQueue) {
  GemmInsn g;  // pops load->compute, but LOAD never pushes
  g.dep.pop_prev = true;
  MemInsn ld = load(MemType::kInp, 0, 0, 1, 1, 1);
  ld.dep.pop_next = true;  // pops compute->load, pushed only by the GEMM
  std::vector<uint8_t> dram(64, 0);
  expect_contains(what_of<TimeoutError>([&] { run_model({ld, g, FinishInsn{}}, dram); }),
                  {"deadlock", "COMPUTE engine stuck at instruction 1", "LOAD engine stuck at instruction 0",
                   "load->compute", "compute->load"});
  EXPECT_THROW(run_model({load(MemType::kInp, 0, 0, 1, 1, 1)}, dram), TimeoutError);  // no FINISH
}

void expect_input_error(const std::vector<Insn>& insns, std::size_t dram_bytes, const std::string& needle) {
  std::vector<uint8_t> dram(dram_bytes, 0);
  try {
    run_model(insns, dram);
    FAIL() << "expected InputError containing '" << needle << "'";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST(VtaModelErrors, NameTheInstructionIndex) {
  const FinishInsn fin;
  MemInsn bad_type = load(static_cast<MemType>(6), 0, 0, 1, 1, 1);
  expect_input_error({GemmInsn{}, bad_type, fin}, 1024, "instruction 1 (LOAD MEM?6)");
  expect_input_error({load(MemType::kOut, 0, 0, 1, 1, 1), fin}, 1024, "instruction 0 (LOAD OUT)");
  MemInsn st = store(0, 0, 1, 1, 1);
  st.mem_type = MemType::kInp;
  expect_input_error({GemmInsn{}, st, fin}, 1024, "instruction 1 (STORE INP)");
  // SRAM past the end: 2040 + 2 rows x 5 entries > 2048.
  expect_input_error({load(MemType::kInp, 2040, 0, 2, 5, 5), fin}, 4096, "instruction 0 (LOAD INP): SRAM entries [2040, 2050)");
  // WGT depth 1024.
  expect_input_error({GemmInsn{}, load(MemType::kWgt, 1023, 0, 1, 2, 2), fin}, 4096, "instruction 1 (LOAD WGT)");
  // DRAM past the end: row 1 at element 4 -> bytes 64..80 of a 70-byte image.
  expect_input_error({load(MemType::kInp, 0, 0, 2, 1, 4), fin}, 70, "DRAM bytes [64, 80)");
  expect_input_error({store(0, 100, 1, 1, 1), fin}, 70, "instruction 0 (STORE OUT): DRAM");
  // STORE reading ACC past the end.
  expect_input_error({store(2047, 0, 1, 2, 2), fin}, 4096, "ACC buffer depth 2048");
  // GEMM index out of range: uop {2047,...} + dst_factor_out.
  GemmInsn g;
  g.loop.uop_bgn = 0;
  g.loop.uop_end = 1;
  g.loop.iter_out = 2;
  g.loop.dst_factor_out = 1;
  std::vector<uint8_t> uop_dram(64, 0);
  const uint32_t uw = 2047u;
  for (int b = 0; b < 4; ++b) uop_dram[b] = static_cast<uint8_t>(uw >> (8 * b));
  {
    std::vector<uint8_t> dram = uop_dram;
    try {
      run_model({load(MemType::kUop, 0, 0, 1, 1, 1), g, fin}, dram);
      FAIL() << "expected InputError";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("instruction 1 (GEMM): acc index 2048 at i=1"), std::string::npos)
          << e.what();
    }
  }
  AluInsn a;
  a.op = static_cast<AluOp>(6);
  expect_input_error({a, fin}, 64, "instruction 0 (ALU ALU?6): undefined alu_opcode 6");
  GemmInsn big;
  big.loop.uop_bgn = 8190;
  big.loop.uop_end = 8200;
  expect_input_error({big, fin}, 64, "uop range [8190, 8200)");
}

TEST(VtaModelErrors, UndefinedOpcodeAndStreamRange) {
  std::vector<uint8_t> dram(64, 0);
  dram[16] = 3;  // FINISH at index 1 of a stream at 0... index 0 is a GEMM of zeros? opcode 0 = LOAD UOP sync
  dram[32] = 7;  // undefined opcode at index 2
  try {
    run_model(dram, 0, 3);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("instruction 2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("undefined opcode 7"), std::string::npos) << e.what();
  }
  EXPECT_THROW(run_model(dram, 48, 2), InputError);  // runs past the image
  EXPECT_NO_THROW(run_model(dram, 0, 2));
}

}  // namespace
}  // namespace cosim::vta
