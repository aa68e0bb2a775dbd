// vta_compute alone (GEMM datapath, ALU, tokens, issue rate), driven cycle by
// cycle with its buffers modelled in the test (compute_tb.hpp). Expected
// values come from the spec formulas of shared/spec/vta-isa.md, evaluated
// here with 64-bit integers and reduced modulo 2^32 at the end of each step.
#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <random>
#include <vector>

#include "compute_tb.hpp"

using namespace vta_unit;
using namespace cosim::test::vta_isa;  // the instruction encoder

namespace {

using AccEntry = ComputeTb::AccEntry;

int32_t wrap32(int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v))); }

// The spec's loop nest over the micro-ops of `l`: step(d, s, g) with the
// dst, src and wgt indices of each micro-op of each iteration, in order.
template <class Step>
void for_each_uop(const ComputeTb& tb, const Loop& l, Step step) {
  for (uint32_t i = 0; i < l.iter_out; ++i)
    for (uint32_t j = 0; j < l.iter_in; ++j)
      for (uint32_t u = l.uop_bgn; u < l.uop_end; ++u) {
        const uint32_t w = tb.uop[u];
        step((w & 0x7ff) + i * l.dst_out + j * l.dst_in, ((w >> 11) & 0x7ff) + i * l.src_out + j * l.src_in,
             (w >> 22) + i * l.wgt_out + j * l.wgt_in);
      }
}

// The spec's GEMM loop over a snapshot of the buffers.
void gemm_ref(std::vector<AccEntry>& acc, const ComputeTb& tb, const Loop& l, bool reset) {
  for_each_uop(tb, l, [&](uint32_t d, uint32_t s, uint32_t g) {
    for (uint32_t o = 0; o < 16; ++o) {
      if (reset) {
        acc[d][o] = 0;
        continue;
      }
      int64_t sum = 0;
      for (uint32_t k = 0; k < 16; ++k) sum += int64_t{tb.inp[s][k]} * int64_t{tb.wgt[g][o * 16 + k]};
      acc[d][o] = wrap32(int64_t{acc[d][o]} + sum);
    }
  });
}

// floor(a / 2^n) without relying on C++'s >> of negative numbers.
int64_t floor_div_pow2(int64_t a, unsigned n) {
  const int64_t d = int64_t{1} << n;
  const int64_t r = ((a % d) + d) % d;
  return (a - r) / d;
}

// One ALU lane per the spec (SHR beyond 31 as documented in vta_pkg).
int32_t alu_ref(uint32_t op, int32_t a, int32_t b) {
  switch (op) {
    case kMin: return a < b ? a : b;
    case kMax: return a > b ? a : b;
    case kAdd: return wrap32(int64_t{a} + int64_t{b});
    case kShr:
      if (b >= 0) return b >= 32 ? (a < 0 ? -1 : 0) : static_cast<int32_t>(floor_div_pow2(a, static_cast<unsigned>(b)));
      if (-int64_t{b} >= 32) return 0;
      return wrap32(int64_t{a} * (int64_t{1} << -b));
    case kMul: {
      // Low 32 bits of the full 64-bit product.
      const uint64_t p = static_cast<uint64_t>(int64_t{a} * int64_t{b});
      return static_cast<int32_t>(static_cast<uint32_t>(p & 0xffffffffu));
    }
  }
  return 0;
}

void alu_ref_loop(std::vector<AccEntry>& acc, const ComputeTb& tb, const Loop& l, uint32_t op, bool use_imm,
                  int32_t imm) {
  for_each_uop(tb, l, [&](uint32_t d, uint32_t s, uint32_t) {
    for (uint32_t o = 0; o < 16; ++o) acc[d][o] = alu_ref(op, acc[d][o], use_imm ? imm : acc[s][o]);
  });
}

void fill_random(ComputeTb& tb, std::mt19937& g, uint32_t n_inp, uint32_t n_wgt, uint32_t n_acc) {
  for (uint32_t e = 0; e < n_inp; ++e)
    for (auto& v : tb.inp[e]) v = static_cast<int8_t>(g());
  for (uint32_t e = 0; e < n_wgt; ++e)
    for (auto& v : tb.wgt[e]) v = static_cast<int8_t>(g());
  for (uint32_t e = 0; e < n_acc; ++e)
    for (auto& v : tb.acc[e]) v = static_cast<int32_t>(g());
}

// The same from a generator of its own, for a test that draws nothing else.
void fill_random(ComputeTb& tb, uint32_t seed, uint32_t n_inp, uint32_t n_wgt, uint32_t n_acc) {
  std::mt19937 g(seed);
  fill_random(tb, g, n_inp, n_wgt, n_acc);
}

void expect_acc_eq(const std::vector<AccEntry>& got, const std::vector<AccEntry>& want, const char* what) {
  int bad = 0;
  for (std::size_t e = 0; e < want.size(); ++e)
    for (uint32_t o = 0; o < 16; ++o)
      if (got[e][o] != want[e][o] && bad++ < 5)
        ADD_FAILURE() << what << ": acc[" << e << "][" << o << "] = " << got[e][o] << ", expected " << want[e][o];
  EXPECT_EQ(bad, 0) << what;
}

// Runs the queued instructions and compares the accumulators with `want`.
void run_and_expect_acc(ComputeTb& tb, const std::vector<AccEntry>& want, const char* what) {
  tb.run();
  expect_acc_eq(tb.acc, want, what);
}

constexpr Deps kPushNext{false, false, false, true};

// Queues a GEMM (no reset) over `l` and advances `want` by the reference.
void queue_gemm(ComputeTb& tb, std::vector<AccEntry>& want, const Loop& l, Deps d = {}) {
  gemm_ref(want, tb, l, false);
  tb.queue.push_back(gemm_insn(l, false, d));
}

// Queues an ALU instruction over `l` and advances `want` by the reference.
void queue_alu(ComputeTb& tb, std::vector<AccEntry>& want, const Loop& l, uint32_t op, bool use_imm, int32_t imm) {
  alu_ref_loop(want, tb, l, op, use_imm, imm);
  tb.queue.push_back(alu_insn(l, op, use_imm, imm));
}

// Runs one ALU instruction over `l` on the accumulators as they are: no
// error, and the accumulators the reference computes.
void expect_alu_as_reference(ComputeTb& tb, const Loop& l, uint32_t op, bool use_imm, int32_t imm, const char* what) {
  std::vector<AccEntry> want = tb.acc;
  queue_alu(tb, want, l, op, use_imm, imm);
  tb.run();
  EXPECT_EQ(tb.errors, 0);
  expect_acc_eq(tb.acc, want, what);
}

// ---------------------------------------------------------------------------
// GEMM
// ---------------------------------------------------------------------------

TEST(VtaUnitCompute, GemmRandomTilesWithTwoLoopLevels) {
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    ComputeTb tb;
    std::mt19937 g(seed);
    fill_random(tb, g, 64, 64, 128);
    // Lanes at the int32 edge so the accumulation wraps.
    tb.acc[3][0] = INT32_MAX;
    tb.acc[3][1] = INT32_MIN;
    Loop l;
    l.uop_bgn = 5 + seed;
    l.uop_end = l.uop_bgn + 1 + g() % 7;
    l.iter_out = 1 + g() % 4;
    l.iter_in = 1 + g() % 4;
    l.dst_out = g() % 8;
    l.dst_in = g() % 8;
    l.src_out = g() % 8;
    l.src_in = g() % 8;
    l.wgt_out = g() % 8;
    l.wgt_in = g() % 8;
    for (uint32_t u = l.uop_bgn; u < l.uop_end; ++u) tb.uop[u] = uop(g() % 32, g() % 16, g() % 16);
    tb.uop[l.uop_bgn] = uop(3, g() % 16, g() % 16);

    std::vector<AccEntry> want = tb.acc;
    queue_gemm(tb, want, l, kPushNext);
    tb.run();
    SCOPED_TRACE("seed " + std::to_string(seed));
    EXPECT_EQ(tb.errors, 0);
    EXPECT_EQ(tb.c2s_pushes, 1);
    expect_acc_eq(tb.acc, want, "GEMM");
    EXPECT_EQ(tb.acc_writes, uint64_t{l.iter_out} * l.iter_in * (l.uop_end - l.uop_bgn));
  }
}

TEST(VtaUnitCompute, GemmAccumulatesAcrossInstructions) {
  ComputeTb tb;
  fill_random(tb, 11, 16, 16, 16);
  for (uint32_t u = 0; u < 4; ++u) tb.uop[u] = uop(u, u + 1, u + 2);
  const Loop l = Loop{}.uops(0, 4).iters(2, 1).src(4, 0).wgt(4, 0);
  std::vector<AccEntry> want = tb.acc;
  for (int rep = 0; rep < 3; ++rep) {
    queue_gemm(tb, want, l);
  }
  run_and_expect_acc(tb, want, "three GEMMs");
}

TEST(VtaUnitCompute, GemmResetZeroesOnlyTheLoopedAccumulators) {
  ComputeTb tb;
  fill_random(tb, 12, 0, 0, 64);
  tb.uop[0] = uop(1, 5, 7);
  tb.uop[1] = uop(2, 9, 3);
  Loop l = Loop{}.uops(0, 2).iters(3, 2).dst(10, 4).src(1, 0).wgt(1, 0);  // src / wgt are ignored by a reset
  std::vector<AccEntry> want = tb.acc;
  for (uint32_t i = 0; i < 3; ++i)
    for (uint32_t j = 0; j < 2; ++j)
      for (uint32_t d : {1u, 2u}) want[d + 10 * i + 4 * j].fill(0);
  tb.queue.push_back(gemm_insn(l, true));
  tb.run();
  EXPECT_EQ(tb.errors, 0);
  expect_acc_eq(tb.acc, want, "reset");
  // A GEMM after the reset starts from zero.
  l.uops(0, 1).iters(1, 1);
  tb.uop[0] = uop(1, 5, 7);
  queue_gemm(tb, want, l);
  run_and_expect_acc(tb, want, "GEMM after reset");
}

// Consecutive micro-ops on the same accumulator (the read of one and the
// write of the previous hit the buffer on the same edge) and at distance 2.
TEST(VtaUnitCompute, GemmBackToBackSameIndexHazard) {
  ComputeTb tb;
  fill_random(tb, 13, 16, 16, 16);
  const uint32_t pattern[8][3] = {{7, 0, 0}, {7, 1, 1}, {7, 2, 2}, {4, 3, 3}, {7, 4, 4}, {4, 5, 5}, {4, 6, 6}, {7, 7, 7}};
  for (uint32_t u = 0; u < 8; ++u) tb.uop[u] = uop(pattern[u][0], pattern[u][1], pattern[u][2]);
  // dst factors 0: 40 updates of acc[7] / acc[4] back to back
  const Loop l = Loop{}.uops(0, 8).iters(5, 2).src(0, 8).wgt(0, 8);
  std::vector<AccEntry> want = tb.acc;
  queue_gemm(tb, want, l);
  // Independent check of acc[7] lane 0: 5 x (uops 0,1,2,4,7 over j = 0,1).
  int64_t lane0 = tb.acc[7][0];
  for (uint32_t rep = 0; rep < 5; ++rep)
    for (uint32_t j = 0; j < 2; ++j)
      for (uint32_t u : {0u, 1u, 2u, 4u, 7u})
        for (uint32_t k = 0; k < 16; ++k) lane0 += tb.inp[u + 8 * j][k] * tb.wgt[u + 8 * j][k];
  EXPECT_EQ(want[7][0], wrap32(lane0));
  run_and_expect_acc(tb, want, "same-index chain");
}

// One micro-op per cycle: N more micro-ops cost exactly N more busy cycles,
// and the fixed overhead (issue, pipeline fill and drain) is small.
TEST(VtaUnitCompute, GemmIssuesOneMicroOpPerCycle) {
  auto busy_for = [](uint32_t iters) {
    ComputeTb tb;
    tb.uop[0] = uop(0, 0, 0);
    tb.uop[1] = uop(0, 1, 1);  // same accumulator back to back: no stall either
    const Loop l = Loop{}.uops(0, 2).iters(iters, 1).src(2, 0).wgt(2, 0);
    tb.queue.push_back(gemm_insn(l, false, kPushNext));
    tb.run();
    EXPECT_EQ(tb.c2s_pushes, 1);
    return tb.gemm_busy;
  };
  const uint64_t b100 = busy_for(100), b300 = busy_for(300);
  EXPECT_EQ(b300 - b100, 400u) << "200 x 2 extra micro-ops";
  EXPECT_LE(b100, 200u + 4u) << "fixed overhead per GEMM instruction";
}

// Tokens: pop_prev waits for load->compute and consumes it at start;
// push_next gives compute->store only after the last ACC write.
TEST(VtaUnitCompute, TokensWaitConsumeAndPushAfterTheLastWrite) {
  ComputeTb tb;
  fill_random(tb, 14, 4, 4, 4);
  tb.uop[0] = uop(1, 2, 3);
  Loop l;
  l.iter_out = 20;
  Deps d;
  d.pop_prev = true;
  d.push_next = true;
  d.push_prev = true;
  tb.queue.push_back(gemm_insn(l, false, d));
  for (int c = 0; c < 50; ++c) tb.step();
  EXPECT_EQ(tb.queue.size(), 1u) << "must wait for the load->compute token";
  EXPECT_EQ(tb.acc_writes, 0u);
  EXPECT_EQ(tb.stall_l2c_cycles, 50);
  tb.l2c_tokens = 2;
  std::vector<AccEntry> want = tb.acc;
  gemm_ref(want, tb, l, false);
  uint64_t last_write = 0;
  for (int c = 0; c < 200 && !(tb.c2s_pushes && tb.queue.empty()); ++c) {
    const uint64_t before = tb.acc_writes;
    tb.step();
    if (tb.acc_writes != before) last_write = tb.cycles() - 1;
  }
  tb.run();
  EXPECT_EQ(tb.l2c_tokens, 1) << "exactly one token consumed";
  EXPECT_EQ(tb.c2s_pushes, 1);
  EXPECT_EQ(tb.c2l_pushes, 1);
  EXPECT_GT(tb.last_push, last_write);
  EXPECT_EQ(tb.acc_writes, 20u);
  expect_acc_eq(tb.acc, want, "after tokens");
}

TEST(VtaUnitCompute, FinishPulsesOnce) {
  ComputeTb tb;
  tb.s2c_tokens = 1;
  Deps d;
  d.pop_next = true;
  tb.queue.push_back(finish_insn(d));
  tb.run();
  EXPECT_EQ(tb.finishes, 1);
  EXPECT_EQ(tb.s2c_tokens, 0);
}

// ---------------------------------------------------------------------------
// ALU
// ---------------------------------------------------------------------------

const int32_t kEdge[] = {0, 1, -1, 2, -2, 7, -7, 255, -256, 0x12345678, -0x12345678, INT32_MAX, INT32_MIN,
                         INT32_MAX - 3, INT32_MIN + 5, 65535, -65536};

// Fills acc[0..n) with edge values in the first lanes and random ones elsewhere.
void fill_alu(ComputeTb& tb, std::mt19937& g, uint32_t n) {
  uint32_t k = 0;
  for (uint32_t e = 0; e < n; ++e)
    for (auto& v : tb.acc[e]) v = (k < sizeof kEdge / sizeof kEdge[0] && (e % 2 == 0)) ? kEdge[k++] : static_cast<int32_t>(g());
}

TEST(VtaUnitCompute, AluImmediateAllOps) {
  struct Case {
    uint32_t op;
    int32_t imm;
  };
  const Case cases[] = {{kMin, 0},    {kMin, -5},    {kMin, 32767}, {kMin, -32768}, {kMax, 0},     {kMax, -5},
                        {kMax, 100},  {kMax, -32768}, {kAdd, 1},    {kAdd, -1},     {kAdd, 32767}, {kAdd, -32768},
                        {kShr, 0},    {kShr, 1},     {kShr, 7},     {kShr, 31},     {kShr, -1},    {kShr, -4},
                        {kShr, -31},  {kMul, 3},     {kMul, -1},    {kMul, 32767},  {kMul, -32768}, {kMul, 0x5a5a}};
  uint32_t n = 0;
  for (const Case& c : cases) {
    ComputeTb tb;
    std::mt19937 g(100 + n);
    fill_alu(tb, g, 8);
    tb.uop[3] = uop(0, 0, 0);
    const Loop l = Loop{}.uops(3, 4).iters(4, 2).dst(2, 1);
    SCOPED_TRACE("op " + std::to_string(c.op) + " imm " + std::to_string(c.imm));
    expect_alu_as_reference(tb, l, c.op, true, c.imm, "ALU imm");
    ++n;
  }
}

// Hand-computed lanes, independent of alu_ref.
TEST(VtaUnitCompute, AluImmediateHandValues) {
  struct Case {
    uint32_t op;
    int32_t a, imm, want;
  };
  const Case cases[] = {
      {kShr, -8, 1, -4},                     // arithmetic right shift
      {kShr, -1, 31, -1},
      {kShr, 0x40000000, 30, 1},
      {kShr, 3, -2, 12},                     // negative amount = left shift
      {kShr, 1, -31, INT32_MIN},             // into the sign bit
      {kShr, 0x12345678, -8, 0x34567800},    // high bits dropped
      {kMul, 0x12345678, 0x100, 0x34567800},  // low 32 bits of the product
      {kMul, INT32_MIN, -1, INT32_MIN},
      {kMul, 0x10000, 0x7fff, 0x7fff0000},
      {kMul, 0x20000, 0x7fff, static_cast<int32_t>(0xfffe0000u)},
      {kAdd, INT32_MAX, 1, INT32_MIN},       // wraps
      {kAdd, INT32_MIN, -1, INT32_MAX},
      {kMin, -3, 2, -3},
      {kMax, -3, 2, 2},
      {kMin, INT32_MIN, -32768, INT32_MIN},
      {kMax, 70000, 32767, 70000},
  };
  for (const Case& c : cases) {
    ComputeTb tb;
    tb.acc[9].fill(c.a);
    tb.uop[0] = uop(9, 0, 0);
    Loop l;
    tb.queue.push_back(alu_insn(l, c.op, true, c.imm));
    tb.run();
    for (uint32_t o = 0; o < 16; ++o)
      ASSERT_EQ(tb.acc[9][o], c.want) << "op " << c.op << " a " << c.a << " imm " << c.imm << " lane " << o;
  }
}

TEST(VtaUnitCompute, AluRegisterAllOps) {
  for (uint32_t op : {kMin, kMax, kAdd, kShr, kMul}) {
    ComputeTb tb;
    std::mt19937 g(200 + op);
    fill_alu(tb, g, 32);
    if (op == kShr) {
      // Register shift amounts -31..31 (both directions of the formula).
      for (uint32_t e = 16; e < 32; ++e)
        for (auto& v : tb.acc[e]) v = static_cast<int32_t>(g() % 63) - 31;
    }
    for (uint32_t u = 0; u < 4; ++u) tb.uop[u] = uop(u, 16 + u, 0);
    const Loop l = Loop{}.uops(0, 4).iters(3, 1).dst(4, 0).src(4, 0);
    SCOPED_TRACE("op " + std::to_string(op));
    expect_alu_as_reference(tb, l, op, false, 0, "ALU register");
    EXPECT_GT(tb.alu_busy, 0u);
    EXPECT_EQ(tb.gemm_busy, 0u);
  }
}

// A micro-op reading (as src) or updating (as dst) what the previous one
// just wrote: prefix sums and repeated updates, back to back.
TEST(VtaUnitCompute, AluChainsReadTheirOwnWrites) {
  ComputeTb tb;
  std::mt19937 g(21);
  for (uint32_t e = 0; e < 20; ++e)
    for (auto& v : tb.acc[e]) v = static_cast<int32_t>(g() % 1000);
  // acc[e] += acc[e-1] for e = 1..15 in one instruction: a prefix sum.
  tb.uop[0] = uop(1, 0, 0);
  const Loop l = Loop{}.iters(15, 1).dst(1, 0).src(1, 0);
  std::vector<AccEntry> start = tb.acc;
  tb.queue.push_back(alu_insn(l, kAdd, false, 0));
  // acc[19] = acc[19] * 3 + ... : 6 back-to-back updates of one entry.
  tb.uop[1] = uop(19, 0, 0);
  const Loop m = Loop{}.uops(1, 2).iters(6, 1);
  tb.queue.push_back(alu_insn(m, kMul, true, 3));
  tb.run();
  for (uint32_t o = 0; o < 16; ++o) {
    int64_t run = 0;
    for (uint32_t e = 0; e <= 15; ++e) {
      run += start[e][o];
      ASSERT_EQ(tb.acc[e][o], run) << "prefix acc[" << e << "][" << o << "]";
    }
    ASSERT_EQ(tb.acc[19][o], start[19][o] * 729) << "lane " << o;
  }
}

// Instructions that push no token overlap in the pipeline: each micro-op
// keeps its own instruction's operation, and a micro-op reads what the
// previous instruction's last micro-op wrote. A random mix of one- and
// two-micro-op GEMM (accumulate and reset) and ALU (every op, immediate and
// register) instructions on four shared entries, against the spec loops
// applied in order; then the issue rate: no drain between such instructions.
TEST(VtaUnitCompute, BackToBackInstructionsKeepTheirOwnOperation) {
  ComputeTb tb;
  std::mt19937 g(23);
  fill_random(tb, g, 8, 8, 8);
  for (uint32_t u = 0; u < 16; ++u) tb.uop[u] = uop(g() % 4, g() % 4, g() % 8);
  std::vector<AccEntry> want = tb.acc;
  const uint32_t ops[] = {kMin, kMax, kAdd, kShr, kMul};
  const int kInsns = 400;
  for (int n = 0; n < kInsns; ++n) {
    Loop l;
    l.uop_bgn = g() % 15;
    l.uop_end = l.uop_bgn + 1 + g() % 2;
    const uint32_t kind = g() % 4;
    if (kind == 0) {
      const bool reset = g() % 4 == 0;
      gemm_ref(want, tb, l, reset);
      tb.queue.push_back(gemm_insn(l, reset));
    } else {
      const uint32_t op = ops[g() % 5];
      const bool use_imm = kind == 1;
      int32_t imm = static_cast<int32_t>(g() % 64) - 32;
      if (op == kShr) imm = static_cast<int32_t>(g() % 12) - 4;
      queue_alu(tb, want, l, op, use_imm, imm);
    }
  }
  run_and_expect_acc(tb, want, "overlapped instructions");

  // Issue rate: one-micro-op ALU instructions issue one per cycle, not
  // start + micro-op + drain + done each.
  auto cycles_for = [](int count) {
    ComputeTb t;
    t.uop[0] = uop(1, 0, 0);
    for (int n = 0; n < count; ++n) t.queue.push_back(alu_insn(Loop{}, kAdd, true, 1));
    t.run();
    EXPECT_EQ(t.acc[1][0], count);
    return t.cycles();
  };
  const uint64_t c100 = cycles_for(100), c200 = cycles_for(200);
  EXPECT_LE(c200 - c100, 100u + 2u) << "per-instruction cost of back-to-back ALU instructions";
}

// An instruction that pushes tokens still lets the next one start behind it:
// its push comes after its own last ACC write, while the next instruction's
// micro-ops are already in flight; an empty loop and a LOAD still push once
// the pipeline is empty.
TEST(VtaUnitCompute, PushingInstructionsOverlapAndPushAfterTheirLastWrite) {
  ComputeTb tb;
  tb.uop[0] = uop(3, 0, 0);
  Loop l;
  l.iter_out = 10;  // ten updates of acc[3]
  Deps both;
  both.push_prev = true;
  both.push_next = true;
  tb.queue.push_back(alu_insn(l, kAdd, true, 1, both));
  tb.queue.push_back(alu_insn(l, kAdd, true, 2));
  uint64_t tenth_write = 0, last_write = 0, push_cycle = 0;
  for (int c = 0; c < 100; ++c) {
    const uint64_t before = tb.acc_writes;
    const int pushes = tb.c2s_pushes;
    tb.step();
    if (tb.acc_writes != before && tb.acc_writes == 10) tenth_write = tb.cycles() - 1;
    if (tb.acc_writes != before) last_write = tb.cycles() - 1;
    if (tb.c2s_pushes != pushes) push_cycle = tb.cycles() - 1;
  }
  EXPECT_EQ(tb.c2s_pushes, 1);
  EXPECT_EQ(tb.c2l_pushes, 1);
  EXPECT_GT(push_cycle, tenth_write) << "the push follows the pushing instruction's last write";
  EXPECT_LT(push_cycle, last_write) << "and the next instruction is already writing";
  EXPECT_EQ(last_write - tenth_write, 10u) << "no gap between the two instructions";
  for (uint32_t o = 0; o < 16; ++o) EXPECT_EQ(tb.acc[3][o], 30);

  // An empty loop with push flags, then a LOAD with one: each pushes once.
  ComputeTb e;
  Loop empty;
  empty.iter_out = 0;
  e.queue.push_back(alu_insn(empty, kAdd, true, 1, both));
  e.run();
  EXPECT_EQ(e.c2s_pushes, 1);
  EXPECT_EQ(e.c2l_pushes, 1);
}

// reset_reg is ignored by the ALU: bit 7 set still computes.
TEST(VtaUnitCompute, AluIgnoresResetBit) {
  ComputeTb tb;
  tb.acc[2].fill(40);
  tb.uop[0] = uop(2, 0, 0);
  Insn in = alu_insn(Loop{}, kAdd, true, 2);
  in.set(7, 1, 1);
  tb.queue.push_back(in);
  tb.run();
  for (uint32_t o = 0; o < 16; ++o) EXPECT_EQ(tb.acc[2][o], 42);
}

// The compute engine's own loads: ACC with all four pads and a stride, from
// the DMA port, with gaps in the R stream.
TEST(VtaUnitCompute, LoadAccWithPadsAndStride) {
  ComputeTb tb;
  tb.r_gap = 0.3;
  std::mt19937 g(31);
  for (auto& b : tb.dram) b = static_cast<uint8_t>(g());
  for (auto& e : tb.acc) e.fill(0x5a5a5a5a);
  const uint32_t sram = 7, dram_elem = 40, ys = 3, xs = 2, stride = 5;
  const Pads p{1, 2, 1, 3};
  tb.queue.push_back(mem_insn(kLoad, kAcc, sram, dram_elem, ys, xs, stride, {}, p));
  tb.run();
  const uint32_t xt = p.x0 + xs + p.x1, yt = p.y0 + ys + p.y1;
  for (uint32_t e = 0; e < 64; ++e) {
    AccEntry want;
    want.fill(0x5a5a5a5a);
    if (e >= sram && e < sram + xt * yt) {
      const uint32_t y = (e - sram) / xt, x = (e - sram) % xt;
      want.fill(0);
      if (y >= p.y0 && y < p.y0 + ys && x >= p.x0 && x < p.x0 + xs) {
        const uint64_t src = (uint64_t{dram_elem} + (y - p.y0) * stride + (x - p.x0)) * 64;
        for (uint32_t o = 0; o < 16; ++o) {
          uint32_t v = 0;
          for (int b = 3; b >= 0; --b) v = (v << 8) | tb.dram[src + 4 * o + b];
          want[o] = static_cast<int32_t>(v);
        }
      }
    }
    for (uint32_t o = 0; o < 16; ++o) ASSERT_EQ(tb.acc[e][o], want[o]) << "acc[" << e << "][" << o << "]";
  }
}

}  // namespace
