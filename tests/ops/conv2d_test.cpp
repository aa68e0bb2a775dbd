// CONV_2D / DEPTHWISE_CONV_2D reference semantics (spec/quantization.md s.1).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "common/error.hpp"
#include "ops/conv2d.hpp"
#include "ops_test_util.hpp"

namespace {

using namespace cosim;
using namespace cosim::ops;
using namespace opstest;  // i8, i32, values

// compute_padding(kSame, ...) against a hand-derived output size and split.
void expect_same_padding(int in, int k, int stride, int dilation, int out, int before, int after) {
  SCOPED_TRACE("in " + std::to_string(in) + " k " + std::to_string(k) + " s " + std::to_string(stride) + " d " +
               std::to_string(dilation));
  const PadAmount p = compute_padding(Padding::kSame, in, k, stride, dilation);
  EXPECT_EQ(p.out, out);
  EXPECT_EQ(p.before, before);
  EXPECT_EQ(p.after, after);
}

TEST(Padding, SameEvenAndOddTotals) {
  // in 5, k 3, s 2: out 3, total (3-1)*2 + 3 - 5 = 2 -> 1 / 1.
  expect_same_padding(5, 3, 2, 1, 3, 1, 1);
  // in 4, k 3, s 2: out 2, total 2 + 3 - 4 = 1 -> smaller half (0) before.
  expect_same_padding(4, 3, 2, 1, 2, 0, 1);
  // in 6, k 4, s 1: out 6, total 3 -> 1 / 2.
  expect_same_padding(6, 4, 1, 1, 6, 1, 2);
  // Total never negative: in 7, k 1, s 3: out 3, (3-1)*3 + 1 - 7 = 0.
  PadAmount p = compute_padding(Padding::kSame, 7, 1, 3, 1);
  EXPECT_EQ(p.out, 3);
  EXPECT_EQ(p.before + p.after, 0);
  p = compute_padding(Padding::kSame, 8, 1, 3, 1);  // (3-1)*3 + 1 - 8 = -1 -> 0
  EXPECT_EQ(p.before + p.after, 0);
}

TEST(Padding, SameWithDilation) {
  // in 7, k 3, d 2 (extent 5), s 1: out 7, total 6 + 5 - 7 = 4 -> 2 / 2.
  expect_same_padding(7, 3, 1, 2, 7, 2, 2);
  // in 6, k 2, d 3 (extent 4), s 2: out 3, total 4 + 4 - 6 = 2 -> 1 / 1.
  expect_same_padding(6, 2, 2, 3, 3, 1, 1);
}

TEST(Padding, ValidOutputSize) {
  EXPECT_EQ(compute_padding(Padding::kValid, 5, 3, 1, 1).out, 3);
  EXPECT_EQ(compute_padding(Padding::kValid, 7, 3, 2, 2).out, 2);  // ceil((7-4)/2) = 2
  EXPECT_EQ(compute_padding(Padding::kValid, 8, 3, 2, 1).out, 3);  // ceil(6/2) = 3
  EXPECT_EQ(compute_padding(Padding::kValid, 9, 3, 2, 1).out, 4);  // ceil(7/2) = 4
  EXPECT_EQ(compute_padding(Padding::kValid, 2, 3, 1, 1).out, 0);
  const PadAmount p = compute_padding(Padding::kValid, 9, 3, 2, 1);
  EXPECT_EQ(p.before + p.after, 0);
  EXPECT_THROW(compute_padding(Padding::kValid, 9, 3, 0, 1), InputError);
}

// Input 1x3x3x1 = 1..9, zp_in 1; two output channels:
// ch0 w = [[1,0],[-1,2]] bias 10 ; ch1 w = [[2,2],[2,2]] bias 0.
struct SmallCase {
  Tensor input = i8({1, 3, 3, 1}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  Tensor filter = i8({2, 2, 2, 1}, {1, 0, -1, 2, 2, 2, 2, 2});
  Tensor bias = i32({2}, {10, 0});
  ConvParams p;
  SmallCase() {
    p.input_zero_point = 1;
    p.output_zero_point = -3;
    p.output_multiplier = {{1 << 30, 0}, {1 << 30, -1}};  // 0.5 and 0.25
  }
};

TEST(Conv2d, HandComputedValid) {
  SmallCase c;
  c.p.padding = Padding::kValid;
  // x - zp = [[0,1,2],[3,4,5],[6,7,8]].
  // ch0: 10 + x00 - x10 + 2 x11 -> 15, 17, 21, 23 ; ch1: 2 * window sum -> 16, 24, 40, 48.
  const Tensor acc = conv2d_accumulators(c.input, c.filter, c.bias, c.p);
  ASSERT_EQ(acc.shape(), (std::vector<int64_t>{1, 2, 2, 2}));
  EXPECT_EQ(values<int32_t>(acc), (std::vector<int>{15, 16, 17, 24, 21, 40, 23, 48}));
  // ch0 * 0.5: 7.5, 8.5, 10.5, 11.5 -> 8, 9, 11, 12 (ties up) ; ch1 * 0.25: 4, 6, 10, 12 ; + zp -3.
  for (quant::Rounding r : {quant::Rounding::kDouble, quant::Rounding::kSingle}) {
    c.p.rounding = r;
    EXPECT_EQ(values<int8_t>(conv2d(c.input, c.filter, c.bias, c.p)), (std::vector<int>{5, 1, 6, 3, 8, 7, 9, 9}));
  }
}

TEST(Conv2d, HandComputedSameStride2OddPadding) {
  SmallCase c;
  c.p.padding = Padding::kSame;
  c.p.stride_h = c.p.stride_w = 2;
  // in 3, k 2, s 2: out 2, total 1 -> pad 0 before, 1 after (padding = zp, contributes 0).
  // ch0: (0,0) 15 ; (0,1) 10 + 2 - 5 = 7 ; (1,0) 10 + 6 = 16 ; (1,1) 10 + 8 = 18.
  // ch1: 2*(0+1+3+4) = 16 ; 2*(2+5) = 14 ; 2*(6+7) = 26 ; 2*8 = 16.
  const Tensor acc = conv2d_accumulators(c.input, c.filter, c.bias, c.p);
  EXPECT_EQ(values<int32_t>(acc), (std::vector<int>{15, 16, 7, 14, 16, 26, 18, 16}));
}

TEST(Conv2d, Dilation) {
  // 5x5 input x(i,j) = 5i + j, zp 0 ; 2x2 kernel [[1,2],[3,4]], dilation 2, VALID: 3x3 out.
  std::vector<int> xv(25);
  for (int i = 0; i < 25; ++i) xv[i] = i;
  ConvParams p;
  p.padding = Padding::kValid;
  p.dilation_h = p.dilation_w = 2;
  const Tensor acc = conv2d_accumulators(i8({1, 5, 5, 1}, xv), i8({1, 2, 2, 1}, {1, 2, 3, 4}), Tensor(), p);
  ASSERT_EQ(acc.shape(), (std::vector<int64_t>{1, 3, 3, 1}));
  EXPECT_EQ(acc.at<int32_t>({0, 0, 0, 0}), 0 + 2 * 2 + 3 * 10 + 4 * 12);    // 82
  EXPECT_EQ(acc.at<int32_t>({0, 1, 2, 0}), 7 + 2 * 9 + 3 * 17 + 4 * 19);    // 152
  EXPECT_EQ(acc.at<int32_t>({0, 2, 2, 0}), 12 + 2 * 14 + 3 * 22 + 4 * 24);  // 202
}

TEST(Conv2d, RoundingModesDifferByOneLsb) {
  // acc = 1 through a 1x1 conv ; real multiplier 0.375 = 0.75 * 2^-1.
  ConvParams p = make_conv_params(0.5f, 0, {0.75f}, 1.0f, 0, quant::Activation::kNone, quant::Rounding::kDouble);
  ASSERT_EQ(p.output_multiplier[0].multiplier, 3 << 29);
  ASSERT_EQ(p.output_multiplier[0].shift, -1);
  const Tensor x = i8({1, 1, 1, 1}, {1}), w = i8({1, 1, 1, 1}, {1});
  EXPECT_EQ(values<int8_t>(conv2d(x, w, Tensor(), p)), (std::vector<int>{1}));  // 0.75 -> 1, 0.5 -> 1
  p.rounding = quant::Rounding::kSingle;
  EXPECT_EQ(values<int8_t>(conv2d(x, w, Tensor(), p)), (std::vector<int>{0}));  // 0.375 -> 0
}

TEST(Conv2d, OutputZeroPointsAtInt8ExtremesAndActivation) {
  // acc = w * (x - zp_in) with zp_in = -128 and 127 ; multiplier 1/4.
  ConvParams p;
  p.output_multiplier = {{1 << 30, -1}};
  const Tensor w = i8({1, 1, 1, 1}, {2});
  p.input_zero_point = -128;
  p.output_zero_point = 127;
  // x = -128 -> acc 0 -> 127 ; x = 127 -> acc 510 -> 127.5 -> 128 + 127 -> 127.
  EXPECT_EQ(values<int8_t>(conv2d(i8({1, 1, 2, 1}, {-128, 127}), w, Tensor(), p)), (std::vector<int>{127, 127}));
  p.input_zero_point = 127;
  p.output_zero_point = -128;
  // x = -128 -> acc -510 -> -127.5 -> -128 (away) ; x = 127 -> 0 ; x = 102 -> -50 -> -12.5 -> -13 ;
  // all of them - 128 clamp to -128.
  EXPECT_EQ(values<int8_t>(conv2d(i8({1, 1, 3, 1}, {-128, 127, 102}), w, Tensor(), p)),
            (std::vector<int>{-128, -128, -128}));
  p.output_zero_point = 0;
  EXPECT_EQ(values<int8_t>(conv2d(i8({1, 1, 3, 1}, {-128, 127, 102}), w, Tensor(), p)),
            (std::vector<int>{-128, 0, -13}));
  // RELU6 with scale 0.1, zp 0 -> [0, 60].
  p.act = quant::activation_range(quant::Activation::kRelu6, 0.1f, 0);
  p.input_zero_point = 0;
  p.output_multiplier = {{1 << 30, 0}};  // 0.5
  EXPECT_EQ(values<int8_t>(conv2d(i8({1, 1, 3, 1}, {-100, 50, 127}), w, Tensor(), p)), (std::vector<int>{0, 50, 60}));
}

TEST(Conv2d, MakeConvParamsPerChannel) {
  const ConvParams p = make_conv_params(0.5f, -3, {0.25f, 0.125f, 3.0f}, 0.5f, 7, quant::Activation::kRelu,
                                        quant::Rounding::kSingle);
  ASSERT_EQ(p.output_multiplier.size(), 3u);
  EXPECT_EQ(p.output_multiplier[0].multiplier, 1 << 30);  // 0.25 = 0.5 * 2^-1
  EXPECT_EQ(p.output_multiplier[0].shift, -1);
  EXPECT_EQ(p.output_multiplier[1].shift, -2);             // 0.125
  EXPECT_EQ(p.output_multiplier[2].multiplier, 1610612736);  // 3.0 = 0.75 * 2^2
  EXPECT_EQ(p.output_multiplier[2].shift, 2);
  EXPECT_EQ(p.input_zero_point, -3);
  EXPECT_EQ(p.output_zero_point, 7);
  EXPECT_EQ(p.act.min, 7);
  EXPECT_EQ(p.act.max, 127);
  EXPECT_EQ(p.rounding, quant::Rounding::kSingle);
}

TEST(Conv2d, RejectsBadShapes) {
  ConvParams p;
  p.output_multiplier = {{1 << 30, 0}};
  const Tensor x = i8({1, 3, 3, 2}, std::vector<int>(18, 1));
  EXPECT_THROW(conv2d(x, i8({1, 2, 2, 3}, std::vector<int>(12, 1)), Tensor(), p), InputError);  // channels
  EXPECT_THROW(conv2d(x, i8({1, 2, 2, 2}, std::vector<int>(8, 1)), i32({2}, {0, 0}), p), InputError);  // bias
  p.padding = Padding::kValid;
  EXPECT_THROW(conv2d(x, i8({1, 4, 4, 2}, std::vector<int>(32, 1)), Tensor(), p), InputError);  // empty out
  p.padding = Padding::kSame;
  p.output_multiplier = {{1 << 30, 0}, {1 << 30, 0}};
  EXPECT_THROW(conv2d(x, i8({1, 2, 2, 2}, std::vector<int>(8, 1)), Tensor(), p), InputError);  // multipliers
}

TEST(DepthwiseConv2d, DepthMultiplier) {
  // Input channels (3, -2) ; dm 2 ; filter [1,1,1,4] = 1,2,3,4: out ch c*2+m uses input c.
  ConvParams p;
  p.depth_multiplier = 2;
  p.output_multiplier = {{1 << 30, 1}};  // 1.0
  const Tensor x = i8({1, 1, 1, 2}, {3, -2});
  const Tensor w = i8({1, 1, 1, 4}, {1, 2, 3, 4});
  EXPECT_EQ(values<int32_t>(depthwise_conv2d_accumulators(x, w, Tensor(), p)), (std::vector<int>{3, 6, -6, -8}));
  EXPECT_EQ(values<int8_t>(depthwise_conv2d(x, w, i32({4}, {1, 1, 1, 1}), p)), (std::vector<int>{4, 7, -5, -7}));
  // 2x2 spatial, 2x2 kernel VALID, zp_in 1: ch c sums w[k][c*2+m] * (x[k][c] - 1).
  const Tensor x2 = i8({1, 2, 2, 2}, {2, 1, 3, 1, 4, 1, 5, 0});  // ch0 - 1: 1,2,3,4 ; ch1 - 1: 0,0,0,-1
  const Tensor w2 = i8({1, 2, 2, 4}, {1, 1, 1, 1, 1, 2, 1, 2, 1, 3, 1, 3, 1, 4, 5, 6});
  p.padding = Padding::kValid;
  p.input_zero_point = 1;
  // oc0 = 1+2+3+4 = 10 ; oc1 = 1+4+9+16 = 30 ; oc2 = -5 ; oc3 = -6.
  EXPECT_EQ(values<int32_t>(depthwise_conv2d_accumulators(x2, w2, Tensor(), p)), (std::vector<int>{10, 30, -5, -6}));
  EXPECT_THROW(depthwise_conv2d(x2, i8({1, 2, 2, 3}, std::vector<int>(12, 1)), Tensor(), p), InputError);
}

// Independent reference: materialise the padded input (filled with zp_in),
// then a VALID strided, dilated convolution; the padding amounts come from
// the spec formula written out here.
std::vector<int64_t> ref_conv(const std::vector<int>& x, int N, int H, int W, int C, const std::vector<int>& w, int O,
                              int KH, int KW, const std::vector<int>& bias, bool same, int sh, int sw, int dh, int dw,
                              int zp, int& OH, int& OW) {
  auto pads = [&](int in, int k, int s, int d, int& out, int& before) {
    const int ext = (k - 1) * d + 1;
    if (same) {
      out = (in + s - 1) / s;
      const int total = std::max(0, (out - 1) * s + ext - in);
      before = total / 2;
    } else {
      out = in >= ext ? (in - ext) / s + 1 : 0;
      before = 0;
    }
  };
  int pt, pl;
  pads(H, KH, sh, dh, OH, pt);
  pads(W, KW, sw, dw, OW, pl);
  const int PH = H + 2 * KH * dh + 2 * sh, PW = W + 2 * KW * dw + 2 * sw;  // generous
  std::vector<int> padded(static_cast<std::size_t>(N) * PH * PW * C, zp);
  for (int n = 0; n < N; ++n)
    for (int i = 0; i < H; ++i)
      for (int j = 0; j < W; ++j)
        for (int c = 0; c < C; ++c) padded[((n * PH + i + pt) * PW + j + pl) * C + c] = x[((n * H + i) * W + j) * C + c];
  std::vector<int64_t> out;
  for (int n = 0; n < N; ++n)
    for (int oy = 0; oy < OH; ++oy)
      for (int ox = 0; ox < OW; ++ox)
        for (int o = 0; o < O; ++o) {
          int64_t s = bias.empty() ? 0 : bias[o];
          for (int ky = 0; ky < KH; ++ky)
            for (int kx = 0; kx < KW; ++kx)
              for (int c = 0; c < C; ++c)
                s += int64_t{w[((o * KH + ky) * KW + kx) * C + c]} *
                     (padded[((n * PH + oy * sh + ky * dh) * PW + ox * sw + kx * dw) * C + c] - zp);
          out.push_back(s);
        }
  return out;
}

TEST(Conv2d, RandomGeometriesMatchPaddedReference) {
  std::mt19937 rng(31);
  auto r = [&](int lo, int hi) { return lo + static_cast<int>(rng() % static_cast<unsigned>(hi - lo + 1)); };
  for (int iter = 0; iter < 150; ++iter) {
    const int N = r(1, 2), H = r(1, 9), W = r(1, 9), C = r(1, 4), O = r(1, 4), KH = r(1, 4), KW = r(1, 4);
    const int sh = r(1, 3), sw = r(1, 3), dh = r(1, 3), dw = r(1, 3);
    const bool same = rng() % 2;
    if (!same && (H < (KH - 1) * dh + 1 || W < (KW - 1) * dw + 1)) continue;
    const int zp = iter % 3 == 0 ? -128 : iter % 3 == 1 ? 127 : r(-128, 127);
    std::vector<int> x(static_cast<std::size_t>(N * H * W * C)), w(static_cast<std::size_t>(O * KH * KW * C));
    std::vector<int32_t> b(static_cast<std::size_t>(O));
    for (int& v : x) v = r(-128, 127);
    for (int& v : w) v = r(-128, 127);
    for (int32_t& v : b) v = r(-100000, 100000);
    ConvParams p;
    p.padding = same ? Padding::kSame : Padding::kValid;
    p.stride_h = sh;
    p.stride_w = sw;
    p.dilation_h = dh;
    p.dilation_w = dw;
    p.input_zero_point = zp;
    int OH = 0, OW = 0;
    const std::vector<int64_t> want =
        ref_conv(x, N, H, W, C, w, O, KH, KW, std::vector<int>(b.begin(), b.end()), same, sh, sw, dh, dw, zp, OH, OW);
    const Tensor acc = conv2d_accumulators(i8({N, H, W, C}, x), i8({O, KH, KW, C}, w), i32({O}, b), p);
    ASSERT_EQ(acc.shape(), (std::vector<int64_t>{N, OH, OW, O}));
    for (std::size_t i = 0; i < want.size(); ++i) ASSERT_EQ(acc.data<int32_t>()[i], want[i]) << "iter " << iter;
  }
}

TEST(DepthwiseConv2d, MatchesConvPerChannel) {
  // Depthwise with dm 1 on C channels == C independent single-channel convs.
  std::mt19937 rng(37);
  const int H = 6, W = 5, C = 3, K = 3;
  std::vector<int> x(H * W * C), w(K * K * C);
  for (int& v : x) v = static_cast<int>(rng() % 256) - 128;
  for (int& v : w) v = static_cast<int>(rng() % 256) - 128;
  ConvParams p;
  p.stride_h = 2;
  p.dilation_w = 2;
  p.input_zero_point = 5;
  const Tensor dw = depthwise_conv2d_accumulators(i8({1, H, W, C}, x), i8({1, K, K, C}, w), Tensor(), p);
  for (int c = 0; c < C; ++c) {
    std::vector<int> xc, wc;
    for (int i = 0; i < H * W; ++i) xc.push_back(x[i * C + c]);
    for (int k = 0; k < K * K; ++k) wc.push_back(w[k * C + c]);
    const Tensor one = conv2d_accumulators(i8({1, H, W, 1}, xc), i8({1, K, K, 1}, wc), Tensor(), p);
    ASSERT_EQ(one.dim(1), dw.dim(1));
    ASSERT_EQ(one.dim(2), dw.dim(2));
    for (int64_t i = 0; i < one.numel(); ++i) ASSERT_EQ(dw.data<int32_t>()[i * C + c], one.data<int32_t>()[i]);
  }
}

}  // namespace
