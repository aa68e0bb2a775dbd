// The golden engine: the fast path and the reference loops give the same
// CONV_2D bits on random shapes (channels that fill no vector, strides,
// dilations, SAME / VALID padding, extreme zero points and multipliers) in
// both roundings; the setting comes from the name or COSIM_GOLDEN.
//
// COSIM_GOLDEN_CASES=N sets the number of shapes; by default 400 (make test)
// or, in the regress instance, COSIM_GOLDEN_DEFAULT_CASES = 10,000.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>

#include "common/error.hpp"
#include "ops/conv2d.hpp"
#include "ops/golden_engine.hpp"
#include "quant/tflite_quant.hpp"

namespace cosim::ops {
namespace {

struct Shape {
  Tensor input, filter, bias;
  ConvParams p;
  std::string text;
};

Shape random_shape(std::mt19937_64& rng) {
  const auto pick = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  Shape s;
  const int n = pick(1, 2), h = pick(1, 12), w = pick(1, 12), c = pick(1, 40), o = pick(1, 40);
  const int kh = pick(1, 5), kw = pick(1, 5);
  s.p.stride_h = pick(1, 3);
  s.p.stride_w = pick(1, 3);
  s.p.dilation_h = pick(1, 2);
  s.p.dilation_w = pick(1, 2);
  s.p.padding = pick(0, 1) ? Padding::kSame : Padding::kValid;
  // VALID needs the dilated kernel inside the map.
  const int eh = (kh - 1) * s.p.dilation_h + 1, ew = (kw - 1) * s.p.dilation_w + 1;
  const int ih = s.p.padding == Padding::kValid ? std::max(h, eh) : h;
  const int iw = s.p.padding == Padding::kValid ? std::max(w, ew) : w;
  s.p.input_zero_point = pick(0, 9) == 0 ? (pick(0, 1) ? -128 : 127) : pick(-128, 127);
  s.p.output_zero_point = pick(-128, 127);
  s.p.rounding = pick(0, 1) ? quant::Rounding::kDouble : quant::Rounding::kSingle;
  for (int k = 0; k < o; ++k) {
    s.p.output_multiplier.push_back(quant::quantize_multiplier(std::ldexp(pick(1, 1000) / 1000.0, -pick(0, 20))));
  }
  s.input = Tensor(DType::kInt8, {n, ih, iw, c}, Layout::kNHWC);
  s.filter = Tensor(DType::kInt8, {o, kh, kw, c});
  for (int64_t i = 0; i < s.input.numel(); ++i) s.input.data<int8_t>()[i] = static_cast<int8_t>(pick(-128, 127));
  for (int64_t i = 0; i < s.filter.numel(); ++i) s.filter.data<int8_t>()[i] = static_cast<int8_t>(pick(-128, 127));
  if (pick(0, 3) != 0) {
    s.bias = Tensor(DType::kInt32, {o});
    for (int k = 0; k < o; ++k) s.bias.data<int32_t>()[k] = pick(-100000, 100000);
  }
  s.text = std::to_string(n) + "x" + std::to_string(ih) + "x" + std::to_string(iw) + "x" + std::to_string(c) +
           " -> " + std::to_string(o) + ", " + std::to_string(kh) + "x" + std::to_string(kw) + " s" +
           std::to_string(s.p.stride_h) + "," + std::to_string(s.p.stride_w) + " d" + std::to_string(s.p.dilation_h) +
           "," + std::to_string(s.p.dilation_w) + (s.p.padding == Padding::kSame ? " same" : " valid") + " zp " +
           std::to_string(s.p.input_zero_point) +
           (s.p.rounding == quant::Rounding::kDouble ? " double" : " single");
  return s;
}

// Restores the process-wide setting after a test.
struct EngineScope {
  GoldenEngine saved = golden_engine();
  ~EngineScope() { set_golden_engine(saved); }
};

TEST(GoldenEngine, FastAndReferenceAgreeOnRandomShapesInBothRoundings) {
  EngineScope scope;
  const char* env = std::getenv("COSIM_GOLDEN_CASES");
#ifdef COSIM_GOLDEN_DEFAULT_CASES
  const int default_cases = COSIM_GOLDEN_DEFAULT_CASES;
#else
  const int default_cases = 400;
#endif
  const int cases = env != nullptr ? std::max(1, std::atoi(env)) : default_cases;
  std::mt19937_64 rng(0x5eed0000u + static_cast<unsigned>(cases));
  int differ = 0;
  for (int i = 0; i < cases && differ < 5; ++i) {
    const Shape s = random_shape(rng);
    SCOPED_TRACE("shape " + std::to_string(i) + ": " + s.text);
    set_golden_engine(GoldenEngine::kReference);
    const Tensor ref_acc = conv2d_accumulators(s.input, s.filter, s.bias, s.p);
    const Tensor ref_out = conv2d(s.input, s.filter, s.bias, s.p);
    set_golden_engine(GoldenEngine::kFast);
    const Tensor fast_acc = conv2d_accumulators(s.input, s.filter, s.bias, s.p);
    const Tensor fast_out = conv2d(s.input, s.filter, s.bias, s.p);
    EXPECT_EQ(fast_acc, ref_acc);
    EXPECT_EQ(fast_out, ref_out);
    // The explicit referee is the loops, whatever the setting.
    EXPECT_EQ(conv2d_reference_accumulators(s.input, s.filter, s.bias, s.p), ref_acc);
    differ += fast_acc != ref_acc || fast_out != ref_out;
  }
  EXPECT_EQ(differ, 0);
}

TEST(GoldenEngine, NamesAndBadNames) {
  EXPECT_EQ(golden_engine_from_name("fast", "--golden"), GoldenEngine::kFast);
  EXPECT_EQ(golden_engine_from_name("reference", "--golden"), GoldenEngine::kReference);
  EXPECT_STREQ(golden_engine_name(GoldenEngine::kReference), "reference");
  try {
    golden_engine_from_name("quick", "COSIM_GOLDEN");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "COSIM_GOLDEN: unknown golden engine 'quick' (expected fast or reference)");
  }
}

// Errors do not depend on the engine: a bad shape is the same InputError.
TEST(GoldenEngine, BadShapesGiveTheSameErrorEitherWay) {
  EngineScope scope;
  ConvParams p;
  p.output_multiplier = {quant::quantize_multiplier(0.5)};
  const Tensor in(DType::kInt8, {1, 4, 4, 3}, Layout::kNHWC), f(DType::kInt8, {1, 3, 3, 5});
  std::string messages[2];
  int k = 0;
  for (GoldenEngine e : {GoldenEngine::kFast, GoldenEngine::kReference}) {
    set_golden_engine(e);
    try {
      conv2d_accumulators(in, f, Tensor(), p);
    } catch (const InputError& err) {
      messages[k] = err.what();
    }
    ++k;
  }
  EXPECT_FALSE(messages[0].empty());
  EXPECT_EQ(messages[0], messages[1]);
}

}  // namespace
}  // namespace cosim::ops
