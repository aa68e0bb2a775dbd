// CONV_2D and ADD compiled with TFLite requantization (double and single
// rounding), run on the functional model, against the TFLite golden
// (ops::conv2d / ops::add with the same parameters): random shapes, zero
// points, tiling paths, and multipliers chosen directly (positive shifts,
// tiny multipliers, M = 2^31 - 1, zero) with accumulators over all of int32.
#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <string>

#include "common/error.hpp"
#include "compiler_test_util.hpp"
#include "ops/add.hpp"
#include "ops/conv2d.hpp"
#include "vta/compiler/add_compiler.hpp"
#include "vta/compiler/conv2d_compiler.hpp"

namespace cosim::vta {
namespace {

using testutil::random_int8;
using testutil::run_compiled;
constexpr int32_t kMax = std::numeric_limits<int32_t>::max();

int any(std::mt19937_64& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

// A multiplier from the corners: positive shifts, 2^30 with shift -31,
// 2^31 - 1, zero, or a random one.
quant::QuantizedMultiplier corner_multiplier(std::mt19937_64& rng) {
  switch (any(rng, 0, 5)) {
    case 0: return {static_cast<int32_t>((1u << 30) + rng() % (1u << 30)), any(rng, 1, 30)};
    case 1: return {1 << 30, -31};
    case 2: return {kMax, any(rng, -31, 2)};
    case 3: return {0, 0};
    default: return {static_cast<int32_t>((1u << 30) + rng() % (1u << 30)), any(rng, -31, 0)};
  }
}

void expect_run_equals(const CompiledProgram& cp, const Tensor& want, const std::string& what) {
  const testutil::RunResult r = run_compiled(cp);
  ASSERT_TRUE(r.stats.finished) << what;
  EXPECT_TRUE(r.output == want) << what << ": " << testutil::first_difference(r.output, want) << "; " << cp.tiling;
  EXPECT_EQ(r.stats.alu_ops, cp.alu_uops) << what;
  const testutil::TokenBalance tb = testutil::token_balance(cp.insns);
  for (int q = 0; q < 4; ++q) EXPECT_EQ(tb.pushes[q], tb.pops[q]) << what << ": queue " << q;
}

TEST(VtaTfliteRequantCompile, Conv2dRandomShapesAndMultipliers) {
  std::mt19937_64 rng(161);
  const int chans[] = {1, 3, 16, 17, 33};
  int ran = 0;
  for (int i = 0; i < 60; ++i) {
    const quant::Rounding rounding = i % 2 ? quant::Rounding::kSingle : quant::Rounding::kDouble;
    const int64_t c = chans[any(rng, 0, 4)], o = chans[any(rng, 0, 4)], k = any(rng, 0, 2) * 2 + 1;
    const Tensor input = random_int8(rng, {1, any(rng, 1, 9), any(rng, 1, 9), c});
    const Tensor filter = random_int8(rng, {o, k, k, c});
    // Biases over all of int32: accumulators wrap and reach INT32_MIN / MAX.
    const bool wide = any(rng, 0, 2) == 0;
    const Tensor bias = testutil::random_int32(rng, o, wide ? std::numeric_limits<int32_t>::min() : -5000,
                                               wide ? kMax : 5000);
    const int32_t zp_in = any(rng, 0, 3) == 0 ? -128 : any(rng, -128, 127);
    const int32_t zp_out = any(rng, -128, 127);
    std::vector<float> fs;
    for (int64_t j = 0; j < o; ++j) fs.push_back(std::uniform_real_distribution<float>(0.001f, 0.01f)(rng));
    ops::ConvParams p = ops::make_conv_params(0.05f, zp_in, fs, std::uniform_real_distribution<float>(0.02f, 1.f)(rng),
                                              zp_out, any(rng, 0, 2) == 0 ? quant::Activation::kRelu
                                                                          : quant::Activation::kNone,
                                              rounding);
    if (any(rng, 0, 1)) {  // the corners, per channel
      for (auto& m : p.output_multiplier) m = corner_multiplier(rng);
    }
    p.padding = any(rng, 0, 2) == 0 ? ops::Padding::kValid : ops::Padding::kSame;
    if (p.padding == ops::Padding::kValid && (k > input.dim(1) || k > input.dim(2))) p.padding = ops::Padding::kSame;
    p.stride_h = p.stride_w = any(rng, 1, 2);
    CompileOptions opt;
    opt.threads = any(rng, 1, 2);
    if (any(rng, 0, 2) == 0) opt.acc_depth = static_cast<uint32_t>(any(rng, 300, 700));
    const TfliteRequantProgram rq = make_tflite_requant_program(p.output_multiplier, rounding, zp_out, p.act);
    const std::string what = "case " + std::to_string(i);
    try {
      const CompiledProgram cp = compile_conv2d(input, filter, bias, p, rq, opt);
      expect_run_equals(cp, ops::conv2d(input, filter, bias, p), what);
      ++ran;
    } catch (const InputError& e) {
      EXPECT_LT(opt.acc_depth, kAccDepth) << what << ": " << e.what();  // only a shrunken ACC may refuse
    }
  }
  EXPECT_GE(ran, 45);
}

// The ACC fit counts the temporaries: a depth that holds the 16-bit program's
// tile holds fewer pixels here, and a depth too small says so.
TEST(VtaTfliteRequantCompile, Conv2dTilingCountsTheTemporaries) {
  ops::ConvParams p;
  const TfliteRequantProgram rq = make_tflite_requant_program({{1 << 30, -8}}, quant::Rounding::kDouble, 0, {-128, 127});
  CompileOptions opt;
  opt.acc_depth = 400;
  opt.tile_rows = 16;  // the largest tile that fits, in both modes
  const Conv2dTiling a = plan_conv2d_tiling({1, 16, 16, 16}, {16, 3, 3, 16}, p, opt);
  const Conv2dTiling b = plan_conv2d_tiling({1, 16, 16, 16}, {16, 3, 3, 16}, p, opt, &rq);
  EXPECT_EQ(a.pixel_entries, 1);
  EXPECT_EQ(b.pixel_entries, 1 + rq.temps);
  EXPECT_EQ(b.param_entries, a.param_entries + static_cast<int64_t>(rq.vectors.size()));
  EXPECT_LE(b.param_entries + opt.threads * b.tile_rows * b.tile_cols * b.pixel_entries, 400);
  EXPECT_LT(b.tile_rows * b.tile_cols, a.tile_rows * a.tile_cols);
  opt.acc_depth = static_cast<uint32_t>(b.param_entries + 2 * b.pixel_entries - 1);
  EXPECT_THROW(plan_conv2d_tiling({1, 4, 4, 16}, {16, 1, 1, 16}, p, opt, &rq), InputError);
}

TEST(VtaTfliteRequantCompile, AddRandomShapesAndMultipliers) {
  std::mt19937_64 rng(162);
  for (int i = 0; i < 60; ++i) {
    const quant::Rounding rounding = i % 2 ? quant::Rounding::kSingle : quant::Rounding::kDouble;
    std::vector<int64_t> sa = {1, any(rng, 1, 7), any(rng, 1, 9), any(rng, 1, 33)}, sb = sa;
    if (any(rng, 0, 2) == 0) sb[1] = sb[2] = 1;  // broadcast
    const Tensor a = random_int8(rng, sa), b = random_int8(rng, sb);
    std::uniform_real_distribution<float> u(0.005f, 0.2f);
    ops::AddParams p = ops::make_add_params(u(rng), any(rng, -128, 127), u(rng), any(rng, -128, 127), u(rng),
                                            any(rng, -128, 127), quant::Activation::kNone, rounding);
    if (any(rng, 0, 1)) p.output_multiplier = corner_multiplier(rng);
    CompileOptions opt;
    opt.threads = any(rng, 1, 2);
    if (any(rng, 0, 1)) opt.acc_depth = static_cast<uint32_t>(any(rng, 30, 90));  // many chunks
    expect_run_equals(compile_add(a, b, p, opt), ops::add(a, b, p), "case " + std::to_string(i));
  }
}

// Large input rescales (left_shift 22 keeps them inside int32): sums far from
// zero, against the golden.
TEST(VtaTfliteRequantCompile, AddLargeRescaledInputs) {
  std::mt19937_64 rng(163);
  for (quant::Rounding r : {quant::Rounding::kDouble, quant::Rounding::kSingle}) {
    ops::AddParams p = ops::make_add_params(0.1f, -128, 0.1f, -128, 0.5f, 0, quant::Activation::kNone, r);
    p.left_shift = 22;
    p.input1_multiplier = p.input2_multiplier = {kMax, 0};
    p.output_multiplier = {kMax - 7, -25};
    const Tensor a = random_int8(rng, {3, 100}), b = random_int8(rng, {3, 100});
    expect_run_equals(compile_add(a, b, p), ops::add(a, b, p), "left_shift 22");
  }
}

TEST(VtaTfliteRequantCompile, BadInputIsOneClearError) {
  std::mt19937_64 rng(1);
  const Tensor x = random_int8(rng, {1, 4, 4, 16}), f = random_int8(rng, {8, 1, 1, 16});
  const TfliteRequantProgram rq3 = make_tflite_requant_program(
      std::vector<quant::QuantizedMultiplier>(3, {1 << 30, -8}), quant::Rounding::kDouble, 0, {-128, 127});
  try {
    compile_conv2d(x, f, Tensor(), ops::ConvParams{}, rq3);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("3 channels"), std::string::npos) << e.what();
  }
  ops::AddParams p;
  p.output_multiplier = {5, 0};  // not a quantized multiplier
  EXPECT_THROW(compile_add(x, x, p), InputError);
}

}  // namespace
}  // namespace cosim::vta
