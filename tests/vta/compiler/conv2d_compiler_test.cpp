// CONV2D compiler: programs run on the functional model must equal the VTA
// golden model ops::vta_conv2d (which pads with zp_in) bit for bit, over
// seeded random shapes, zero points, scales, tilings and thread counts; be
// race-free under random engine orders; and leave no token behind.
#include <gtest/gtest.h>

#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>

#include "common/error.hpp"
#include "compiler_test_util.hpp"
#include "support/sweep.hpp"
#include "vta/golden/vta_conv2d.hpp"
#include "vta/compiler/conv2d_compiler.hpp"
#include "vta/compiler/layout_transform.hpp"

namespace cosim::vta {
namespace {

using testutil::random_int32;
using testutil::random_int8;
using testutil::run_compiled;

struct Case {
  int64_t n = 1, h = 8, w = 8, c = 3, o = 5, kh = 3, kw = 3;
  int stride_h = 1, stride_w = 1;
  ops::Padding padding = ops::Padding::kSame;
  int32_t zp_in = 0;
  bool direct_plans = false;  // random plans with pre-shifts and per-channel zp / clamps
  CompileOptions opt;
  std::string str() const {
    return "n" + std::to_string(n) + " " + std::to_string(h) + "x" + std::to_string(w) + "x" + std::to_string(c) +
           " -> " + std::to_string(o) + " k" + std::to_string(kh) + "x" + std::to_string(kw) + " s" +
           std::to_string(stride_h) + "x" + std::to_string(stride_w) +
           (padding == ops::Padding::kSame ? " SAME" : " VALID") + " zp_in " + std::to_string(zp_in) +
           (direct_plans ? " direct-plans" : "") + " threads " + std::to_string(opt.threads) + " depths " +
           std::to_string(opt.inp_depth) + "/" + std::to_string(opt.wgt_depth) + "/" + std::to_string(opt.acc_depth);
  }
};

struct Workload {
  Tensor input, filter, bias;
  ops::ConvParams params;
  std::vector<quant::VtaRequantPlan> plans;
};

Workload make_workload(const Case& k, std::mt19937_64& rng) {
  Workload w;
  w.input = random_int8(rng, {k.n, k.h, k.w, k.c});
  w.filter = random_int8(rng, {k.o, k.kh, k.kw, k.c});
  w.bias = random_int32(rng, k.o, -20000, 20000);
  w.params.padding = k.padding;
  w.params.stride_h = k.stride_h;
  w.params.stride_w = k.stride_w;
  w.params.input_zero_point = k.zp_in;
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  if (!k.direct_plans) {
    const float s_in = 0.01f + 0.1f * u(rng);
    std::vector<float> s_w;
    for (int64_t i = 0; i < k.o; ++i) s_w.push_back(0.001f + 0.02f * u(rng));
    const float s_out = 0.02f + 0.5f * u(rng);
    const int32_t zp_out = std::uniform_int_distribution<int32_t>(-128, 127)(rng);
    const auto act = static_cast<quant::Activation>(std::uniform_int_distribution<int>(0, 2)(rng));
    w.plans = ops::vta_plan_conv2d(w.filter, w.bias, s_in, k.zp_in, s_w, s_out, zp_out, act);
  } else {
    for (int64_t i = 0; i < k.o; ++i) {
      quant::VtaRequantPlan p;
      p.pre_shift = std::uniform_int_distribution<int>(0, 6)(rng);
      p.multiplier = static_cast<int16_t>(std::uniform_int_distribution<int>(1 << 14, (1 << 15) - 1)(rng));
      p.post_shift = std::uniform_int_distribution<int>(8, 31)(rng);
      p.zero_point = std::uniform_int_distribution<int32_t>(-128, 127)(rng);
      p.act_min = std::uniform_int_distribution<int32_t>(-128, 0)(rng);
      p.act_max = std::uniform_int_distribution<int32_t>(0, 127)(rng);
      w.plans.push_back(p);
    }
  }
  return w;
}

// Compiles, runs and compares; returns the compiled program for more checks.
CompiledProgram check_case(const Case& k, uint64_t seed, int random_orders = 0) {
  std::mt19937_64 rng(seed);
  const Workload w = make_workload(k, rng);
  const Tensor want = ops::vta_conv2d(w.input, w.filter, w.bias, w.params, w.plans);
  CompiledProgram cp = compile_conv2d(w.input, w.filter, w.bias, w.params, w.plans, k.opt);
  const testutil::RunResult r = run_compiled(cp);
  EXPECT_TRUE(r.stats.finished) << k.str();
  EXPECT_EQ(r.stats.unexecuted, 0u) << k.str();
  EXPECT_EQ(r.output.shape(), want.shape()) << k.str();
  EXPECT_TRUE(r.output == want) << k.str() << " seed " << seed << ": " << testutil::first_difference(r.output, want)
                                << "; tiling " << cp.tiling;
  EXPECT_EQ(r.stats.gemm_uops, cp.gemm_uops) << k.str();
  EXPECT_EQ(r.stats.gemm_resets, cp.reset_uops) << k.str();
  EXPECT_EQ(r.stats.alu_ops, cp.alu_uops) << k.str();
  const testutil::TokenBalance tb = testutil::token_balance(cp.insns);
  for (int q = 0; q < 4; ++q)
    EXPECT_EQ(tb.pushes[q], tb.pops[q]) << k.str() << ": queue " << queue_name(static_cast<Queue>(q));
  for (int i = 1; i <= random_orders; ++i) {
    const testutil::RunResult o = run_compiled(cp, seed * 1000 + static_cast<uint64_t>(i));
    EXPECT_TRUE(o.dram == r.dram) << k.str() << ": engine order " << i << " changes the DRAM bytes (a race)";
  }
  return cp;
}

// Independent count of useful MACs: taps inside the image, real channels.
uint64_t count_macs(const Case& k) {
  const ops::PadAmount ph = ops::compute_padding(k.padding, static_cast<int>(k.h), static_cast<int>(k.kh), k.stride_h, 1);
  const ops::PadAmount pw = ops::compute_padding(k.padding, static_cast<int>(k.w), static_cast<int>(k.kw), k.stride_w, 1);
  uint64_t macs = 0;
  for (int64_t y = 0; y < ph.out; ++y)
    for (int64_t x = 0; x < pw.out; ++x)
      for (int64_t a = 0; a < k.kh; ++a)
        for (int64_t b = 0; b < k.kw; ++b) {
          const int64_t iy = y * k.stride_h - ph.before + a, ix = x * k.stride_w - pw.before + b;
          if (iy >= 0 && iy < k.h && ix >= 0 && ix < k.w) macs += static_cast<uint64_t>(k.c * k.o);
        }
  return macs * static_cast<uint64_t>(k.n);
}

TEST(VtaConv2dCompiler, Reference28x28x64To64Layer) {
  Case k;
  k.h = 28, k.w = 28, k.c = 64, k.o = 64, k.kh = 3, k.kw = 3, k.zp_in = -7;
  const CompiledProgram cp = check_case(k, 42);
  const uint64_t ideal = 28ull * 28 * 4 * 4 * 9;
  EXPECT_EQ(cp.gemm_uops, ideal);
  EXPECT_EQ(cp.macs, count_macs(k));
  // Work on the COMPUTE engine besides GEMM: resets and ALU uops per pixel block.
  const double util = static_cast<double>(cp.gemm_uops) /
                      static_cast<double>(cp.gemm_uops + cp.reset_uops + cp.alu_uops);
  EXPECT_GE(util, 0.70);
  int gemm = 0, alu = 0, load = 0, store = 0, uop_loads = 0;
  for (const Insn& i : cp.insns) {
    switch (opcode_of(i)) {
      case Opcode::kGemm: ++gemm; break;
      case Opcode::kAlu: ++alu; break;
      case Opcode::kStore: ++store; break;
      case Opcode::kLoad:
        ++load;
        if (std::get<MemInsn>(i).mem_type == MemType::kUop && std::get<MemInsn>(i).x_size) ++uop_loads;
        break;
      default: break;
    }
  }
  std::printf("28x28x64->64 3x3: %u insns (GEMM %d, ALU %d, LOAD %d of which UOP %d, STORE %d); GEMM uops %llu "
              "(ideal %llu); reset uops %llu, ALU uops %llu; GEMM share of COMPUTE uops %.1f%%; %s\n",
              cp.insn_count, gemm, alu, load, uop_loads, store, static_cast<unsigned long long>(cp.gemm_uops),
              static_cast<unsigned long long>(ideal), static_cast<unsigned long long>(cp.reset_uops),
              static_cast<unsigned long long>(cp.alu_uops), 100.0 * util, cp.tiling.c_str());
}

// A first layer (3 input channels): with the host's im2col the 27 values of a
// 3x3x3 window take 2 GEMM uops per output block instead of 9, and the output
// is the same golden tensor (the padding carries zp_in, as TFLite pads).
TEST(VtaConv2dCompiler, FewInputChannelsUseHostIm2col) {
  for (int32_t zp : {-128, 0, 77}) {
    for (int stride : {1, 2}) {
      Case k;
      k.h = 13, k.w = 11, k.c = 3, k.o = 16, k.zp_in = zp, k.stride_h = k.stride_w = stride;
      const CompiledProgram with = check_case(k, 900 + static_cast<uint64_t>(zp + 128) + stride, 2);
      k.opt.host_im2col = false;
      const CompiledProgram without = check_case(k, 900 + static_cast<uint64_t>(zp + 128) + stride, 2);
      EXPECT_EQ(with.tiling.rfind("host im2col", 0), 0u) << with.tiling;
      EXPECT_EQ(without.tiling.find("im2col"), std::string::npos) << without.tiling;
      EXPECT_EQ(with.gemm_uops * 9, without.gemm_uops * 2) << k.str();
      EXPECT_EQ(with.macs, count_macs(k));
      EXPECT_EQ(without.macs, count_macs(k));
    }
  }
  // An input already in DRAM (a chained layer) keeps the direct program.
  Case k;
  k.c = 3, k.o = 16;
  std::mt19937_64 rng(5);
  const Workload w = make_workload(k, rng);
  CompileOptions o;
  o.input_addr = 0;
  EXPECT_EQ(compile_conv2d(w.input, w.filter, w.bias, w.params, w.plans, o).tiling.find("im2col"), std::string::npos);
}

// The fused requantization (vta_compiler/fused_requant.hpp) gives the same
// golden output with one start uop per entry in place of the reset, the bias
// and the border corrections, and the zero point riding on the product:
// 7 uops per output entry besides the GEMMs where the plain program takes 8
// plus one per border pixel. Uneven row tiles reuse accumulator entries of
// other sizes; the few resets are the one-time clearing of each half.
TEST(VtaConv2dCompiler, FusedRequantizationSavesComputeUops) {
  for (int32_t zp : {-128, 0, 77}) {
    for (int threads : {1, 2}) {
      Case k;
      k.h = 11, k.w = 10, k.c = 64, k.o = 32, k.zp_in = zp;
      k.opt.threads = threads;
      k.opt.tile_rows = 4;  // rows 4, 4, 3
      const uint64_t seed = 700 + static_cast<uint64_t>(zp + 128) + static_cast<uint64_t>(threads);
      const CompiledProgram fused = check_case(k, seed, 2);
      k.opt.fused_requant = false;
      const CompiledProgram plain = check_case(k, seed, 2);
      const uint64_t entries = 11 * 10 * 2;  // pixels x output blocks
      const uint64_t border = zp == 0 ? 0 : (11 * 10 - 9 * 8) * 2;
      EXPECT_EQ(plain.reset_uops, entries) << k.str();
      EXPECT_EQ(plain.alu_uops, entries * 7 + border) << k.str();
      EXPECT_EQ(fused.alu_uops, entries * 7) << k.str();
      EXPECT_EQ(fused.reset_uops, static_cast<uint64_t>(threads) * 4 * 10 * 2) << k.str();
      EXPECT_EQ(fused.gemm_uops, plain.gemm_uops);
    }
  }
}

TEST(VtaConv2dCompiler, ZeroPointsAtTheLimits) {
  for (int32_t zp : {-128, 127, 0, 55}) {
    for (int kernel : {1, 3, 5, 7}) {
      Case k;
      k.h = 9, k.w = 7, k.c = 17, k.o = 17, k.kh = kernel, k.kw = kernel, k.zp_in = zp;
      check_case(k, 100 + static_cast<uint64_t>(zp + 128) * 10 + static_cast<uint64_t>(kernel));
    }
  }
}

TEST(VtaConv2dCompiler, RandomShapes) {
  const int cases = std::getenv("VTA_COMPILER_SWEEP") ? std::atoi(std::getenv("VTA_COMPILER_SWEEP"))
                                                      : cosim::testing::sweep_count(80);
  std::mt19937_64 pick(cosim::testing::sweep_seed(2024));
  const int chans[] = {1, 3, 16, 17, 40};
  const int kernels[] = {1, 3, 5, 7};
  int ran = 0;
  for (int i = 0; i < cases; ++i) {
    Case k;
    auto any = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(pick); };
    k.n = any(1, 4) == 1 ? 2 : 1;
    k.kh = kernels[any(0, 3)];
    k.kw = any(0, 3) == 0 ? kernels[any(0, 3)] : k.kh;
    k.stride_h = any(1, 2);
    k.stride_w = any(0, 3) == 0 ? 3 - k.stride_h : k.stride_h;
    k.padding = any(0, 2) == 0 ? ops::Padding::kValid : ops::Padding::kSame;
    k.h = any(k.padding == ops::Padding::kValid ? k.kh : 1, 15);
    k.w = any(k.padding == ops::Padding::kValid ? k.kw : 1, 15);
    k.c = chans[any(0, 4)];
    k.o = chans[any(0, 4)];
    const int zsel = any(0, 4);
    k.zp_in = zsel == 0 ? -128 : zsel == 1 ? 127 : zsel == 2 ? 0 : any(-128, 127);
    k.direct_plans = any(0, 3) == 0;
    k.opt.threads = any(1, 2);
    if (any(0, 2) == 0) {  // shrunken buffers force row / column / channel-group tiling
      k.opt.inp_depth = static_cast<uint32_t>(any(static_cast<int>(std::max<int64_t>(16, 4 * k.kh * k.kw)), 400));
      k.opt.acc_depth = static_cast<uint32_t>(any(200, 600));
      k.opt.wgt_depth = static_cast<uint32_t>(any(static_cast<int>(k.kh * k.kw * 3), 200));
    }
    SCOPED_TRACE(k.str());
    try {
      check_case(k, 5000 + static_cast<uint64_t>(i), i % 8 == 0 ? 2 : 0);
      ++ran;
    } catch (const InputError& e) {
      // Only a shrunken buffer may refuse a workload; it must name the buffer.
      const std::string m = e.what();
      EXPECT_TRUE(k.opt.inp_depth < kInpDepth) << k.str() << ": " << m;
      EXPECT_TRUE(m.find("buffer") != std::string::npos) << m;
    }
  }
  EXPECT_GE(ran, cases * 3 / 4) << "too many random cases refused";
  std::printf("%d of %d random CONV2D cases compiled and matched\n", ran, cases);
}

TEST(VtaConv2dCompiler, ForcedTilingPaths) {
  // Rows, columns and output-channel groups all split, both thread counts.
  for (int threads : {1, 2}) {
    Case k;
    k.h = 13, k.w = 11, k.c = 40, k.o = 40, k.kh = 3, k.kw = 3, k.zp_in = 33;
    k.opt.threads = threads;
    k.opt.inp_depth = 100;  // 3 blocks x 3 rows x 13 columns = 117 entries do not fit
    k.opt.acc_depth = 300;
    k.opt.wgt_depth = 30;
    ops::ConvParams p;
    p.input_zero_point = k.zp_in;
    const Conv2dTiling t = plan_conv2d_tiling({1, k.h, k.w, k.c}, {k.o, k.kh, k.kw, k.c}, p, k.opt);
    EXPECT_EQ(t.oc_blocks_per_group, 1);  // 3*3*3 = 27 WGT entries per block of 30
    EXPECT_EQ(t.groups, 3);
    EXPECT_FALSE(t.wgt_double_buffered);  // 27 > 30 / 2
    EXPECT_GT(t.col_tiles, 1);
    EXPECT_GT(t.row_tiles, 1);
    EXPECT_EQ(t.border_classes, 8);
    check_case(k, 77 + static_cast<uint64_t>(threads), 3);
  }
  // Two WGT halves of 30 (27 entries per block): groups alternate halves.
  for (int threads : {1, 2}) {
    Case k;
    k.h = 9, k.w = 8, k.c = 40, k.o = 60, k.kh = 3, k.kw = 3, k.zp_in = -90;
    k.opt.threads = threads;
    k.opt.wgt_depth = 60;
    k.opt.inp_depth = 200;
    ops::ConvParams p;
    p.input_zero_point = k.zp_in;
    const Conv2dTiling t = plan_conv2d_tiling({1, k.h, k.w, k.c}, {k.o, k.kh, k.kw, k.c}, p, k.opt);
    EXPECT_TRUE(t.wgt_double_buffered);
    EXPECT_EQ(t.groups, 4);
    check_case(k, 55 + static_cast<uint64_t>(threads), 4);
    k.opt.wgt_double_buffer = false;  // the knob turns it off: 2 blocks per group
    EXPECT_EQ(plan_conv2d_tiling({1, k.h, k.w, k.c}, {k.o, k.kh, k.kw, k.c}, p, k.opt).groups, 2);
    check_case(k, 65 + static_cast<uint64_t>(threads), 2);
  }
  // One tile per group: the weight halves are then ordered by the weight
  // loads' own tokens, not by the input loads'.
  {
    Case k;
    k.h = 4, k.w = 4, k.c = 40, k.o = 80, k.kh = 3, k.kw = 3, k.zp_in = 7;
    k.opt.wgt_depth = 60;
    const CompiledProgram cp = check_case(k, 71, 12);
    EXPECT_EQ(cp.tiles, 5u);
  }
  // Explicit tile-size knobs.
  Case k;
  k.h = 10, k.w = 9, k.c = 20, k.o = 33, k.kh = 5, k.kw = 5, k.zp_in = -100, k.stride_h = 2;
  k.opt.tile_rows = 2;
  k.opt.tile_cols = 3;
  k.opt.oc_blocks = 2;
  check_case(k, 91, 2);
}

TEST(VtaConv2dCompiler, LargeShapeTilesWithDefaultBuffers) {
  Case k;
  k.n = 2, k.h = 40, k.w = 70, k.c = 48, k.o = 24, k.kh = 3, k.kw = 3, k.zp_in = 12, k.stride_w = 2;
  ops::ConvParams p;
  p.stride_w = 2;
  p.input_zero_point = k.zp_in;
  const Conv2dTiling t = plan_conv2d_tiling({k.n, k.h, k.w, k.c}, {k.o, k.kh, k.kw, k.c}, p);
  EXPECT_GT(t.row_tiles, 1);
  check_case(k, 1234, 1);
}

TEST(VtaConv2dCompiler, WideImageSplitsColumns) {
  // 700 columns x 3 input rows do not fit half of INP: the row is split.
  Case k;
  k.h = 3, k.w = 700, k.c = 16, k.o = 16, k.kh = 3, k.kw = 3, k.zp_in = -3;
  ops::ConvParams p;
  p.input_zero_point = k.zp_in;
  const Conv2dTiling t = plan_conv2d_tiling({1, k.h, k.w, k.c}, {k.o, k.kh, k.kw, k.c}, p);
  EXPECT_GT(t.col_tiles, 1);
  check_case(k, 4321, 1);
}

TEST(VtaConv2dCompiler, ManyChannelsUseSeveralWeightGroups) {
  // 3x3 x 16 input blocks = 144 WGT entries per output block: 7 fit in 1024,
  // so 16 output blocks need several groups, and then WGT is split into two
  // halves of 512 (3 blocks each): 6 groups of 3 that alternate halves.
  Case k;
  k.h = 6, k.w = 5, k.c = 256, k.o = 256, k.kh = 3, k.kw = 3, k.zp_in = 100;
  ops::ConvParams p;
  p.input_zero_point = k.zp_in;
  const Conv2dTiling t = plan_conv2d_tiling({1, k.h, k.w, k.c}, {k.o, k.kh, k.kw, k.c}, p);
  EXPECT_TRUE(t.wgt_double_buffered);
  EXPECT_EQ(t.groups, 6);
  EXPECT_EQ(t.oc_blocks_per_group, 3);
  const CompiledProgram cp = check_case(k, 777, 2);
  EXPECT_EQ(cp.gemm_uops, 6ull * 5 * 16 * 16 * 9);
  EXPECT_EQ(cp.macs, count_macs(k));
}

// Two programs in one DRAM, the second reading the first's output in place:
// the second image starts at dram_base and leaves the input region out, and
// the pair computes the two reference convolutions one after the other, with
// a 24-channel middle map (padding lanes in its second block) and odd shapes.
TEST(VtaConv2dCompiler, ChainsOnAnEarlierProgramsOutputInDram) {
  std::mt19937_64 rng(77);
  Case a;
  a.h = 9, a.w = 7, a.c = 5, a.o = 24, a.zp_in = -3;
  Case b;
  b.h = 9, b.w = 7, b.c = 24, b.o = 19, b.stride_h = 2;
  const Workload wa = make_workload(a, rng);
  Workload wb = make_workload(b, rng);
  const Tensor mid = ops::vta_conv2d(wa.input, wa.filter, wa.bias, wa.params, wa.plans);
  wb.input = mid;
  wb.params.input_zero_point = wa.plans[0].zero_point;  // the first map's output zero point
  wb.plans = ops::vta_plan_conv2d(wb.filter, wb.bias, 0.05f, wb.params.input_zero_point,
                                  std::vector<float>(static_cast<std::size_t>(b.o), 0.004f), 0.3f, 5,
                                  quant::Activation::kRelu);
  const Tensor want = ops::vta_conv2d(mid, wb.filter, wb.bias, wb.params, wb.plans);

  const CompiledProgram pa = compile_conv2d(wa.input, wa.filter, wa.bias, wa.params, wa.plans);
  CompileOptions ob;
  ob.dram_base = (pa.dram.size() + 4095) / 4096 * 4096;
  ob.input_addr = pa.output.byte_addr;
  // The second program's input bytes are never read from its own image: give
  // it a different tensor of the same shape.
  const Tensor decoy = random_int8(rng, mid.shape());
  const CompiledProgram pb = compile_conv2d(decoy, wb.filter, wb.bias, wb.params, wb.plans, ob);
  EXPECT_EQ(pb.image_base, ob.dram_base);
  for (const DramRegion& r : pb.layout.regions()) {
    EXPECT_GE(r.byte_addr, ob.dram_base) << r.name;
    EXPECT_NE(r.name, "input");
  }
  std::vector<uint8_t> dram = pa.raw().dram;
  dram.resize(pb.image_base, 0);
  dram.insert(dram.end(), pb.dram.begin(), pb.dram.end());
  ASSERT_TRUE(run_model(dram, pa.insn_addr, pa.insn_count, {}).finished);
  EXPECT_TRUE(pa.extract_output(dram) == mid);
  ASSERT_TRUE(run_model(dram, pb.insn_addr, pb.insn_count, {}).finished);
  const Tensor got = pb.extract_output(dram);
  EXPECT_TRUE(got == want) << testutil::first_difference(got, want);
  // The same second program compiled with its own input in its image agrees.
  EXPECT_TRUE(run_compiled(compile_conv2d(mid, wb.filter, wb.bias, wb.params, wb.plans)).output == want);
  CompileOptions odd = ob;
  odd.input_addr = pa.output.byte_addr + 8;
  EXPECT_THROW(compile_conv2d(decoy, wb.filter, wb.bias, wb.params, wb.plans, odd), InputError);
}

TEST(VtaConv2dCompiler, ListingAndRawProgram) {
  Case k;
  k.h = 5, k.w = 5, k.c = 3, k.o = 3, k.zp_in = 1;
  std::mt19937_64 rng(3);
  const Workload w = make_workload(k, rng);
  const CompiledProgram cp = compile_conv2d(w.input, w.filter, w.bias, w.params, w.plans);
  const std::string l = cp.listing();
  EXPECT_NE(l.find("GEMM"), std::string::npos);
  EXPECT_NE(l.find("; tile 0"), std::string::npos);
  EXPECT_EQ(static_cast<std::size_t>(std::count(l.begin(), l.end(), '\n')), cp.insns.size());
  RawProgram raw = cp.raw();
  run_raw_program(raw);
  EXPECT_TRUE(cp.extract_output(raw.dram) == ops::vta_conv2d(w.input, w.filter, w.bias, w.params, w.plans));
  // The stream bytes in the image are the encoded instructions.
  EXPECT_TRUE(std::equal(cp.insn_bytes.begin(), cp.insn_bytes.end(), cp.dram.begin() + cp.insn_addr));
  EXPECT_EQ(cp.insn_bytes.size(), cp.insn_count * kInsnBytes);
}

TEST(VtaConv2dCompiler, StoreAnnotationsPointAtTheWritingStore) {
  Case k;
  k.h = 12, k.w = 10, k.c = 5, k.o = 20, k.zp_in = 3;
  k.opt.acc_depth = 200;
  std::mt19937_64 rng(9);
  const Workload w = make_workload(k, rng);
  const CompiledProgram cp = compile_conv2d(w.input, w.filter, w.bias, w.params, w.plans, k.opt);
  ASSERT_EQ(cp.work.size(), cp.insns.size());
  const Tensor& o = ops::vta_conv2d(w.input, w.filter, w.bias, w.params, w.plans);
  for (int64_t y = 0; y < o.dim(1); ++y)
    for (int64_t x = 0; x < o.dim(2); ++x)
      for (int64_t c = 0; c < k.o; c += 7) {
        const auto s = cp.store_writing({0, y, x, c});
        ASSERT_TRUE(s.has_value()) << y << "," << x << "," << c;
        ASSERT_EQ(opcode_of(cp.insns[*s]), Opcode::kStore);
        // The blocked output byte of (y, x, c), computed here from the layout.
        const uint64_t byte = cp.output.byte_addr + (((c / 16) * o.dim(1) + y) * o.dim(2) + x) * 16 + c % 16;
        const auto writers = stores_writing(cp.insns, byte);
        ASSERT_EQ(writers.size(), 1u);
        EXPECT_EQ(writers[0], *s);
        EXPECT_GE(cp.work[*s].tile, 0);
        EXPECT_NE(cp.work[*s].text.find("store"), std::string::npos);
      }
}

TEST(VtaConv2dCompiler, RejectsWhatCannotFit) {
  std::mt19937_64 rng(5);
  ops::ConvParams p;
  auto expect_error = [&](const std::vector<int64_t>& in, const std::vector<int64_t>& f, const ops::ConvParams& pp,
                          const CompileOptions& opt, const std::string& needle) {
    try {
      plan_conv2d_tiling(in, f, pp, opt);
      FAIL() << "no error for " << needle;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  // 7x7 kernel over 400 input channels: 49 * 25 = 1225 WGT entries > 1024.
  expect_error({1, 8, 8, 400}, {16, 7, 7, 400}, p, {}, "WGT");
  // One output pixel's window (3x3 x 2 blocks = 18 entries) over 16 INP entries per thread.
  CompileOptions small;
  small.inp_depth = 32;
  expect_error({1, 8, 8, 32}, {16, 3, 3, 32}, p, small, "INP");
  // ACC too small for the per-channel vectors.
  CompileOptions tiny_acc;
  tiny_acc.acc_depth = 8;
  p.input_zero_point = 5;  // adds 8 border-class vectors
  expect_error({1, 8, 8, 16}, {16, 3, 3, 16}, p, tiny_acc, "ACC");
  ops::ConvParams dil;
  dil.dilation_h = 2;
  expect_error({1, 8, 8, 16}, {16, 3, 3, 16}, dil, {}, "dilation");
  CompileOptions bad_threads;
  bad_threads.threads = 3;
  expect_error({1, 8, 8, 16}, {16, 3, 3, 16}, ops::ConvParams{}, bad_threads, "threads");
  ops::ConvParams valid;
  valid.padding = ops::Padding::kValid;
  expect_error({1, 2, 2, 16}, {16, 3, 3, 16}, valid, {}, "empty");

  // Through compile_conv2d: plan count and the DRAM limit.
  const Tensor in = random_int8(rng, {1, 6, 6, 8});
  const Tensor f = random_int8(rng, {4, 3, 3, 8});
  const Tensor b = random_int32(rng, 4, -10, 10);
  std::vector<quant::VtaRequantPlan> plans(4);
  EXPECT_THROW(compile_conv2d(in, f, b, ops::ConvParams{}, std::vector<quant::VtaRequantPlan>(3)), InputError);
  CompileOptions dram;
  dram.dram_limit = 1024;
  try {
    compile_conv2d(in, f, b, ops::ConvParams{}, plans, dram);
    FAIL() << "no DRAM limit error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("DRAM limit"), std::string::npos) << e.what();
  }
  const Tensor wrong_c = random_int8(rng, {4, 3, 3, 7});
  EXPECT_THROW(compile_conv2d(in, wrong_c, b, ops::ConvParams{}, plans), InputError);
}

TEST(VtaConv2dCompiler, DramLayoutTransformIsTheDocumentedOne) {
  // Input element (n=0, h=1, w=2, c=17) sits in block cb=1 at byte
  // ((1*H + 1)*W + 2)*16 + 1 of the input region; weight (o=18, kh=1, kw=0,
  // c=3) of the one output-channel group (2 blocks) in block
  // ((cb 0 * KH + ky 1) * 2 blocks + ob 1) * KW + kx 0 at row 2, column 3:
  // [group][cb][ky][ob][kx], so each (cb, ky) slice of a group is contiguous.
  std::mt19937_64 rng(1);
  Tensor in = random_int8(rng, {1, 3, 4, 20});
  Tensor f = random_int8(rng, {20, 2, 2, 20});
  in.at<int8_t>({0, 1, 2, 17}) = 99;
  f.at<int8_t>({18, 1, 0, 3}) = -77;
  const CompiledProgram cp = compile_conv2d(in, f, Tensor(), ops::ConvParams{}, std::vector<quant::VtaRequantPlan>(20));
  const DramRegion& ri = cp.layout.find("input");
  const DramRegion& rw = cp.layout.find("weights");
  EXPECT_EQ(static_cast<int8_t>(cp.dram[ri.byte_addr + ((1 * 3 + 1) * 4 + 2) * 16 + 1]), 99);
  const uint64_t blk = ((0 * 2 + 1) * 2 + 1) * 2 + 0;
  EXPECT_EQ(static_cast<int8_t>(cp.dram[rw.byte_addr + blk * 256 + 2 * 16 + 3]), -77);
  // Padded channels are zero.
  EXPECT_EQ(cp.dram[ri.byte_addr + ((1 * 3 + 1) * 4 + 2) * 16 + 5], 0);
  // Blocked activations read back to the same NHWC tensor.
  EXPECT_TRUE(unpack_activations(pack_activations(in), in.shape()) == in);
  EXPECT_THROW(unpack_activations(std::vector<uint8_t>(10), in.shape()), InputError);
}

}  // namespace
}  // namespace cosim::vta

namespace cosim::vta {
namespace {

// The COMPUTE engine's own loads in the bound: one cycle per micro-op, four
// per ACC entry (64 bytes in 16-byte beats, padding included), one per
// 8-bit ACC entry; LOAD-engine and STORE transfers do not count.
TEST(VtaCompiledProgram, ComputeLoadCyclesCountTheEnginesOwnWrites) {
  CompiledProgram cp;
  MemInsn uop;
  uop.mem_type = MemType::kUop, uop.y_size = 1, uop.x_size = 10;
  MemInsn acc;
  acc.mem_type = MemType::kAcc, acc.y_size = 2, acc.x_size = 3, acc.y_pad_0 = 1, acc.x_pad_1 = 2;
  MemInsn acc8 = acc;
  acc8.mem_type = MemType::kAcc8;
  MemInsn inp = acc;
  inp.mem_type = MemType::kInp;
  MemInsn store = acc;
  store.opcode = Opcode::kStore;
  cp.insns = {uop, acc, acc8, inp, store};
  // The loader writes one uop, one 16-byte beat of a data element or one
  // whole padding element per cycle (rtl/vta/vta_loader.sv): 10 uops; ACC 6
  // data elements of 4 beats and 9 padding ones; ACC_8BIT 15 elements of
  // one beat each, padding or not.
  EXPECT_EQ(cp.compute_load_cycles(), 10u + (6u * 4u + 9u) + 15u);
  cp.gemm_uops = 100, cp.reset_uops = 5, cp.alu_uops = 20;
  EXPECT_DOUBLE_EQ(cp.compute_bound(), 100.0 / (100.0 + 5.0 + 20.0 + 58.0));
}

}  // namespace
}  // namespace cosim::vta

namespace cosim::vta {
namespace {

// A 1x1 kernel with stride 2 reads only the even input rows: the LOADs of
// the input move half the rows (DRAM row stride 2 W), and the output is
// still the golden one.
TEST(VtaConv2dCompiler, StridedOneRowKernelLoadsOnlyTheRowsItReads) {
  for (int threads : {1, 2}) {
    Case k;
    k.h = 12, k.w = 9, k.c = 20, k.o = 24, k.kh = 1, k.kw = 1, k.stride_h = 2, k.stride_w = 2, k.zp_in = -5;
    k.opt.threads = threads;
    k.opt.host_im2col = false;  // the core's own strided loads (a DRAM input)
    const CompiledProgram cp = check_case(k, 880 + static_cast<uint64_t>(threads), 2);
    uint64_t rows = 0;
    for (const Insn& i : cp.insns) {
      const auto* m = std::get_if<MemInsn>(&i);
      if (m == nullptr || m->opcode != Opcode::kLoad || m->mem_type != MemType::kInp || m->x_size == 0) continue;
      EXPECT_EQ(m->x_stride, 2 * 9) << "every other row";
      rows += m->y_size;
    }
    // 6 output rows read 6 input rows per input-channel block (2 blocks).
    EXPECT_EQ(rows, 6u * 2u) << k.str();
  }
}

}  // namespace
}  // namespace cosim::vta

namespace cosim::vta {
namespace {

// Input rows the LOAD engine reads before its first token to COMPUTE (pads
// included), and the output rows of the program's first GEMM.
struct FirstGemmNeeds {
  uint64_t window_rows = 0;
  uint32_t gemm_rows = 0;
};
FirstGemmNeeds first_gemm_needs(const CompiledProgram& cp) {
  FirstGemmNeeds f;
  bool token = false;
  for (const Insn& i : cp.insns) {
    if (const auto* m = std::get_if<MemInsn>(&i);
        m != nullptr && m->opcode == Opcode::kLoad && (m->mem_type == MemType::kInp || m->mem_type == MemType::kWgt)) {
      if (!token && m->mem_type == MemType::kInp) f.window_rows += m->y_size + m->y_pad_0 + m->y_pad_1;
      token = token || m->dep.push_next;
    }
    if (const auto* gm = std::get_if<GemmInsn>(&i); gm != nullptr && !gm->reset && f.gemm_rows == 0)
      f.gemm_rows = gm->loop.iter_out;
  }
  return f;
}

// A fused program with immediate clamps and no border classes reads five of
// each block's eight parameter entries (start value, pre, mul, post, offset):
// its parameter load moves only those and pads the rest, and the result is
// still the golden one.
TEST(VtaConv2dCompiler, FusedParameterLoadLeavesOutUnreadEntries) {
  Case k;
  k.h = 8, k.w = 8, k.c = 20, k.o = 40, k.kh = 1, k.kw = 1, k.stride_h = 2, k.stride_w = 2, k.zp_in = 7;
  const CompiledProgram cp = check_case(k, 911);
  uint64_t data = 0, pads = 0;
  for (const Insn& i : cp.insns) {
    const auto* m = std::get_if<MemInsn>(&i);
    if (m == nullptr || m->opcode != Opcode::kLoad || m->mem_type != MemType::kAcc) continue;
    data += static_cast<uint64_t>(m->y_size) * m->x_size;
    pads += static_cast<uint64_t>(m->y_size) * (m->x_pad_0 + m->x_pad_1);
  }
  EXPECT_EQ(data, 3u * 5u) << "40 channels = 3 blocks of 5 entries read";
  EXPECT_EQ(pads, 3u * 3u);
  k.kh = 3, k.kw = 3;  // SAME padding: border classes, every entry loaded
  const CompiledProgram bordered = check_case(k, 912);
  for (const Insn& i : bordered.insns) {
    if (const auto* m = std::get_if<MemInsn>(&i); m != nullptr && m->mem_type == MemType::kAcc) {
      EXPECT_EQ(m->x_pad_0 + m->x_pad_1, 0) << "no parameter entry left out";
    }
  }
}

// A 1x1 kernel with a stride over a host input: the host passes only the
// pixels the kernel reads (im2col with one pixel per window), and the core
// loads them as whole contiguous rows; the output is still the golden one.
// With the input already in DRAM (a chained layer) the core loads strided
// rows itself.
TEST(VtaConv2dCompiler, StridedOneByOneHostInputIsSubsampledOnTheHost) {
  Case k;
  k.h = 12, k.w = 9, k.c = 20, k.o = 24, k.kh = 1, k.kw = 1, k.stride_h = 2, k.stride_w = 3, k.zp_in = 4;
  const CompiledProgram cp = check_case(k, 921);
  EXPECT_NE(cp.tiling.find("host subsampling (stride 2x3)"), std::string::npos) << cp.tiling;
  uint64_t entries = 0;
  for (const Insn& i : cp.insns) {
    const auto* m = std::get_if<MemInsn>(&i);
    if (m == nullptr || m->opcode != Opcode::kLoad || m->mem_type != MemType::kInp || m->x_size == 0) continue;
    EXPECT_EQ(m->x_stride, m->x_size) << "whole rows of the 6x3 sampled map";
    entries += static_cast<uint64_t>(m->y_size) * m->x_size;
  }
  EXPECT_EQ(entries, 6u * 3u * 2u) << "6x3 sampled pixels, 2 channel blocks, each loaded once";
  k.opt.host_im2col = false;
  const CompiledProgram own = check_case(k, 922);
  EXPECT_EQ(own.tiling.find("host"), std::string::npos) << own.tiling;
}

// A tile of whole output rows is one contiguous run per output block in
// DRAM: one STORE (a row per block, stride H*W) writes all its blocks. Only
// the program's last tile, requantized block by block, stores each block on
// its own. Bit-exact either way.
TEST(VtaConv2dCompiler, FullWidthTilesStoreAllBlocksAtOnce) {
  Case k;
  k.h = 12, k.w = 9, k.c = 20, k.o = 40, k.kh = 3, k.kw = 3, k.zp_in = 2;
  k.opt.tile_rows = 3;
  const CompiledProgram cp = check_case(k, 931);
  std::vector<const MemInsn*> stores;
  for (const Insn& i : cp.insns)
    if (const auto* m = std::get_if<MemInsn>(&i); m != nullptr && m->opcode == Opcode::kStore && m->x_size > 0)
      stores.push_back(m);
  ASSERT_EQ(stores.size(), 3u + 3u) << "tiles 0..2 in one store each, the last tile's 3 blocks one by one";
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(stores[static_cast<std::size_t>(i)]->y_size, 3u) << "3 output blocks";
    EXPECT_EQ(stores[static_cast<std::size_t>(i)]->x_size, 3u * 9u) << "3 rows of 9 pixels";
    EXPECT_EQ(stores[static_cast<std::size_t>(i)]->x_stride, 12u * 9u) << "one block's map apart";
  }
  for (std::size_t i = 3; i < stores.size(); ++i) EXPECT_EQ(stores[i]->x_size, 9u);
}

// The first tile's first weight slices run in parts of output rows, each
// after its own input rows: the first GEMM waits for the rows of its part,
// not for the tile's whole window. Parts that would read only padding rows
// (a 7-row kernel on a 2-row image) join their neighbours. Every program is
// bit-exact against the golden model.
TEST(VtaConv2dCompiler, FirstTileStartsOnItsFirstInputRows) {
  Case k;
  k.h = 16, k.w = 10, k.c = 20, k.o = 24, k.kh = 3, k.kw = 3, k.zp_in = 3;
  k.opt.tile_rows = 8;
  k.opt.first_part_rows = 0;
  const FirstGemmNeeds whole = first_gemm_needs(check_case(k, 901));
  EXPECT_EQ(whole.window_rows, 10u) << "one part: 8 output rows read 10 window rows";
  EXPECT_EQ(whole.gemm_rows, 8u);
  k.opt.first_part_rows = 2;
  const FirstGemmNeeds parts = first_gemm_needs(check_case(k, 901));
  EXPECT_EQ(parts.window_rows, 4u) << "the first part: 2 output rows read window rows 0..3";
  EXPECT_EQ(parts.gemm_rows, 2u);

  Case tall;
  tall.h = 2, tall.w = 15, tall.c = 3, tall.o = 5, tall.kh = 7, tall.kw = 7;
  tall.opt.first_part_rows = 1;
  tall.opt.host_im2col = false;
  check_case(tall, 902);
  for (int rows : {1, 3, 5}) {
    Case s = k;
    s.stride_h = 2, s.stride_w = 2;
    s.opt.first_part_rows = rows;
    check_case(s, 903 + static_cast<uint64_t>(rows));
  }
}

}  // namespace
}  // namespace cosim::vta
