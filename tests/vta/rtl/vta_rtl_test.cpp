// The VTA core's RTL against the spec (shared/spec/vta-isa.md), one program
// per rule. Instructions come from the test's own encoder; expected values
// from straightforward loops over the spec formulas.
#include <gtest/gtest.h>

#include <chrono>
#include <ctime>
#include <cstdio>
#include <random>

#include "vta_rtl_util.hpp"

using namespace vta_rtl_test;
using namespace cosim::test::vta_isa;  // the instruction encoder
using cosim::tb::vta::BareOptions;
using cosim::tb::vta::RtlRunResult;

namespace {

constexpr Deps kPushNext{false, false, false, true};
constexpr Deps kPopPrev{true, false, false, false};
constexpr Deps kPopNext{false, true, false, false};
// A STORE that waits for compute->store and hands store->compute back.
constexpr Deps kStoreTokens{true, false, true, false};


void expect_done(const RtlRunResult& r, const std::vector<std::string>& proto) {
  ASSERT_EQ(r.status, RtlRunResult::Status::kDone) << r.diagnosis;
  EXPECT_TRUE(proto.empty()) << proto.front();
}

// Runs p: it must finish, with no AXI protocol error.
RtlRunResult run_to_done(Program& p, BareOptions opts = {}, uint64_t max_cycles = 100000) {
  std::vector<std::string> proto;
  const RtlRunResult r = p.run(opts, max_cycles, &proto);
  expect_done(r, proto);
  return r;
}

// INP element i, lane k as placed in DRAM.
int8_t inp_at(const Program& p, uint32_t elem, uint32_t k) {
  return static_cast<int8_t>(p.dram[static_cast<uint64_t>(elem) * 16 + k]);
}
int8_t wgt_at(const Program& p, uint32_t elem, uint32_t o, uint32_t k) {
  return static_cast<int8_t>(p.dram[static_cast<uint64_t>(elem) * 256 + o * 16 + k]);
}
int32_t acc_at(const Program& p, uint32_t elem, uint32_t o) {
  return static_cast<int32_t>(p.get_u32(static_cast<uint64_t>(elem) * 64 + 4 * o));
}

void fill_random(Program& p, uint64_t addr, std::size_t n, std::mt19937& g) {
  for (std::size_t i = 0; i < n; ++i) p.dram[addr + i] = static_cast<uint8_t>(g() & 0xff);
}

// The GEMM program of GemmRandomTiles; returns the expected ACC (8 x 16).
std::vector<int64_t> build_gemm_program(Program& p, uint32_t seed) {
  std::mt19937 g(seed);
  fill_random(p, Layout::kInp, 16 * 16, g);
  fill_random(p, Layout::kWgt, 8 * 256, g);
  fill_random(p, Layout::kAcc, 8 * 64, g);
  // Back-to-back and distance-2 micro-ops on the same accumulator.
  const uint32_t uops[5][3] = {{0, 0, 0}, {0, 1, 1}, {1, 2, 2}, {0, 3, 3}, {0, 0, 0}};
  for (int i = 0; i < 5; ++i) p.put_u32(Layout::kUop + 4 * i, uop(uops[i][0], uops[i][1], uops[i][2]));

  p.add(mem_insn(kLoad, kInp, 0, p.inp_base(), 1, 16, 16));
  p.add(mem_insn(kLoad, kWgt, 0, p.wgt_base(), 1, 8, 8, kPushNext));
  p.add(mem_insn(kLoad, kUop, 0, p.uop_base(), 1, 5, 5, kPopPrev));
  p.add(mem_insn(kLoad, kAcc, 0, p.acc_base(), 1, 8, 8));
  const Loop l = Loop{}.uops(0, 4).iters(2, 2).dst(2, 4).src(4, 1).wgt(0, 4);
  p.add(gemm_insn(l, false, kPushNext));
  p.put_u32(Layout::kUop + 4 * 4, uop(0, 0, 0));
  store_planes(p, 0, 8, p.out_base(), 4);
  p.add(finish_insn(kPopNext));

  std::vector<int64_t> acc(8 * 16);
  for (uint32_t a = 0; a < 8; ++a)
    for (uint32_t o = 0; o < 16; ++o) acc[a * 16 + o] = acc_at(p, p.acc_base() + a, o);
  for (uint32_t i = 0; i < l.iter_out; ++i)
    for (uint32_t j = 0; j < l.iter_in; ++j)
      for (uint32_t u = l.uop_bgn; u < l.uop_end; ++u) {
        const uint32_t d = uops[u][0] + i * l.dst_out + j * l.dst_in;
        const uint32_t s = uops[u][1] + i * l.src_out + j * l.src_in;
        const uint32_t w = uops[u][2] + i * l.wgt_out + j * l.wgt_in;
        for (uint32_t o = 0; o < 16; ++o) {
          int64_t sum = 0;
          for (uint32_t k = 0; k < 16; ++k) sum += inp_at(p, p.inp_base() + s, k) * wgt_at(p, p.wgt_base() + w, o, k);
          acc[d * 16 + o] = static_cast<int32_t>(static_cast<uint32_t>(acc[d * 16 + o] + sum));
        }
      }
  return acc;
}

void check_planes(const Program& p, const std::vector<int64_t>& expect, uint32_t n) {
  int bad = 0;
  for (uint32_t e = 0; e < n; ++e)
    for (uint32_t o = 0; o < 16; ++o) {
      const int32_t got = plane_value(p, n, p.out_base(), e, o);
      if (got != expect[e * 16 + o] && bad++ < 5) {
        ADD_FAILURE() << "acc[" << e << "][" << o << "] = " << got << ", expected " << expect[e * 16 + o];
      }
    }
  EXPECT_EQ(bad, 0);
}

// Runs p to its end, then compares the n planes store_planes wrote with expect.
void run_and_check_planes(Program& p, const std::vector<int64_t>& expect, uint32_t n) {
  run_to_done(p);
  check_planes(p, expect, n);
}

}  // namespace

TEST(VtaRtl, GemmRandomTiles) {
  for (uint32_t seed : {1u, 2u, 3u}) {
    Program p;
    const auto expect = build_gemm_program(p, seed);
    const auto r = run_to_done(p, {}, 200000);
    check_planes(p, expect, 8);
    EXPECT_EQ(r.perf.gemm_busy > 0, true);
  }
}

TEST(VtaRtl, GemmWithRandomStallsIsExactAndDeterministic) {
  BareOptions o;
  o.read_latency = 7;
  o.bytes_per_cycle = 8;
  o.stall_probability = 0.3;
  o.seed = 5;
  uint64_t cycles[2];
  for (int run = 0; run < 2; ++run) {
    Program p;
    const auto expect = build_gemm_program(p, 9);
    const auto r = run_to_done(p, o, 400000);
    check_planes(p, expect, 8);
    cycles[run] = r.cycles;
  }
  EXPECT_EQ(cycles[0], cycles[1]);
  Program fast;
  build_gemm_program(fast, 9);
  EXPECT_LT(fast.run().cycles, cycles[0]);
}

TEST(VtaRtl, ResetRegZeroesOnlyTheLoopedAccumulators) {
  Program p;
  std::mt19937 g(11);
  fill_random(p, Layout::kAcc, 8 * 64, g);
  p.put_u32(Layout::kUop, uop(0, 0, 0));
  p.add(mem_insn(kLoad, kUop, 0, p.uop_base(), 1, 1, 1));
  p.add(mem_insn(kLoad, kAcc, 0, p.acc_base(), 1, 8, 8));
  Loop l;
  l.iter_out = 3;
  l.dst_out = 2;  // acc 0, 2, 4
  l.src_out = 1000;  // would be out of range if reset read INP
  p.add(gemm_insn(l, true, kPushNext));
  store_planes(p, 0, 8, p.out_base(), 0);
  p.add(finish_insn(kPopNext));
  std::vector<int64_t> expect(8 * 16);
  for (uint32_t a = 0; a < 8; ++a)
    for (uint32_t o = 0; o < 16; ++o) expect[a * 16 + o] = (a == 0 || a == 2 || a == 4) ? 0 : acc_at(p, p.acc_base() + a, o);
  run_and_check_planes(p, expect, 8);
}

TEST(VtaRtl, AluAllOpsImmediateAndRegister) {
  Program p;
  std::mt19937 g(21);
  // DRAM ACC: S (8 entries) at +0, D (8) at +8, shift amounts 0..31 (8) at +16.
  fill_random(p, Layout::kAcc, 16 * 64, g);
  for (uint32_t i = 0; i < 8 * 16; ++i) p.put_u32(Layout::kAcc + 16 * 64 + 4 * i, g() % 32);
  struct Case {
    uint32_t op;
    bool imm;
    int32_t value;
    bool shift_src;
  };
  const Case cases[] = {{kMin, true, -12345, false}, {kMin, false, 0, false},  {kMax, true, 777, false},
                        {kMax, false, 0, false},     {kAdd, true, -32768, false}, {kAdd, false, 0, false},
                        {kShr, true, 7, false},      {kShr, true, -9, false},  {kShr, false, 0, true},
                        {kMul, true, -301, false},   {kMul, false, 0, false},  {kShr, true, 0, false}};
  const uint32_t nc = sizeof(cases) / sizeof(cases[0]);
  // SRAM ACC: S at 0..7, dst copies at 8 + 8c, shift amounts at 200..207.
  const uint32_t kShiftSram = 200;
  for (uint32_t c = 0; c < nc; ++c)
    p.put_u32(Layout::kUop + 4 * c, uop(8 + 8 * c, cases[c].shift_src ? kShiftSram : 0, 0));
  p.put_u32(Layout::kUop + 4 * nc, uop(8, 8, 0));  // for store_planes
  p.add(mem_insn(kLoad, kUop, 0, p.uop_base(), 1, nc + 1, nc + 1));
  p.add(mem_insn(kLoad, kAcc, 0, p.acc_base(), 1, 8, 8));
  p.add(mem_insn(kLoad, kAcc, 8, p.acc_base() + 8, nc, 8, 0));  // x_stride 0: the same row nc times
  p.add(mem_insn(kLoad, kAcc, kShiftSram, p.acc_base() + 16, 1, 8, 8));
  for (uint32_t c = 0; c < nc; ++c) {
    const Loop l = Loop{}.uops(c, c + 1).iters(8, 1).dst(1, 0).src(1, 0);
    p.add(alu_insn(l, cases[c].op, cases[c].imm, cases[c].value, c + 1 == nc ? kPushNext : Deps{}));
  }
  const uint32_t n = 8 * nc;
  store_planes(p, 8, n, p.out_base(), nc);
  p.add(finish_insn(kPopNext));

  std::vector<int64_t> expect(n * 16);
  for (uint32_t c = 0; c < nc; ++c)
    for (uint32_t e = 0; e < 8; ++e)
      for (uint32_t o = 0; o < 16; ++o) {
        const int64_t a = acc_at(p, p.acc_base() + 8 + e, o);
        const int64_t b = cases[c].imm ? cases[c].value
                                       : acc_at(p, p.acc_base() + (cases[c].shift_src ? 16 : 0) + e, o);
        int64_t r = 0;
        switch (cases[c].op) {
          case kMin: r = a < b ? a : b; break;
          case kMax: r = a > b ? a : b; break;
          case kAdd: r = a + b; break;
          case kMul: r = a * b; break;
          case kShr: {
            // b >= 0: arithmetic right shift = floor division by 2^b.
            if (b >= 0) {
              int64_t q = a;
              for (int64_t s = 0; s < b; ++s) q = (q - ((q % 2 + 2) % 2)) / 2;
              r = q;
            } else {
              r = a * (int64_t{1} << -b);
            }
            break;
          }
        }
        expect[(c * 8 + e) * 16 + o] = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(r)));
      }
  const auto r = run_to_done(p, {}, 200000);
  check_planes(p, expect, n);
  EXPECT_GT(r.perf.alu_busy, 0u);
}

TEST(VtaRtl, LoadInpWithAllPadsAndStride) {
  Program p;
  std::mt19937 g(31);
  fill_random(p, Layout::kInp, 200 * 16, g);
  for (uint32_t k = 0; k < 16; ++k) p.dram[Layout::kWgt + k * 16 + k] = 1;  // identity
  p.put_u32(Layout::kUop, uop(0, 0, 0));
  const uint32_t n = 40;
  // Prefill INP 0..39 with non-zero data, then the padded load over 2..37.
  p.add(mem_insn(kLoad, kInp, 0, p.inp_base(), 1, n, n));
  Pads pads{1, 2, 1, 3};
  p.add(mem_insn(kLoad, kInp, 2, p.inp_base() + 100, 3, 2, 5, Deps{}, pads));
  p.add(mem_insn(kLoad, kWgt, 0, p.wgt_base(), 1, 1, 1, kPushNext));
  p.add(mem_insn(kLoad, kUop, 0, p.uop_base(), 1, 1, 1, kPopPrev));
  const Loop l = Loop{}.iters(n, 1).dst(1, 0).src(1, 0);
  p.add(gemm_insn(l, true));
  p.add(gemm_insn(l, false, kPushNext));
  p.add(mem_insn(kStore, kOut, 0, p.out_base(), 1, n, n, kStoreTokens));
  p.add(finish_insn(kPopNext));

  // Expected INP contents from the spec's padding rule.
  std::vector<int8_t> expect(n * 16);
  for (uint32_t i = 0; i < n; ++i)
    for (uint32_t k = 0; k < 16; ++k) expect[i * 16 + k] = inp_at(p, p.inp_base() + i, k);
  const uint32_t xt = pads.x0 + 2 + pads.x1, rows = pads.y0 + 3 + pads.y1;
  for (uint32_t r = 0; r < rows; ++r)
    for (uint32_t x = 0; x < xt; ++x) {
      const uint32_t idx = 2 + r * xt + x;
      const bool data = r >= pads.y0 && r < pads.y0 + 3 && x >= pads.x0 && x < pads.x0 + 2;
      for (uint32_t k = 0; k < 16; ++k)
        expect[idx * 16 + k] = data ? inp_at(p, p.inp_base() + 100 + (r - pads.y0) * 5 + (x - pads.x0), k) : 0;
    }
  run_to_done(p);
  for (uint32_t i = 0; i < n; ++i)
    for (uint32_t k = 0; k < 16; ++k)
      ASSERT_EQ(static_cast<int8_t>(p.dram[Layout::kOut + i * 16 + k]), expect[i * 16 + k]) << "inp " << i << " lane " << k;
}

TEST(VtaRtl, LoadAccWithPadsAndStride) {
  Program p;
  std::mt19937 g(41);
  fill_random(p, Layout::kAcc, 64 * 64, g);
  p.put_u32(Layout::kUop, uop(0, 0, 0));
  const uint32_t n = 30;
  Pads pads{1, 1, 2, 1};
  p.add(mem_insn(kLoad, kUop, 0, p.uop_base(), 1, 1, 1));
  p.add(mem_insn(kLoad, kAcc, 0, p.acc_base(), 1, n, n));
  p.add(mem_insn(kLoad, kAcc, 1, p.acc_base() + 40, 2, 3, 4, kPushNext, pads));
  store_planes(p, 0, n, p.out_base(), 0);
  p.add(finish_insn(kPopNext));
  std::vector<int64_t> expect(n * 16);
  for (uint32_t i = 0; i < n; ++i)
    for (uint32_t o = 0; o < 16; ++o) expect[i * 16 + o] = acc_at(p, p.acc_base() + i, o);
  const uint32_t xt = 2 + 3 + 1;
  for (uint32_t r = 0; r < 4; ++r)
    for (uint32_t x = 0; x < xt; ++x) {
      const bool data = r >= 1 && r < 3 && x >= 2 && x < 5;
      for (uint32_t o = 0; o < 16; ++o)
        expect[(1 + r * xt + x) * 16 + o] = data ? acc_at(p, p.acc_base() + 40 + (r - 1) * 4 + (x - 2), o) : 0;
    }
  run_and_check_planes(p, expect, n);
}

TEST(VtaRtl, UopLoadUnalignedWithPadding) {
  Program p;
  std::mt19937 g(51);
  fill_random(p, Layout::kInp, 16 * 16, g);
  fill_random(p, Layout::kWgt, 4 * 256, g);
  for (uint32_t j = 0; j < 16; ++j) p.put_u32(Layout::kUop + 4 * j, uop(j, j, j % 4));
  p.put_u32(Layout::kUop + 4 * 20, uop(0, 0, 0));
  p.put_u32(Layout::kUop + 4 * 21, uop(5, 6, 7));  // prefill, overwritten by a pad
  p.add(mem_insn(kLoad, kInp, 0, p.inp_base(), 1, 16, 16));
  p.add(mem_insn(kLoad, kWgt, 0, p.wgt_base(), 1, 4, 4, kPushNext));
  p.add(mem_insn(kLoad, kUop, 0, p.uop_base() + 21, 1, 1, 1, kPopPrev));
  // Rows at uop elements 3..5 and 8..10 (sub-beat offsets 3 and 0), x_pad_0 1.
  Pads pads{0, 0, 1, 0};
  p.add(mem_insn(kLoad, kUop, 0, p.uop_base() + 3, 2, 3, 5, Deps{}, pads));
  p.add(mem_insn(kLoad, kUop, 8, p.uop_base() + 20, 1, 1, 1));
  Loop reset;
  reset.uop_bgn = 8;
  reset.uop_end = 9;
  reset.iter_out = 16;
  reset.dst_out = 1;
  p.add(gemm_insn(reset, true));
  Loop l;
  l.uop_bgn = 0;
  l.uop_end = 8;
  p.add(gemm_insn(l, false, kPushNext));
  store_planes(p, 0, 16, p.out_base(), 8);
  p.add(finish_insn(kPopNext));
  const uint32_t seq[8] = {99, 3, 4, 5, 99, 8, 9, 10};  // 99 = padded uop {0,0,0}
  std::vector<int64_t> expect(16 * 16, 0);
  for (uint32_t s : seq) {
    const uint32_t d = s == 99 ? 0 : s, src = s == 99 ? 0 : s, w = s == 99 ? 0 : s % 4;
    for (uint32_t o = 0; o < 16; ++o) {
      int64_t sum = 0;
      for (uint32_t k = 0; k < 16; ++k) sum += inp_at(p, p.inp_base() + src, k) * wgt_at(p, p.wgt_base() + w, o, k);
      expect[d * 16 + o] += sum;
    }
  }
  run_and_check_planes(p, expect, 16);
}

TEST(VtaRtl, Acc8BitSignExtends) {
  Program p;
  std::mt19937 g(61);
  fill_random(p, Layout::kAcc, 16 * 64, g);
  fill_random(p, Layout::kInp, 16 * 16, g);
  for (uint32_t k = 0; k < 16; ++k) p.dram[Layout::kInp + k] = static_cast<uint8_t>(0x80 + k);  // negatives
  p.put_u32(Layout::kUop, uop(0, 0, 0));
  const uint32_t n = 12;
  Pads pads{1, 0, 0, 0};
  p.add(mem_insn(kLoad, kUop, 0, p.uop_base(), 1, 1, 1));
  p.add(mem_insn(kLoad, kAcc, 0, p.acc_base(), 1, n, n));
  // ACC_8BIT: dram_base counts 16-byte elements, x_stride too.
  p.add(mem_insn(kLoad, kAcc8, 0, p.inp_base(), 2, 3, 4, kPushNext, pads));
  store_planes(p, 0, n, p.out_base(), 0);
  p.add(finish_insn(kPopNext));
  std::vector<int64_t> expect(n * 16);
  for (uint32_t i = 0; i < n; ++i)
    for (uint32_t o = 0; o < 16; ++o) expect[i * 16 + o] = acc_at(p, p.acc_base() + i, o);
  for (uint32_t i = 0; i < 3; ++i)
    for (uint32_t o = 0; o < 16; ++o) expect[i * 16 + o] = 0;
  for (uint32_t r = 0; r < 2; ++r)
    for (uint32_t x = 0; x < 3; ++x)
      for (uint32_t o = 0; o < 16; ++o) expect[(3 + r * 3 + x) * 16 + o] = inp_at(p, p.inp_base() + r * 4 + x, o);
  run_and_check_planes(p, expect, n);
  EXPECT_EQ(plane_value(p, n, p.out_base(), 3, 0), -128);
}

TEST(VtaRtl, StoreTruncatesAndUsesStrideWithoutPadding) {
  Program p;
  const uint32_t values[] = {0x12345680u, 0x7fffffffu, 0x80000001u, 0xffffffffu, 0x000000ffu, 0x00000100u};
  for (uint32_t e = 0; e < 6; ++e)
    for (uint32_t o = 0; o < 16; ++o) p.put_u32(Layout::kAcc + e * 64 + 4 * o, values[(e + o) % 6] + (o << 8));
  for (uint64_t a = Layout::kOut; a < Layout::kOut + 16 * 16; ++a) p.dram[a] = 0xee;
  p.add(mem_insn(kLoad, kAcc, 0, p.acc_base(), 1, 6, 6, kPushNext));
  Pads pads{1, 1, 1, 1};  // ignored by STORE
  p.add(mem_insn(kStore, kOut, 0, p.out_base() + 1, 2, 3, 5, kStoreTokens, pads));
  p.add(finish_insn(kPopNext));
  run_to_done(p);
  for (uint32_t el = 0; el < 16; ++el) {
    const uint32_t rel = el >= 1 ? el - 1 : 99;
    const bool written = rel != 99 && rel < 8 && rel % 5 < 3;
    for (uint32_t o = 0; o < 16; ++o) {
      const uint8_t got = p.dram[Layout::kOut + el * 16 + o];
      if (!written) {
        EXPECT_EQ(got, 0xee) << "element " << el << " must stay untouched";
      } else {
        const uint32_t acc_e = (rel / 5) * 3 + rel % 5;
        const uint32_t v = values[(acc_e + o) % 6] + (o << 8);
        EXPECT_EQ(got, v & 0xffu) << "element " << el << " lane " << o;
      }
    }
  }
  EXPECT_EQ(p.dram[Layout::kOut + 16], 0x80);  // 0x12345680 -> 0x80
}

TEST(VtaRtl, LongBurstsSplitAt4KBAnd256Beats) {
  Program p;
  std::mt19937 g(71);
  const uint32_t nw = 20;
  fill_random(p, Layout::kWgt + 3 * 256, nw * 256, g);
  for (uint32_t j = 0; j < 16; ++j) p.dram[Layout::kInp + j * 16 + j] = 1;  // unit vectors
  p.put_u32(Layout::kUop, uop(0, 0, 0));
  p.add(mem_insn(kLoad, kInp, 0, p.inp_base(), 1, 16, 16));
  p.add(mem_insn(kLoad, kWgt, 0, p.wgt_base() + 3, 1, nw, nw, kPushNext));  // 320 beats over 4 KB lines
  p.add(mem_insn(kLoad, kUop, 0, p.uop_base(), 1, 1, 1, kPopPrev));
  const Loop l = Loop{}.iters(nw, 16).dst(16, 1).src(0, 1).wgt(1, 0);
  p.add(gemm_insn(l, true));
  p.add(gemm_insn(l, false, kPushNext));
  p.add(mem_insn(kStore, kOut, 0, p.out_base() + 3, 1, nw * 16, nw * 16, kStoreTokens));
  p.add(finish_insn(kPopNext));
  const auto r = run_to_done(p, {}, 200000);
  for (uint32_t w = 0; w < nw; ++w)
    for (uint32_t j = 0; j < 16; ++j)
      for (uint32_t o = 0; o < 16; ++o)
        ASSERT_EQ(static_cast<int8_t>(p.dram[Layout::kOut + (3 + w * 16 + j) * 16 + o]),
                  wgt_at(p, p.wgt_base() + 3 + w, o, j))
            << "wgt " << w << " row " << o << " col " << j;
  EXPECT_EQ(r.perf.load_bytes, 16u * 16 + nw * 256);
  EXPECT_EQ(r.perf.store_bytes, nw * 16u * 16);
}

namespace {
// Two phases reusing INP and ACC: only right if LOAD -> COMPUTE -> STORE and
// the compute->load / store->compute hand-backs are honoured.
void build_token_program(Program& p, bool with_tokens) {
  std::mt19937 g(81);
  fill_random(p, Layout::kInp, 8 * 16, g);
  for (uint32_t k = 0; k < 16; ++k) p.dram[Layout::kWgt + k * 16 + k] = 1;
  p.put_u32(Layout::kUop, uop(0, 0, 0));
  auto d = [&](bool pp, bool pn, bool up, bool un) { return with_tokens ? Deps{pp, pn, up, un} : Deps{}; };
  const Loop l = Loop{}.iters(4, 1).dst(1, 0).src(1, 0);
  p.add(mem_insn(kLoad, kWgt, 0, p.wgt_base(), 1, 1, 1));
  p.add(mem_insn(kLoad, kInp, 0, p.inp_base(), 1, 4, 4, d(0, 0, 0, 1)));
  p.add(mem_insn(kLoad, kUop, 0, p.uop_base(), 1, 1, 1, d(1, 0, 0, 0)));
  p.add(gemm_insn(l, true));
  p.add(gemm_insn(l, false, d(0, 0, 1, 1)));
  p.add(mem_insn(kStore, kOut, 0, p.out_base(), 1, 4, 4, d(1, 0, 1, 0)));
  p.add(mem_insn(kLoad, kInp, 0, p.inp_base() + 4, 1, 4, 4, d(0, 1, 0, 1)));
  p.add(gemm_insn(l, true, d(1, 1, 0, 0)));
  p.add(gemm_insn(l, false, d(0, 0, 0, 1)));
  p.add(mem_insn(kStore, kOut, 0, p.out_base() + 4, 1, 4, 4, d(1, 0, 1, 0)));
  p.add(finish_insn(d(0, 1, 0, 0)));
}
}  // namespace

TEST(VtaRtl, TokensOrderLoadComputeStore) {
  BareOptions slow;
  slow.read_latency = 40;
  Program p;
  build_token_program(p, true);
  const auto r = run_to_done(p, slow, 100000);
  for (uint32_t i = 0; i < 8 * 16; ++i) ASSERT_EQ(p.dram[Layout::kOut + i], p.dram[Layout::kInp + i]) << "byte " << i;
  EXPECT_GT(r.perf.stall_load_to_compute, 0u);

  // The same program without token flags gives a different result: the
  // check above depends on the tokens.
  Program q;
  build_token_program(q, false);
  q.run(slow, 100000);
  bool differs = false;
  for (uint32_t i = 0; i < 8 * 16; ++i) differs |= q.dram[Layout::kOut + i] != q.dram[Layout::kInp + i];
  EXPECT_TRUE(differs);
}

TEST(VtaRtl, PopOfNeverPushedTokenTimesOutNamingCompute) {
  Program p;
  p.put_u32(Layout::kUop, uop(0, 0, 0));
  p.add(mem_insn(kLoad, kUop, 0, p.uop_base(), 1, 1, 1));
  p.add(gemm_insn(Loop{}, true, kPopPrev));  // nothing pushes load->compute
  p.add(finish_insn());
  const auto r = p.run({}, 2000);
  ASSERT_EQ(r.status, RtlRunResult::Status::kTimeout);
  EXPECT_NE(r.diagnosis.find("COMPUTE holds GEMM waiting on token queue load->compute"), std::string::npos)
      << r.diagnosis;
  EXPECT_NE(r.diagnosis.find("LOAD idle"), std::string::npos) << r.diagnosis;
  // The waiting GEMM stays at the queue head until it starts; FINISH behind it.
  EXPECT_NE(r.diagnosis.find("compute 2"), std::string::npos) << r.diagnosis;
  EXPECT_GE(r.perf.stall_load_to_compute, 1900u);
}

TEST(VtaRtl, ErrorFlagStopsWithDiagnosis) {
  struct Case {
    const char* what;
    std::vector<Insn> insns;
    const char* expect;
  };
  Insn bad_op = header(6, Deps{});
  Insn bad_mem = mem_insn(kLoad, 6, 0, 0, 1, 1, 1);
  Insn bad_store = mem_insn(kStore, kAcc, 0, Layout::kOut / 16, 1, 1, 1);
  // FINISH waits for a token from the failing instruction, so the error
  // comes first.
  Insn inp_range = mem_insn(kLoad, kInp, 2040, Layout::kInp / 16, 1, 9, 9, kPushNext);
  Loop acc_loop;
  acc_loop.iter_out = 3;
  acc_loop.dst_out = 2047;  // 0, 2047, 4094: the third is beyond 2048 entries
  Insn acc_range = gemm_insn(acc_loop, true);
  const std::vector<Case> cases = {
      {"opcode 6", {bad_op, finish_insn()}, "FETCH: undefined opcode"},
      {"LOAD memory type 6", {bad_mem, finish_insn()}, "FETCH: undefined memory type"},
      {"STORE of ACC", {bad_store, finish_insn()}, "FETCH: undefined memory type"},
      {"INP range", {inp_range, finish_insn(kPopPrev)}, "LOAD: LOAD/STORE SRAM range"},
      {"ACC index", {mem_insn(kLoad, kUop, 0, Layout::kUop / 4, 1, 1, 1), acc_range, finish_insn()},
       "COMPUTE: ACC index out of range"},
  };
  for (const Case& c : cases) {
    Program p;
    p.insns = c.insns;
    const auto r = p.run({}, 5000);
    EXPECT_EQ(r.status, RtlRunResult::Status::kError) << c.what << ": " << r.diagnosis;
    EXPECT_NE(r.diagnosis.find(c.expect), std::string::npos) << c.what << ": " << r.diagnosis;
  }
}

// Steady-state GEMM rate and simulation speed on a GEMM-heavy program.
TEST(VtaRtl, GemmSteadyStateOneUopPerCycle) {
  Program p;
  std::mt19937 g(91);
  fill_random(p, Layout::kInp, 64 * 16, g);
  fill_random(p, Layout::kWgt, 64 * 256, g);
  p.put_u32(Layout::kUop, uop(0, 0, 0));
  p.add(mem_insn(kLoad, kInp, 0, p.inp_base(), 1, 64, 64));
  p.add(mem_insn(kLoad, kWgt, 0, p.wgt_base(), 1, 64, 64, kPushNext));
  p.add(mem_insn(kLoad, kUop, 0, p.uop_base(), 1, 1, 1, kPopPrev));
  const Loop l = Loop{}.iters(64, 64).dst(1, 0).src(1, 0).wgt(0, 1);
  const int kGemms = 8;
  p.add(gemm_insn(l, true));
  for (int i = 0; i < kGemms; ++i) p.add(gemm_insn(l, false, i + 1 == kGemms ? kPushNext : Deps{}));
  p.add(mem_insn(kStore, kOut, 0, p.out_base(), 1, 64, 64, kStoreTokens));
  p.add(finish_insn(kPopNext));
  for (std::size_t i = 0; i < p.insns.size(); ++i) p.insns[i].store(&p.dram[16 * i]);
  cosim::tb::vta::BareDriver drv(p.dram);
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  const auto r = drv.run(0, static_cast<uint32_t>(p.insns.size()), 1000000);
  const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(r.status, RtlRunResult::Status::kDone) << r.diagnosis;
  const double uops = 64.0 * 64 * (kGemms + 1);  // + the reset GEMM
  const double rate = uops / static_cast<double>(r.perf.gemm_busy);
  std::printf("GEMM steady state: %.0f uops in %llu busy cycles = %.4f uops/cycle; run %llu cycles, "
              "%.1f kHz simulated (CPU time), %.1f kHz (wall)\n",
              uops, static_cast<unsigned long long>(r.perf.gemm_busy), rate,
              static_cast<unsigned long long>(r.cycles), static_cast<double>(r.cycles) / cpu / 1e3,
              static_cast<double>(r.cycles) / secs / 1e3);
  EXPECT_GE(rate, 0.95);
  // Spot-check one accumulator: acc[5] = sum over j of inp[5] . wgt[j].
  for (uint32_t o = 0; o < 16; ++o) {
    int64_t sum = 0;
    for (int rep = 0; rep < kGemms; ++rep)
      for (uint32_t j = 0; j < 64; ++j)
        for (uint32_t k = 0; k < 16; ++k) sum += inp_at(p, p.inp_base() + 5, k) * wgt_at(p, p.wgt_base() + j, o, k);
    EXPECT_EQ(p.dram[Layout::kOut + 5 * 16 + o], static_cast<uint8_t>(sum & 0xff)) << "lane " << o;
  }
}

// Back-to-back ALU micro-ops that read what the previous one wrote: a prefix
// sum through the register source, and repeated updates of one accumulator.
TEST(VtaRtl, AluChainsReadTheirOwnWrites) {
  Program p;
  std::mt19937 g(101);
  fill_random(p, Layout::kAcc, 9 * 64, g);
  p.put_u32(Layout::kUop, uop(1, 0, 0));
  p.put_u32(Layout::kUop + 4, uop(8, 0, 0));
  p.put_u32(Layout::kUop + 8, uop(0, 0, 0));
  p.add(mem_insn(kLoad, kUop, 0, p.uop_base(), 1, 3, 3));
  p.add(mem_insn(kLoad, kAcc, 0, p.acc_base(), 1, 9, 9));
  Loop chain;  // acc[i] += acc[i-1] for i = 1..7
  chain.uop_bgn = 0;
  chain.uop_end = 1;
  chain.iter_out = 7;
  chain.dst_out = 1;
  chain.src_out = 1;
  p.add(alu_insn(chain, kAdd, false, 0));
  Loop same;  // acc[8] = acc[8] * 3 + ... five times on one index
  same.uop_bgn = 1;
  same.uop_end = 2;
  same.iter_out = 5;
  p.add(alu_insn(same, kMul, true, 3));
  p.add(alu_insn(same, kAdd, true, -7, kPushNext));
  store_planes(p, 0, 9, p.out_base(), 2);
  p.add(finish_insn(kPopNext));
  std::vector<int64_t> expect(9 * 16);
  for (uint32_t o = 0; o < 16; ++o) {
    uint32_t run = static_cast<uint32_t>(acc_at(p, p.acc_base(), o));
    expect[o] = static_cast<int32_t>(run);
    for (uint32_t i = 1; i < 8; ++i) {
      run += static_cast<uint32_t>(acc_at(p, p.acc_base() + i, o));
      expect[i * 16 + o] = static_cast<int32_t>(run);
    }
    uint32_t v = static_cast<uint32_t>(acc_at(p, p.acc_base() + 8, o));
    for (int k = 0; k < 5; ++k) v *= 3u;
    for (int k = 0; k < 5; ++k) v -= 7u;
    expect[8 * 16 + o] = static_cast<int32_t>(v);
  }
  run_and_check_planes(p, expect, 9);
}

// 300 one-micro-op ALU instructions queue up behind a 3000-micro-op one: the
// compute queue (32 deep) fills, the fetch stops MaxAhead (48) instructions
// ahead of the engines (assertion a_ahead_bound), resumes as COMPUTE drains
// its queue, and nothing is lost or reordered: acc[0] gains exactly
// 3000 + 300.
TEST(VtaRtl, FetchWaitsWhileTheEnginesAreFarBehind) {
  Program p;
  std::mt19937 g(202);
  fill_random(p, Layout::kAcc, 64, g);
  p.put_u32(Layout::kUop, uop(0, 0, 0));
  p.add(mem_insn(kLoad, kUop, 0, p.uop_base(), 1, 1, 1));
  p.add(mem_insn(kLoad, kAcc, 0, p.acc_base(), 1, 1, 1));
  Loop slow;  // acc[0] += 1, 3000 times in one instruction
  slow.iter_out = 3000;
  p.add(alu_insn(slow, kAdd, true, 1));
  Loop one;
  for (int i = 0; i < 300; ++i) p.add(alu_insn(one, kAdd, true, 1, i == 299 ? kPushNext : Deps{}));
  store_planes(p, 0, 1, p.out_base(), 0);
  p.add(finish_insn(kPopNext));
  ASSERT_GT(p.insns.size(), 128u + 32u) << "more instructions than the queue and the prefetch buffer hold, or MaxAhead";
  std::vector<int64_t> expect(16);
  for (uint32_t o = 0; o < 16; ++o)
    expect[o] = static_cast<int32_t>(static_cast<uint32_t>(acc_at(p, p.acc_base(), o)) + 3300u);
  run_to_done(p, {}, 200000);
  check_planes(p, expect, 1);
}
