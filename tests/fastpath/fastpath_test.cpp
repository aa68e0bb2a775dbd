// The fast int8 CONV_2D / GEMM path must equal the reference semantics bit
// for bit on every instruction path this CPU supports.
//
// Expected values come from two places: ops::conv2d_reference_accumulators
// (the project's reference loops) and an independent loop in this file that
// follows spec/quantization.md s.1 with int64 sums and explicit bounds checks
// for padding (no padded buffer, no uint8 bias trick).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "fastpath/fastpath.hpp"
#include "ops/conv2d.hpp"
#include "quant/tflite_quant.hpp"

namespace cosim::fastpath {
namespace {

// ---------------------------------------------------------------------------
// Independent reference

struct Geometry {
  int out = 0, before = 0;
};

Geometry spec_axis(ops::Padding pad, int in, int k, int s, int d) {
  const int eff = (k - 1) * d + 1;
  Geometry g;
  if (pad == ops::Padding::kSame) {
    g.out = (in + s - 1) / s;
    g.before = std::max((g.out - 1) * s + eff - in, 0) / 2;
  } else {
    g.out = (in - eff + s) / s;  // ceil((in - eff + 1) / s)
  }
  return g;
}

// acc[n][oy][ox][o] = bias[o] + sum over in-bounds taps of w * (x - zp_in).
Tensor naive_accumulators(const Tensor& in, const Tensor& f, const Tensor& bias,
                          const ops::ConvParams& p) {
  const int n = static_cast<int>(in.dim(0)), h = static_cast<int>(in.dim(1));
  const int w = static_cast<int>(in.dim(2)), c = static_cast<int>(in.dim(3));
  const int o = static_cast<int>(f.dim(0)), kh = static_cast<int>(f.dim(1));
  const int kw = static_cast<int>(f.dim(2));
  const Geometry gy = spec_axis(p.padding, h, kh, p.stride_h, p.dilation_h);
  const Geometry gx = spec_axis(p.padding, w, kw, p.stride_w, p.dilation_w);
  Tensor out(DType::kInt32, {n, gy.out, gx.out, o});
  for (int b = 0; b < n; ++b)
    for (int oy = 0; oy < gy.out; ++oy)
      for (int ox = 0; ox < gx.out; ++ox)
        for (int oc = 0; oc < o; ++oc) {
          int64_t sum = bias.numel() ? bias.at<int32_t>({oc}) : 0;
          for (int ky = 0; ky < kh; ++ky)
            for (int kx = 0; kx < kw; ++kx) {
              const int iy = oy * p.stride_h - gy.before + ky * p.dilation_h;
              const int ix = ox * p.stride_w - gx.before + kx * p.dilation_w;
              if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;  // padding adds 0
              for (int ic = 0; ic < c; ++ic)
                sum += static_cast<int64_t>(f.at<int8_t>({oc, ky, kx, ic})) *
                       (in.at<int8_t>({b, iy, ix, ic}) - p.input_zero_point);
            }
          out.at<int32_t>({b, oy, ox, oc}) = static_cast<int32_t>(sum);
        }
  return out;
}

Tensor naive_requantize(const Tensor& acc, const ops::ConvParams& p) {
  Tensor out(DType::kInt8, acc.shape());
  const int64_t o = acc.dim(3);
  for (int64_t i = 0; i < acc.numel(); ++i) {
    const auto& m = p.output_multiplier[p.output_multiplier.size() == 1 ? 0 : i % o];
    int64_t v = quant::multiply_by_quantized_multiplier(acc.data<int32_t>()[i], m, p.rounding);
    v += p.output_zero_point;
    v = std::clamp<int64_t>(v, p.act.min, p.act.max);
    out.data<int8_t>()[i] = static_cast<int8_t>(v);
  }
  return out;
}

// ---------------------------------------------------------------------------
// Random cases

struct Case {
  Tensor input, filter, bias;
  ops::ConvParams p;
  std::string describe() const {
    auto s = [](const Tensor& t) {
      std::string r = "[";
      for (std::size_t i = 0; i < t.rank(); ++i) r += (i ? "," : "") + std::to_string(t.dim(i));
      return r + "]";
    };
    return "input " + s(input) + " filter " + s(filter) + " stride " + std::to_string(p.stride_h) +
           "x" + std::to_string(p.stride_w) + " dilation " + std::to_string(p.dilation_h) + "x" +
           std::to_string(p.dilation_w) + (p.padding == ops::Padding::kSame ? " SAME" : " VALID") +
           (p.rounding == quant::Rounding::kDouble ? " double" : " single") + " zp_in " +
           std::to_string(p.input_zero_point) + " zp_out " + std::to_string(p.output_zero_point);
  }
};

class Rng {
 public:
  explicit Rng(uint32_t seed) : gen_(seed) {}
  int uniform(int lo, int hi) {
    const uint64_t span = static_cast<uint64_t>(int64_t{hi} - lo + 1);
    return static_cast<int>(lo + static_cast<int64_t>(gen_() % span));
  }
  int pick(std::initializer_list<int> v) { return *(v.begin() + uniform(0, static_cast<int>(v.size()) - 1)); }
  double real(double lo, double hi) { return lo + (hi - lo) * (gen_() / 4294967296.0); }
  void fill_int8(Tensor& t) {
    // Mostly uniform, sometimes saturated at the extremes.
    const int mode = uniform(0, 3);
    for (int64_t i = 0; i < t.numel(); ++i) {
      int v = uniform(-128, 127);
      if (mode == 0) v = pick({-128, 127});
      t.data<int8_t>()[i] = static_cast<int8_t>(v);
    }
  }

 private:
  std::mt19937 gen_;
};

Case random_case(Rng& r) {
  Case k;
  const int n = r.uniform(1, 2);
  const int h = r.uniform(1, 9), w = r.uniform(1, 11);
  const int c = r.pick({1, 2, 3, 4, 5, 7, 8, 16, 17, 19, 31, 33, r.uniform(1, 40)});
  const int o = r.pick({1, 3, 8, 16, 17, 31, 32, 33, 48, 63, 64, 65, 80, 90, 100, r.uniform(1, 70)});
  const int kh = r.uniform(1, 3), kw = r.pick({1, 2, 3, 5});
  k.p.stride_h = r.uniform(1, 2);
  k.p.stride_w = r.uniform(1, 3);
  k.p.dilation_h = r.uniform(1, 2);
  k.p.dilation_w = r.uniform(1, 2);
  k.p.padding = r.uniform(0, 1) ? ops::Padding::kSame : ops::Padding::kValid;
  // VALID needs the dilated kernel to fit.
  if (k.p.padding == ops::Padding::kValid &&
      ((kh - 1) * k.p.dilation_h + 1 > h || (kw - 1) * k.p.dilation_w + 1 > w))
    k.p.padding = ops::Padding::kSame;
  k.p.rounding = r.uniform(0, 1) ? quant::Rounding::kDouble : quant::Rounding::kSingle;
  k.p.input_zero_point = r.pick({-128, 127, 0, r.uniform(-128, 127)});
  k.p.output_zero_point = r.pick({-128, 127, 0, r.uniform(-128, 127)});
  switch (r.uniform(0, 2)) {
    case 0: k.p.act = {-128, 127}; break;
    case 1: k.p.act = {std::max(-128, k.p.output_zero_point), 127}; break;
    default: {
      const int lo = r.uniform(-128, 100);
      k.p.act = {lo, r.uniform(lo, 127)};
    }
  }
  const int nm = r.uniform(0, 3) == 0 ? 1 : o;
  for (int i = 0; i < nm; ++i) {
    // Typical scales (shift < 0) plus some >= 1 (shift > 0) and zero.
    const int kind = r.uniform(0, 9);
    const double real = kind == 0 ? 0.0 : kind == 1 ? r.real(1.0, 40.0) : std::exp(r.real(-14.0, -1.0));
    k.p.output_multiplier.push_back(quant::quantize_multiplier(real));
  }
  k.input = Tensor(DType::kInt8, {n, h, w, c}, Layout::kNHWC);
  k.filter = Tensor(DType::kInt8, {o, kh, kw, c});
  r.fill_int8(k.input);
  r.fill_int8(k.filter);
  if (r.uniform(0, 4) == 0) {
    k.bias = Tensor(DType::kInt32, {0});
  } else {
    k.bias = Tensor(DType::kInt32, {o});
    for (int i = 0; i < o; ++i) k.bias.data<int32_t>()[i] = r.uniform(-100000, 100000);
  }
  return k;
}

// ---------------------------------------------------------------------------

std::vector<Path> concrete_paths() { return {Path::kPortable, Path::kAvxVnni, Path::kAvx512Vnni}; }

class FastPathTest : public ::testing::TestWithParam<Path> {
 protected:
  void SetUp() override {
    if (!supported(GetParam()))
      GTEST_SKIP() << "instruction path " << name_of(GetParam()) << " is not supported by this CPU";
  }
};

TEST_P(FastPathTest, RandomShapesMatchReferenceBitExact) {
  Rng rng(20240611u);
  // COSIM_FASTPATH_CASES=N runs a longer sweep (regression); 1000 by default.
  const char* env = std::getenv("COSIM_FASTPATH_CASES");
  const int kCases = env != nullptr ? std::max(1000, std::atoi(env)) : 1000;
  int mismatches = 0;
  for (int i = 0; i < kCases && mismatches < 5; ++i) {
    const Case k = random_case(rng);
    SCOPED_TRACE("case " + std::to_string(i) + ": " + k.describe());
    const Tensor want_acc = naive_accumulators(k.input, k.filter, k.bias, k.p);
    const Tensor want = naive_requantize(want_acc, k.p);
    // The project's reference loops agree with the independent loop.
    ASSERT_EQ(ops::conv2d_reference_accumulators(k.input, k.filter, k.bias, k.p), want_acc);
    // And the golden engine in use (the fast path by default) does too.
    ASSERT_EQ(ops::conv2d(k.input, k.filter, k.bias, k.p), want);

    const Tensor acc = conv2d_fast_accumulators(k.input, k.filter, k.bias, k.p, GetParam());
    const Tensor got = conv2d_fast(k.input, k.filter, k.bias, k.p, GetParam());
    if (acc != want_acc || got != want) ++mismatches;
    EXPECT_EQ(acc, want_acc);
    EXPECT_EQ(got, want);
  }
  EXPECT_EQ(mismatches, 0);
}

// The benchmark's layer shape (ResNet 3x3, 64 -> 64 channels), shrunk in
// space: full 4-block tiles, pixel tails, both roundings.
TEST_P(FastPathTest, ResNetLikeLayerMatchesReference) {
  Rng rng(99u);
  Tensor in(DType::kInt8, {1, 15, 13, 64}, Layout::kNHWC);
  rng.fill_int8(in);
  Tensor f(DType::kInt8, {64, 3, 3, 64});
  rng.fill_int8(f);
  Tensor bias(DType::kInt32, {64});
  for (int i = 0; i < 64; ++i) bias.data<int32_t>()[i] = rng.uniform(-30000, 30000);
  for (auto rounding : {quant::Rounding::kDouble, quant::Rounding::kSingle}) {
    ops::ConvParams p;
    p.rounding = rounding;
    p.input_zero_point = 17;
    p.output_zero_point = -9;
    for (int i = 0; i < 64; ++i) p.output_multiplier.push_back(quant::quantize_multiplier(1e-4 * (i + 1)));
    const Tensor want = ops::conv2d_reference_accumulators(in, f, bias, p);
    EXPECT_EQ(conv2d_fast_accumulators(in, f, bias, p, GetParam()), want);
    EXPECT_EQ(conv2d_fast(in, f, bias, p, GetParam()), naive_requantize(want, p));
  }
}

// Padded taps read the zero point and must add exactly nothing, including at
// the int8 extremes where x - zp does not fit int8.
TEST_P(FastPathTest, PaddingContributesZeroAtExtremeZeroPoints) {
  for (int zp : {-128, 127, 0, 1}) {
    for (int xval : {-128, 127}) {
      Tensor in(DType::kInt8, {1, 3, 4, 5});
      for (int64_t i = 0; i < in.numel(); ++i) in.data<int8_t>()[i] = static_cast<int8_t>(xval);
      Tensor f(DType::kInt8, {3, 3, 3, 5});
      for (int64_t i = 0; i < f.numel(); ++i) f.data<int8_t>()[i] = -128;
      ops::ConvParams p;
      p.padding = ops::Padding::kSame;
      p.input_zero_point = zp;
      p.output_multiplier = {quant::quantize_multiplier(1.0 / 4096)};
      const Tensor acc = conv2d_fast_accumulators(in, f, Tensor(DType::kInt32, {0}), p, GetParam());
      // Hand count: output (y, x) sees taps (3 rows in bounds of 3) x (in-bounds
      // columns), each adding 5 channels of -128 * (xval - zp).
      const int64_t per_tap = 5 * -128 * static_cast<int64_t>(xval - zp);
      for (int y = 0; y < 3; ++y)
        for (int x = 0; x < 4; ++x) {
          const int rows = 3 - (y == 0) - (y == 2);
          const int cols = 3 - (x == 0) - (x == 3);
          EXPECT_EQ(acc.at<int32_t>({0, y, x, 1}), rows * cols * per_tap)
              << "zp " << zp << " x " << xval << " at " << y << "," << x;
        }
    }
  }
}

// The fused AVX-512 requantization and the scalar one at the edges of the
// multiplier range: shift 30 (double rounding wraps x << 30, single rounding
// saturates), shift -31, zero multiplier, and per-channel variety.
TEST_P(FastPathTest, RequantizationEdgesMatchQuantFunction) {
  const std::vector<quant::QuantizedMultiplier> ms = {
      {1 << 30, 30}, {2147483647, 30}, {1 << 30, -31}, {2147483647, -31}, {0, 0},
      {1518500250, -7}, {1073741824, 0}, {2147483647, 1}, {1234567890, -20}, {1 << 30, 5},
      {1879048192, -1}, {1073741825, -30}, {2000000000, 12}, {1500000000, -12}, {1 << 30, -1},
      {1717986918, -3}, {1288490189, 2}};
  const int o = static_cast<int>(ms.size());
  Rng rng(7u);
  Tensor in(DType::kInt8, {1, 5, 7, 32});
  rng.fill_int8(in);
  Tensor f(DType::kInt8, {o, 1, 1, 32});
  rng.fill_int8(f);
  Tensor bias(DType::kInt32, {o});
  for (int i = 0; i < o; ++i) bias.data<int32_t>()[i] = rng.uniform(-2000000000, 2000000000) / 2 * (i % 3);
  for (auto rounding : {quant::Rounding::kDouble, quant::Rounding::kSingle}) {
    ops::ConvParams p;
    p.rounding = rounding;
    p.input_zero_point = -3;
    p.output_zero_point = 5;
    p.output_multiplier = ms;
    const Tensor want = naive_requantize(naive_accumulators(in, f, bias, p), p);
    EXPECT_EQ(conv2d_fast(in, f, bias, p, GetParam()), want);
  }
}

// A multiplier of INT32_MIN is the one saturating case of SRDHM; the fast path
// must still agree (it falls back to the scalar function).
TEST_P(FastPathTest, SaturatingMultiplierFallsBackExactly) {
  Tensor in(DType::kInt8, {1, 2, 2, 4});
  Tensor f(DType::kInt8, {2, 1, 1, 4});
  Rng rng(3u);
  rng.fill_int8(in);
  rng.fill_int8(f);
  ops::ConvParams p;
  p.output_multiplier = {{std::numeric_limits<int32_t>::min(), -2}};
  EXPECT_EQ(conv2d_fast(in, f, Tensor(DType::kInt32, {0}), p, GetParam()),
            naive_requantize(naive_accumulators(in, f, Tensor(DType::kInt32, {0}), p), p));
}

// A prepacked filter gives the same results across calls with different
// zero points and parameters (the correction is applied per call).
TEST_P(FastPathTest, PackedFilterReusableAcrossCalls) {
  Rng rng(11u);
  Tensor in(DType::kInt8, {1, 6, 6, 17});
  rng.fill_int8(in);
  Tensor f(DType::kInt8, {33, 3, 3, 17});
  rng.fill_int8(f);
  Tensor bias(DType::kInt32, {33});
  for (int i = 0; i < 33; ++i) bias.data<int32_t>()[i] = rng.uniform(-5000, 5000);
  const PackedFilter packed(f, bias);
  for (int zp : {-128, -1, 0, 100, 127}) {
    ops::ConvParams p;
    p.input_zero_point = zp;
    p.output_multiplier = {quant::quantize_multiplier(0.002)};
    EXPECT_EQ(conv2d_fast_accumulators(in, packed, p, GetParam()), naive_accumulators(in, f, bias, p));
    EXPECT_EQ(conv2d_fast(in, packed, p, GetParam()),
              naive_requantize(naive_accumulators(in, f, bias, p), p));
  }
}

// gemm_s8 against a naive loop, including the largest -128 * -128 sums that
// still fit int32 (K = 131071: 131071 * 16384 = 2^31 - 16384).
TEST_P(FastPathTest, GemmMatchesNaiveLoop) {
  Rng rng(5u);
  for (int it = 0; it < 60; ++it) {
    const int m = rng.uniform(1, 40), n = rng.uniform(1, 70), k = rng.uniform(1, 300);
    Tensor a(DType::kInt8, {m, k}), b(DType::kInt8, {n, k});
    rng.fill_int8(a);
    rng.fill_int8(b);
    Tensor want(DType::kInt32, {m, n});
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        int64_t s = 0;
        for (int q = 0; q < k; ++q) s += int64_t{a.at<int8_t>({i, q})} * b.at<int8_t>({j, q});
        want.at<int32_t>({i, j}) = static_cast<int32_t>(s);
      }
    ASSERT_EQ(gemm_s8(a, b, GetParam()), want) << "M=" << m << " N=" << n << " K=" << k;
  }
}

TEST_P(FastPathTest, GemmExtremeSums) {
  const int m = 3, n = 18, k = 131071;
  std::vector<int8_t> a(static_cast<std::size_t>(m) * k, -128), b(static_cast<std::size_t>(n) * k, -128);
  // Row 1 of A is +127: 127 * -128 * K = -2130690176 (near INT32_MIN).
  std::fill(a.begin() + k, a.begin() + 2 * k, 127);
  // Row 2 alternates -128 / 127 against B's -128: sums cancel to a small value.
  for (int q = 0; q < k; ++q) a[2 * static_cast<std::size_t>(k) + q] = q % 2 ? 127 : -128;
  std::vector<int32_t> c(static_cast<std::size_t>(m) * n, 0);
  gemm_s8(a.data(), b.data(), c.data(), m, n, k, GetParam());
  const int64_t alt = (int64_t{k / 2 + 1} * -128 + int64_t{k / 2} * 127) * -128;
  for (int j = 0; j < n; ++j) {
    EXPECT_EQ(c[0 * n + j], 2147467264) << j;   // 131071 * 16384
    EXPECT_EQ(c[1 * n + j], -2130690176) << j;  // 131071 * -16256
    EXPECT_EQ(c[2 * n + j], alt) << j;
  }
}

INSTANTIATE_TEST_SUITE_P(AllPaths, FastPathTest, ::testing::ValuesIn(concrete_paths()),
                         [](const ::testing::TestParamInfo<Path>& info) {
                           return std::string(name_of(info.param));
                         });

// ---------------------------------------------------------------------------
// Dispatch

TEST(FastPathDispatch, NamesRoundTrip) {
  for (Path p : {Path::kAuto, Path::kPortable, Path::kAvxVnni, Path::kAvx512Vnni})
    EXPECT_EQ(path_from_name(name_of(p)), p);
  EXPECT_STREQ(name_of(Path::kAvx512Vnni), "avx512vnni");
  EXPECT_STREQ(name_of(Path::kAvxVnni), "avxvnni");
  EXPECT_STREQ(name_of(Path::kPortable), "portable");
  EXPECT_THROW(path_from_name("sse2"), InputError);
}

// Restores COSIM_FASTPATH after a test that sets it.
class EnvGuard {
 public:
  EnvGuard() {
    const char* v = std::getenv("COSIM_FASTPATH");
    had_ = v != nullptr;
    if (had_) old_ = v;
  }
  ~EnvGuard() {
    if (had_) setenv("COSIM_FASTPATH", old_.c_str(), 1);
    else unsetenv("COSIM_FASTPATH");
  }

 private:
  bool had_ = false;
  std::string old_;
};

TEST(FastPathDispatch, AutoPicksBestSupportedAndEnvForces) {
  EnvGuard guard;
  unsetenv("COSIM_FASTPATH");
  const Path best = supported(Path::kAvx512Vnni) ? Path::kAvx512Vnni
                    : supported(Path::kAvxVnni)  ? Path::kAvxVnni
                                                 : Path::kPortable;
  EXPECT_EQ(resolve(Path::kAuto), best);
  EXPECT_TRUE(supported(Path::kPortable));
  for (Path p : {Path::kPortable, Path::kAvxVnni, Path::kAvx512Vnni}) {
    setenv("COSIM_FASTPATH", name_of(p), 1);
    if (supported(p)) {
      EXPECT_EQ(resolve(Path::kAuto), p);
    } else {
      EXPECT_THROW(resolve(Path::kAuto), InputError);
    }
    // An explicit path wins over the variable.
    EXPECT_EQ(resolve(Path::kPortable), Path::kPortable);
  }
  setenv("COSIM_FASTPATH", "bogus", 1);
  EXPECT_THROW(resolve(Path::kAuto), InputError);
}

// ---------------------------------------------------------------------------
// Bad input

TEST(FastPathInput, RejectsBadShapesWithInputError) {
  Tensor in(DType::kInt8, {1, 4, 4, 3});
  Tensor f(DType::kInt8, {2, 3, 3, 3});
  Tensor bias(DType::kInt32, {2});
  ops::ConvParams p;
  p.output_multiplier = {quant::quantize_multiplier(0.01)};
  EXPECT_THROW(conv2d_fast(in, Tensor(DType::kInt8, {2, 3, 3, 4}), bias, p), InputError);
  EXPECT_THROW(conv2d_fast(in, f, Tensor(DType::kInt32, {3}), p), InputError);
  EXPECT_THROW(conv2d_fast(in, Tensor(DType::kInt32, {2, 3, 3, 3}), bias, p), InputError);
  EXPECT_THROW(conv2d_fast(Tensor(DType::kInt8, {4, 4, 3}), f, bias, p), InputError);
  ops::ConvParams many = p;
  many.output_multiplier.assign(3, quant::quantize_multiplier(0.01));
  EXPECT_THROW(conv2d_fast(in, f, bias, many), InputError);
  ops::ConvParams valid = p;
  valid.padding = ops::Padding::kValid;
  valid.dilation_h = 2;  // dilated kernel 5 > 4
  EXPECT_THROW(conv2d_fast(in, f, bias, valid), InputError);
  ops::ConvParams stride0 = p;
  stride0.stride_w = 0;
  EXPECT_THROW(conv2d_fast(in, f, bias, stride0), InputError);
  ops::ConvParams zp = p;
  zp.input_zero_point = 128;
  EXPECT_THROW(conv2d_fast(in, f, bias, zp), InputError);
  ops::ConvParams act = p;
  act.act = {10, -10};
  EXPECT_THROW(conv2d_fast(in, f, bias, act), InputError);
  EXPECT_THROW(gemm_s8(Tensor(DType::kInt8, {2, 3}), Tensor(DType::kInt8, {2, 4})), InputError);
}

}  // namespace
}  // namespace cosim::fastpath
