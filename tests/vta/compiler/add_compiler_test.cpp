// ADD compiler: programs on the functional model equal ops::vta_add bit for
// bit (random sizes, zero points incl. -128 / 127, random scales, broadcast,
// chunking forced by a small ACC, 1 and 2 threads), race-free, tokens
// balanced; and a hand-computed element checks the whole chain.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>

#include "common/error.hpp"
#include "compiler_test_util.hpp"
#include "vta/golden/vta_conv2d.hpp"
#include "vta/compiler/add_compiler.hpp"

namespace cosim::vta {
namespace {

using testutil::random_int8;
using testutil::run_compiled;

quant::VtaAddParams random_params(std::mt19937_64& rng, int32_t zp_a, int32_t zp_b, int32_t zp_y) {
  std::uniform_real_distribution<float> u(0.005f, 0.2f);
  return quant::vta_make_add_params(u(rng), zp_a, u(rng), zp_b, u(rng), zp_y);
}

void check_add(const Tensor& a, const Tensor& b, const quant::VtaAddParams& p, const CompileOptions& opt,
               const std::string& what, int random_orders = 0) {
  const Tensor want = ops::vta_add(a, b, p);
  const CompiledProgram cp = compile_add(a, b, p, opt);
  const testutil::RunResult r = run_compiled(cp);
  EXPECT_TRUE(r.stats.finished) << what;
  EXPECT_EQ(r.stats.unexecuted, 0u) << what;
  EXPECT_TRUE(r.output == want) << what << ": " << testutil::first_difference(r.output, want) << "; " << cp.tiling;
  EXPECT_EQ(r.stats.alu_ops, cp.alu_uops) << what;
  EXPECT_EQ(r.stats.gemm_uops, cp.gemm_uops) << what;
  EXPECT_EQ(r.stats.gemm_resets, cp.reset_uops) << what;
  EXPECT_EQ(cp.macs, 0u) << what;  // the operand GEMMs move data: no useful MACs
  const testutil::TokenBalance tb = testutil::token_balance(cp.insns);
  for (int q = 0; q < 4; ++q) EXPECT_EQ(tb.pushes[q], tb.pops[q]) << what << ": queue " << q;
  for (int i = 1; i <= random_orders; ++i) {
    const testutil::RunResult o = run_compiled(cp, 31 * static_cast<uint64_t>(i));
    EXPECT_TRUE(o.dram == r.dram) << what << ": engine order " << i << " changes the DRAM bytes (a race)";
  }
}

TEST(VtaAddCompiler, RandomSizesAndZeroPoints) {
  std::mt19937_64 rng(77);
  auto any = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int i = 0; i < 40; ++i) {
    const std::vector<int64_t> shape = {1, any(1, 9), any(1, 13), any(1, 40)};
    auto zp = [&] {
      const int s = any(0, 3);
      return s == 0 ? -128 : s == 1 ? 127 : any(-128, 127);
    };
    const quant::VtaAddParams p = random_params(rng, zp(), zp(), zp());
    CompileOptions opt;
    opt.threads = any(1, 2);
    if (any(0, 1)) opt.acc_depth = static_cast<uint32_t>(any(4, 64));  // many chunks
    if (any(0, 2) == 0) opt.wgt_depth = static_cast<uint32_t>(any(2, 9));  // chunks off WGT entry boundaries
    check_add(random_int8(rng, shape), random_int8(rng, shape), p, opt,
              "case " + std::to_string(i) + " threads " + std::to_string(opt.threads) + " acc " +
                  std::to_string(opt.acc_depth),
              i % 5 == 0 ? 3 : 0);
  }
}

TEST(VtaAddCompiler, LargeTensorUsesManyChunks) {
  std::mt19937_64 rng(5);
  const std::vector<int64_t> shape = {1, 56, 56, 24};  // 75264 elements, 4704 blocks
  const quant::VtaAddParams p = random_params(rng, 3, -9, 1);
  const CompiledProgram cp = compile_add(random_int8(rng, shape), random_int8(rng, shape), p);
  EXPECT_NE(cp.tiling.find("by GEMM"), std::string::npos) << cp.tiling;
  EXPECT_GT(cp.tiles, 4704u / 1024u);  // chunks smaller than a thread's ACC share, for overlap
  check_add(random_int8(rng, shape), random_int8(rng, shape), p, {}, "56x56x24", 1);
}

// Per ACC entry: a reset, one GEMM bringing A' + B' in, and the five-op
// output program (add_operands.hpp).
TEST(VtaAddCompiler, OperandsByGemmCostSevenUopsPerEntry) {
  std::mt19937_64 rng(9);
  const std::vector<int64_t> shape = {1, 32, 32, 16};  // 1024 entries
  const CompiledProgram cp = compile_add(random_int8(rng, shape), random_int8(rng, shape), random_params(rng, 5, -7, 2));
  EXPECT_EQ(cp.gemm_uops, 1024u);
  EXPECT_EQ(cp.reset_uops, 1024u);
  EXPECT_EQ(cp.alu_uops, 5u * 1024u);  // both clamps: checked by ClampsOnlyWhereAnOutputCanCrossTheBound
  EXPECT_NE(cp.tiling.find("by GEMM"), std::string::npos) << cp.tiling;
}

// Every pair of int8 inputs (a {256, 1} against b {1, 256}): the program
// equals the golden model, and it clamps exactly where an output could
// otherwise leave [-128, 127]: add.yaml's parameters never exceed 127 (no
// MIN), ResNet-8-like ones cross both bounds, and a scale making every output
// tiny needs neither.
TEST(VtaAddCompiler, ClampsOnlyWhereAnOutputCanCrossTheBound) {
  Tensor a(DType::kInt8, {256, 1}), b(DType::kInt8, {1, 256});
  for (int x = 0; x < 256; ++x) a.data<int8_t>()[x] = b.data<int8_t>()[x] = static_cast<int8_t>(x - 128);
  struct Case {
    float s_a;
    int32_t zp_a;
    float s_b;
    int32_t zp_b;
    float s_y;
    int32_t zp_y;
    bool min, max;
  };
  for (const Case& c : {Case{0.05f, -3, 0.031f, 7, 0.08f, -10, false, true},  // scenarios/add.yaml
                        Case{0.05f, -3, 0.05f, 7, 0.05f, 0, true, true},
                        Case{0.01f, 0, 0.01f, 0, 1.0f, 0, false, false}}) {
    const quant::VtaAddParams p = quant::vta_make_add_params(c.s_a, c.zp_a, c.s_b, c.zp_b, c.s_y, c.zp_y);
    // The bounds the test expects, from the golden model over all pairs
    // before the clamp: vta_add_program without its MIN / MAX.
    int32_t lo = INT32_MAX, hi = INT32_MIN;
    for (int x = -128; x < 128; ++x) {
      for (int y = -128; y < 128; ++y) {
        std::vector<quant::VtaAluStep> prog = quant::vta_add_program(
            p, quant::vta_add_dequantize(static_cast<int8_t>(y), p.b_offset, p.b_multiplier));
        prog.resize(4);
        const int32_t v = quant::vta_run_alu(quant::vta_add_dequantize(static_cast<int8_t>(x), p.a_offset, p.a_multiplier), prog);
        lo = std::min(lo, v), hi = std::max(hi, v);
      }
    }
    ASSERT_EQ(hi > 127, c.min) << hi;
    ASSERT_EQ(lo < -128, c.max) << lo;
    const CompiledProgram cp = compile_add(a, b, p);
    EXPECT_EQ(cp.alu_uops, (3u + c.min + c.max) * 4096u);
    check_add(a, b, p, {}, "all pairs, s_y " + std::to_string(c.s_y));
  }
}

// Values outside the two-byte split (multipliers above the scheme's 1/2)
// take the ACC-load program, still equal to the golden model; so do buffers
// too small for the selectors.
TEST(VtaAddCompiler, UnsplittableOperandsLoadIntoAcc) {
  std::mt19937_64 rng(10);
  quant::VtaAddParams p = random_params(rng, -3, 4, 1);
  p.a_offset = 128;             // zero point -128
  p.a_multiplier = {32000, 0};  // ~0.98: A' up to ~31900
  const std::vector<int64_t> shape = {1, 5, 9, 16};
  const Tensor a = random_int8(rng, shape), b = random_int8(rng, shape);
  const CompiledProgram cp = compile_add(a, b, p);
  EXPECT_NE(cp.tiling.find("loaded into ACC"), std::string::npos) << cp.tiling;
  EXPECT_EQ(cp.gemm_uops, 0u);
  check_add(a, b, p, {}, "multiplier above 1/2");
  CompileOptions small;
  small.inp_depth = 3;
  const quant::VtaAddParams q = random_params(rng, 0, 0, 0);
  EXPECT_NE(compile_add(a, b, q, small).tiling.find("loaded into ACC"), std::string::npos);
  check_add(a, b, q, small, "INP too small for the selectors");
}

TEST(VtaAddCompiler, BroadcastsSizeOneDims) {
  std::mt19937_64 rng(6);
  const quant::VtaAddParams p = random_params(rng, 10, -20, 0);
  check_add(random_int8(rng, {1, 5, 7, 3}), random_int8(rng, {1, 1, 1, 3}), p, {}, "per-channel broadcast");
  check_add(random_int8(rng, {1, 1, 7, 1}), random_int8(rng, {1, 5, 1, 3}), p, {}, "two-sided broadcast");
  check_add(random_int8(rng, {2, 3}), random_int8(rng, {3}), p, {}, "rank broadcast");
}

TEST(VtaAddCompiler, HandComputedElement) {
  // s_a = s_b = 0.5, s_y = 1: t = 1, input multipliers 0.5 -> Q15 16384,
  // shift 0; output t / (2^7 * 1) = 2^-7 -> 16384, shift -6.
  const quant::VtaAddParams p = quant::vta_make_add_params(0.5f, 0, 0.5f, 0, 1.0f, 3);
  ASSERT_EQ(p.a_multiplier.multiplier, 16384);
  ASSERT_EQ(p.out_multiplier.shift, -6);
  // a = 10: (10 << 7) * 16384 + 2^14 >> 15 = 640; b = 20 -> 1280.
  // (640 + 1280) * 16384 >> 21 = 15 (= 0.5*10 + 0.5*20), + zp 3 = 18.
  Tensor a(DType::kInt8, {1, 1, 1, 1});
  Tensor b(DType::kInt8, {1, 1, 1, 1});
  a.data<int8_t>()[0] = 10;
  b.data<int8_t>()[0] = 20;
  const CompiledProgram cp = compile_add(a, b, p);
  const Tensor y = run_compiled(cp).output;
  EXPECT_EQ(y.data<int8_t>()[0], 18);
  // Saturation: 127 + 127 -> 127 (127 + 3 clamps).
  a.data<int8_t>()[0] = 127;
  b.data<int8_t>()[0] = 127;
  EXPECT_EQ(run_compiled(compile_add(a, b, p)).output.data<int8_t>()[0], 127);
  const auto s = cp.store_writing({0});
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(opcode_of(cp.insns[*s]), Opcode::kStore);
}

TEST(VtaAddCompiler, RejectsBadInput) {
  std::mt19937_64 rng(1);
  const quant::VtaAddParams p = random_params(rng, 0, 0, 0);
  EXPECT_THROW(compile_add(random_int8(rng, {1, 4, 4, 3}), random_int8(rng, {1, 4, 4, 2}), p), InputError);
  Tensor i32(DType::kInt32, {1, 4});
  EXPECT_THROW(compile_add(i32, i32, p), InputError);
  CompileOptions dram;
  dram.dram_limit = 256;
  try {
    compile_add(random_int8(rng, {1, 64}), random_int8(rng, {1, 64}), p, dram);
    FAIL() << "no DRAM limit error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("DRAM limit"), std::string::npos) << e.what();
  }
  CompileOptions th;
  th.threads = 0;
  EXPECT_THROW(compile_add(random_int8(rng, {4}), random_int8(rng, {4}), p, th), InputError);
}

}  // namespace
}  // namespace cosim::vta
