// Layer-level rules: accumulation order, bias as the last step, skipped taps
// in backward, dW store-then-accumulate; plus the float reference distance.
// Hand derivations in the comments (P, Ep, D as in test_arith.cpp).
#include <gtest/gtest.h>

#include <cstdio>
#include <random>

#include "common/error.hpp"
#include "tinydnn/conv.hpp"
#include "tinydnn/program.hpp"

namespace cosim::tinydnn {
namespace {

std::vector<bf16> V(std::initializer_list<uint16_t> bits) {
  std::vector<bf16> v;
  for (uint16_t b : bits) v.push_back(bf16::from_bits(b));
  return v;
}

// Two products used below:
//   a = 0x3F81 * 0x3F81: P = 129*129 = 16641 (odd), Ep = 254
//   b = 0x3F80 * 0x4040 (3.0): P = 128*192 = 24576, Ep = 255
// a then b: D = 255-254+16 = 17, aligned = 16641*2^16 >> 17 = 8320 (8320.5
//   truncated), A = 24576+8320 = 32896 = 0x8080, E = 255; lz = 16,
//   N = 0x80800000, e = 255-16+17-127 = 129 -> 0x40808000.
// b then a: D = 254-255+16 = 15, aligned = 24576*2 = 49152, A = 16641+49152
//   = 65793 = 0x10101, E = 254; lz = 15, N = 0x80808000, e = 129
//   -> 0x40808080.
constexpr uint32_t kAThenB = 0x40808000u;
constexpr uint32_t kBThenA = 0x40808080u;

// One channel, one row: an input 1 x in_w under a kernel 1 x k_w.
ConvShape row(int in_w, int k_w) { return ConvShape{1, 1, in_w, 1, 1, k_w}; }

TEST(TinyDnnOrder, ProductsInEitherOrderDiffer) {
  const bf16 x81 = bf16::from_bits(0x3F81), one = bf16::from_bits(0x3F80), three = bf16::from_bits(0x4040);
  EXPECT_EQ(normalise(mac_step(mac_step(RunningSum{}, x81, x81), three, one)), kAThenB);
  EXPECT_EQ(normalise(mac_step(mac_step(RunningSum{}, three, one), x81, x81)), kBThenA);
}

TEST(TinyDnnOrder, BiasIsTheLastStep) {
  // 1x1 layer: x = 0x3F81, w = 0x3F81 (product a), bias = 3.0: the bias step
  // is w = bias, d = 1.0 (product b) after the products -> a then b.
  ConvShape s;
  const auto bias = V({0x4040});
  const auto y = forward(s, V({0x3F81}), V({0x3F81}), &bias);
  ASSERT_EQ(y.size(), 1u);
  EXPECT_EQ(y[0], kAThenB);
  EXPECT_NE(y[0], kBThenA);  // what bias-first would give
}

TEST(TinyDnnOrder, ForwardKxInnermostAscending) {
  // in 1x1x2, kernel 1x2: kx = 0 gives a (x 0x3F81 * w 0x3F81), kx = 1 gives
  // b (x 0x3F80 * w 0x4040) -> a then b.
  const ConvShape s = row(2, 2);
  const auto y = forward(s, V({0x3F81, 0x3F80}), V({0x3F81, 0x4040}));
  ASSERT_EQ(y.size(), 1u);
  EXPECT_EQ(y[0], kAThenB);
}

TEST(TinyDnnOrder, ForwardChannelsOutsideKernel) {
  // in 2x1x1 (two channels), kernel 1x1: ic = 0 first. ic0: x 0x3F81, w 0x3F81
  // (a); ic1: x 0x3F80, w 0x4040 (b) -> a then b. Swapping the channels gives
  // b then a.
  ConvShape s;
  s.in_c = 2;
  EXPECT_EQ(forward(s, V({0x3F81, 0x3F80}), V({0x3F81, 0x4040}))[0], kAThenB);
  EXPECT_EQ(forward(s, V({0x3F80, 0x3F81}), V({0x4040, 0x3F81}))[0], kBThenA);
}

TEST(TinyDnnOrder, BackwardRotatesKernelAndSkipsOutsideTaps) {
  // Layer in 1x1x3, kernel 1x2 -> delta 1x1x2. dx[ix] = sum over kx of
  // delta[ix-1+kx] * w[1-kx].
  const ConvShape s = row(3, 2);
  // dx[1]: kx=0 delta[0]*w[1] = 0x3F81*0x3F81 (a), kx=1 delta[1]*w[0] =
  //   0x3F80*0x4040 (b) -> a then b.
  // dx[0]: kx=0 delta[-1] skipped; kx=1 delta[0]*w[0] = 0x3F81*0x4040:
  //   P = 129*192 = 24768 = 0x60C0, Ep = 255; lz = 17, N = 0xC1800000,
  //   e = 255-17-110 = 128 -> {0, 0x80, 0x418000} = 0x40418000.
  // dx[2]: kx=0 delta[1]*w[1] = 0x3F80*0x3F81: P = 16512 = 0x4080, Ep = 254,
  //   lz = 17, N = 0x81000000, e = 127 -> 0x3F810000; kx=1 delta[2] skipped.
  const auto dx = backward(s, V({0x3F81, 0x3F80}), V({0x4040, 0x3F81}));
  ASSERT_EQ(dx.size(), 3u);
  EXPECT_EQ(dx[0], 0x40418000u);
  EXPECT_EQ(dx[1], kAThenB);
  EXPECT_EQ(dx[2], 0x3F810000u);
}

TEST(TinyDnnOrder, BackwardSkippedTapIsNotAZeroProduct) {
  // dx[0] with delta[0] = 0x0080 (2^-126), w[0] = 3.0: the only tap gives
  // P = 128*192 = 24576 = 0x6000, Ep = 1+128 = 129 -> lz = 17,
  // N = 0xC0000000, e = 129-17-110 = 2 -> 0x01400000.
  // Had the outside tap been a MAC with 0x0000 * w[1] (0x3F81): first
  // (0, 127, 16512), then D = 129-127+16 = 18, aligned = 16512*2^16>>18 =
  // 4128, A = 28704 = 0x7020 -> 0x01604000. So the skip is visible.
  const ConvShape s = row(3, 2);
  const auto dx = backward(s, V({0x0080, 0x3F80}), V({0x4040, 0x3F81}));
  EXPECT_EQ(dx[0], 0x01400000u);
}

TEST(TinyDnnOrder, WeightGradStoresFirstSampleThenAccumulates) {
  ConvShape s;  // 1x1 everything: dW = sum over samples of delta * x
  // Sample 0: 1.0*1.0 -> (0, 254, 16384) -> stored 0x3F800000.
  // Sample 1: a = 0x3F81*0x3F81 -> (0, 254, 16641). Destination path with
  //   Y = 1.0: D = 127-254+134 = 7, aligned = 16641*2^16 >> 7 = 8520192,
  //   A = 2^23 + 8520192 = 16908800 = 0x1020200, E = 245; lz = 7,
  //   N = 0x81010000, e = 245-7-110 = 128 -> 0x40010100.
  const auto dw = weight_grad(s, {V({0x3F80}), V({0x3F81})}, {V({0x3F80}), V({0x3F81})});
  ASSERT_EQ(dw.size(), 1u);
  EXPECT_EQ(dw[0], 0x40010100u);
  // One sample only: the stored value is the result.
  EXPECT_EQ(weight_grad(s, {V({0x3F80})}, {V({0x3F80})})[0], 0x3F800000u);
}

TEST(TinyDnnOrder, WeightGradSumsOverOyThenOx) {
  // in 1x1x2, kernel 1x1 -> delta 1x1x2. dW = delta[0]*x[0] + delta[1]*x[1]
  // in that order: a (0x3F81*0x3F81) then b (0x4040*0x3F80).
  const ConvShape s = row(2, 1);
  EXPECT_EQ(weight_grad(s, {V({0x3F81, 0x3F80})}, {V({0x3F81, 0x4040})})[0], kAThenB);
}

TEST(TinyDnnOrder, WeightGradFlushedStoredValuePassesLaterSample) {
  // Sample 0: 0x0080 * 0x0080: P = 16384, Ep = 2 -> e = 2-17+17-127 < 0
  //   -> stored +0.0 (exp 0). Sample 1: 1.0 * 1.0 passes unchanged -> 1.0.
  ConvShape s;
  EXPECT_EQ(weight_grad(s, {V({0x0080}), V({0x3F80})}, {V({0x0080}), V({0x3F80})})[0], 0x3F800000u);
}

TEST(TinyDnnShape, BadShapesAreInputErrors) {
  const ConvShape s = row(1, 3);
  EXPECT_THROW(forward(s, V({0}), V({0, 0, 0})), InputError);
  ConvShape ok;
  EXPECT_THROW(forward(ok, V({0, 0}), V({0})), InputError);
  ConvShape big;
  big.out_c = 17;
  EXPECT_THROW(map_layer(Op::kForward, big, false), InputError);
  ConvShape wide;
  wide.in_c = 200;
  wide.in_h = 5;
  wide.in_w = 5;
  EXPECT_THROW(map_layer(Op::kForward, wide, false), InputError);  // 5000 source elements > 4096
}

TEST(TinyDnnReference, DistanceToFloatIsSmallForBenignData) {
  // Values in [0.5, 2) with both signs: results stay well inside the range,
  // so only truncation separates the bf16 datapath from float.
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> mag(0.5f, 2.0f);
  std::bernoulli_distribution neg(0.5);
  auto rnd = [&](std::size_t n) {
    std::vector<bf16> v(n);
    for (auto& e : v) e = bf16::from_float(neg(rng) ? -mag(rng) : mag(rng));
    return v;
  };
  ConvShape s{3, 8, 8, 4, 3, 3};
  const auto x = rnd(3 * 8 * 8), w = rnd(4 * 3 * 9), b = rnd(4);
  const auto y = forward(s, x, w, &b);
  const ErrorStats st = relative_error(y, forward_ref(s, x, w, &b));
  std::printf("forward 3x8x8 k3 -> 4: max rel %.3g, mean rel %.3g over %lld\n", st.max_rel, st.mean_rel,
              static_cast<long long>(st.count));
  EXPECT_GT(st.count, 0);
  // Sums of 28 terms of magnitude ~1 can cancel; the mean stays small.
  EXPECT_LT(st.mean_rel, 1e-2);

  const auto delta = rnd(4 * 6 * 6);
  const auto dx = backward(s, delta, w);
  const ErrorStats sb = relative_error(dx, backward_ref(s, delta, w));
  std::printf("backward: max rel %.3g, mean rel %.3g\n", sb.max_rel, sb.mean_rel);
  EXPECT_LT(sb.mean_rel, 1e-2);

  const std::vector<std::vector<bf16>> xs{x, rnd(3 * 64)}, ds{delta, rnd(4 * 36)};
  const ErrorStats sw = relative_error(weight_grad(s, xs, ds), weight_grad_ref(s, xs, ds));
  std::printf("dW (2 samples): max rel %.3g, mean rel %.3g\n", sw.max_rel, sw.mean_rel);
  EXPECT_LT(sw.mean_rel, 1e-2);
}

}  // namespace
}  // namespace cosim::tinydnn
