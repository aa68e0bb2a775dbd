// SAC convolution, float reference and compiler layout. The conv checks
// compare against a plain re-derivation from the spec formulas (int64,
// floor divisions instead of shifts, explicit 8-bit negation), written here.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "common/error.hpp"
#include "tf2/compiler.hpp"
#include "tf2/fmap_quant.hpp"
#include "tf2/packing.hpp"
#include "support/tf2_random_layer.hpp"
#include "tf2/reference.hpp"
#include "tf2/sac.hpp"

namespace cosim::tf2 {
namespace {

int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

// The low 32 bits of v as a two's-complement int32.
int64_t wrap32(int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v))); }

// Spec formula, straight: t = floor(acc * alpha / 2^20) kept in 32 bits,
// y = floor((floor((t + beta) / 2^14) + 1) / 2) with t + beta wrapping in 32 bits.
int spec_output(int32_t acc, int32_t alpha, int32_t beta, bool relu) {
  const int64_t t = wrap32(floor_div(static_cast<int64_t>(acc) * alpha, 1 << 20));
  int64_t y = floor_div(floor_div(wrap32(t + beta), 1 << 14) + 1, 2);
  y = std::min<int64_t>(127, std::max<int64_t>(-128, y));
  if (relu && y < 0) y = 0;
  return static_cast<int>(y);
}

std::vector<int8_t> spec_conv(const ConvLayer& L, const std::vector<int8_t>& in) {
  const int ho = (L.h_in + 2 * L.pad - L.k) / L.stride + 1;
  const int wo = (L.w_in + 2 * L.pad - L.k) / L.stride + 1;
  std::vector<int8_t> out;
  for (int o = 0; o < L.c_out; ++o) {
    for (int y = 0; y < ho; ++y) {
      for (int x = 0; x < wo; ++x) {
        int64_t acc = L.bias[o];
        for (int c = 0; c < L.c_in; ++c) {
          for (int ky = 0; ky < L.k; ++ky) {
            for (int kx = 0; kx < L.k; ++kx) {
              const int iy = y * L.stride - L.pad + ky, ix = x * L.stride - L.pad + kx;
              if (iy < 0 || ix < 0 || iy >= L.h_in || ix >= L.w_in) continue;
              const int code = L.codes[((o * L.c_in + c) * L.k + ky) * L.k + kx];
              if (code == 7) continue;
              const bool neg = code < 7;
              const int e = L.min_exp + (neg ? code : code - 8);
              // The loader: |w| < 1e-5 is zero; n = -e for e in 0 .. -14, else 0;
              // s in 8 bits, negative -> 0, bit 6 set -> zero, shift s mod 32.
              if (std::ldexp(1.0, e) < 1e-5) continue;
              const int n = (e <= 0 && e >= -14) ? -e : 0;
              // Per-channel Q: the weight's output channel o and input channel c.
              const int q_out = L.q_out_ch.empty() ? L.q_out : L.q_out_ch[o];
              const int q_in = L.q_in_ch.empty() ? L.q_in : L.q_in_ch[c];
              int s8 = (15 + q_out - q_in - n) & 0xFF;
              if (s8 >= 128) s8 = 0;  // negative as int8
              if (s8 >= 64) continue;
              int v = in[(c * L.h_in + iy) * L.w_in + ix];
              if (neg) v = (v == -128) ? -128 : -v;
              acc += static_cast<int64_t>(v) * (int64_t{1} << (s8 % 32));
            }
          }
        }
        // The datapath is 32 bits: reduce modulo 2^32.
        const int32_t acc32 = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(acc)));
        out.push_back(static_cast<int8_t>(spec_output(acc32, L.alpha[o], L.beta[o], L.relu)));
      }
    }
  }
  return out;
}

struct Shape { int ci, co, h, w, k, s, p; bool bn, relu; };

TEST(Tf2Conv, MatchesSpecFormulaAcrossShapes) {
  const Shape shapes[] = {
      {3, 5, 7, 6, 3, 1, 1, true, false},  {17, 4, 5, 5, 1, 1, 0, false, true},
      {5, 3, 9, 8, 5, 2, 2, true, true},   {20, 18, 6, 7, 3, 2, 1, false, false},
      {1, 1, 4, 4, 3, 1, 0, true, false},  {9, 2, 6, 5, 5, 1, 1, true, false},
      {4, 6, 5, 9, 1, 2, 0, true, true},
  };
  uint64_t seed = 11;
  for (bool per_channel : {false, true}) {
    for (const Shape& sh : shapes) {
      RandomLayerShape rs{sh.ci, sh.co, sh.h, sh.w, sh.k, sh.s, sh.p, sh.bn, sh.relu, per_channel};
      const ConvLayer L = random_layer(rs, seed);
      if (per_channel && sh.ci > 1) {
        ASSERT_FALSE(L.q_in_ch.empty());
      }
      const std::vector<int8_t> in = random_input(sh.ci, sh.h, sh.w, seed);
      const std::vector<int8_t> got = sac_conv2d(L, in);
      ASSERT_EQ(got, spec_conv(L, in)) << "shape k=" << sh.k << " stride=" << sh.s << " seed=" << seed
                                       << (per_channel ? " Q per channel" : "");
      ++seed;
    }
  }
}

// Random shapes against the spec formula: strides 1..3, padding up to the
// kernel, maps narrower than the kernel, channel counts that fill no vector
// (the golden's row-at-a-time accumulation must equal the formula's
// pixel-at-a-time sum bit for bit).
TEST(Tf2Conv, RandomShapesMatchTheSpecFormula) {
  std::mt19937 rng(20261128u);
  const auto pick = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  int checked = 0;
  for (int i = 0; i < 300; ++i) {
    const int k = pick(0, 2) * 2 + 1, s = pick(1, 3), p = pick(0, k / 2);
    const int h = pick(std::max(1, k - 2 * p), 12), w = pick(std::max(1, k - 2 * p), 12);
    RandomLayerShape rs{pick(1, 20), pick(1, 20), h, w, k, s, p, pick(0, 1) == 1, pick(0, 1) == 1, pick(0, 1) == 1};
    const uint64_t seed = 1000 + static_cast<uint64_t>(i);
    ConvLayer L;
    try {
      L = random_layer(rs, seed);
      L.validate();
    } catch (const InputError&) {
      continue;  // a shape the layer rules refuse
    }
    const std::vector<int8_t> in = random_input(rs.c_in, h, w, seed);
    ASSERT_EQ(sac_conv2d(L, in), spec_conv(L, in))
        << "case " << i << ": " << rs.c_in << "x" << h << "x" << w << " -> " << rs.c_out << ", k" << k << " s" << s
        << " p" << p;
    ++checked;
  }
  EXPECT_GT(checked, 200);
}

TEST(Tf2Conv, OutputSizeAndPadding) {
  ConvLayer L;
  L.c_in = 1; L.c_out = 1; L.h_in = 5; L.w_in = 4; L.k = 3; L.stride = 2; L.pad = 1;
  EXPECT_EQ(L.h_out(), 3);  // (5 + 2 - 3) / 2 + 1
  EXPECT_EQ(L.w_out(), 2);  // (4 + 2 - 3) / 2 + 1
  // One +2^0 weight at the kernel centre, shift 15 (q_in = q_out, min_exp -6):
  // the output is the input sampled at stride 2.
  L.min_exp = -6;
  L.codes.assign(9, 7);
  L.codes[4] = 14;
  L.bias = {0}; L.alpha = {1 << 20}; L.beta = {0};
  std::vector<int8_t> in(20);
  for (int i = 0; i < 20; ++i) in[i] = static_cast<int8_t>(i - 10);
  // rows 0, 2, 4 and cols 0, 2 of the 5x4 map.
  EXPECT_EQ(sac_conv2d(L, in), (std::vector<int8_t>{-10, -8, -2, 0, 6, 8}));
  L.pad = 3;
  EXPECT_THROW(sac_conv2d(L, in), InputError);
}

TEST(Tf2Conv, ShiftClampChangesTheResult) {
  // Weight 2^-6 between q_in 12 and q_out 0: exact shift 15 - 12 - 6 = -3,
  // clamped to 0, so x contributes x (not x / 8) to the accumulator.
  ConvLayer L;
  L.c_in = 1; L.c_out = 1; L.h_in = 1; L.w_in = 1; L.k = 1;
  L.min_exp = -6; L.codes = {8}; L.q_in = 12; L.q_out = 0;
  L.bias = {0}; L.alpha = {1 << 20}; L.beta = {0};
  EXPECT_EQ(sac_accumulate(L, {100}), (std::vector<int32_t>{100}));
}

TEST(Tf2Reference, ReportsCompressionAndQuantizationCost) {
  std::mt19937 rng(5);
  std::normal_distribution<float> n(0.0f, 1.0f);
  FloatConv f;
  f.c_in = 8; f.c_out = 6; f.h_in = 8; f.w_in = 8; f.k = 3; f.pad = 1;
  for (int i = 0; i < 6 * 8 * 9; ++i) f.weights.push_back(0.1f * n(rng));
  for (int i = 0; i < 6; ++i) {
    f.bias.push_back(0.05f * n(rng));
    f.bn_alpha.push_back(1.0f + 0.1f * n(rng));
    f.bn_beta.push_back(0.1f * n(rng));
  }
  std::vector<float> in(8 * 64);
  for (auto& v : in) v = n(rng);
  const LayerCost c = layer_cost(f, in);
  std::printf("tf2 cost 8x8x8 -> 6 k3: q_in %d q_out %d, INQ weights %.1f dB (max err %.3f), device path %.1f dB (max err %.3f)\n",
              c.q_in, c.q_out, c.compression.snr_db, c.compression.max_abs_err, c.total.snr_db, c.total.max_abs_err);
  // INQ keeps 7 magnitudes rounded at 1.5x: roughly 15-25 dB on Gaussians.
  EXPECT_GT(c.compression.snr_db, 10.0);
  EXPECT_LT(c.compression.snr_db, 40.0);
  EXPECT_GT(c.total.snr_db, 8.0);
  EXPECT_LE(c.total.snr_db, c.compression.snr_db + 1.0);
  EXPECT_GT(c.total.max_abs_err, 0.0);

  // Powers of two in, exact int8 inputs: compression costs nothing.
  FloatConv g = f;
  for (auto& w : g.weights) w = w >= 0 ? 0.125f : -0.0625f;
  EXPECT_TRUE(std::isinf(layer_cost(g, in).compression.snr_db));
}

TEST(Tf2Reference, FloatConvHandComputed) {
  FloatConv f;
  f.c_in = 1; f.c_out = 1; f.h_in = 2; f.w_in = 2; f.k = 1;
  f.weights = {2.0f}; f.bias = {1.0f}; f.bn_alpha = {0.5f}; f.bn_beta = {-1.0f}; f.relu = true;
  // relu(0.5 * (2x + 1) - 1) for x = -1, 0, 1, 2 -> 0, 0, 0.5, 1.5
  EXPECT_EQ(float_conv2d(f, {-1, 0, 1, 2}), (std::vector<float>{0.0f, 0.0f, 0.5f, 1.5f}));
}

// ---- compiler -------------------------------------------------------------

uint32_t rd32(const std::vector<uint8_t>& b, std::size_t at) {
  return b[at] | b[at + 1] << 8 | b[at + 2] << 16 | static_cast<uint32_t>(b[at + 3]) << 24;
}

TEST(Tf2Compiler, DescriptorAndImageLayout) {
  ConvLayer L = random_layer({18, 3, 4, 5, 3, 2, 1, true, true}, 3);
  L.q_in = 2; L.q_out = -1; L.min_exp = -9;
  L.q_in_ch.assign(18, 2);
  L.q_in_ch[17] = -3;  // one Q per input channel
  L.q_out_ch = {-1, 4, -7};
  const std::vector<int8_t> in = random_input(18, 4, 5, 3);
  const Program p = compile({L}, in);
  ASSERT_EQ(p.desc_count, 1u);
  const LayerRegions& r = p.layers[0];
  const std::size_t d = p.desc_addr;
  EXPECT_EQ(d % 64, 0u);
  EXPECT_EQ(rd32(p.dram, d + 0), 0x301u);  // conv, relu, batch-norm
  EXPECT_EQ(rd32(p.dram, d + 4), 18u | 3u << 16);
  EXPECT_EQ(rd32(p.dram, d + 8), 4u | 5u << 16);
  EXPECT_EQ(rd32(p.dram, d + 12), 2u | 3u << 16);  // (4+2-3)/2+1, (5+2-3)/2+1
  EXPECT_EQ(rd32(p.dram, d + 16), 3u | 2u << 8 | 1u << 16);
  EXPECT_EQ(rd32(p.dram, d + 20), 0xF7u);  // min_exp; the Qs are per channel
  EXPECT_EQ(rd32(p.dram, d + 24), r.in_addr);
  EXPECT_EQ(rd32(p.dram, d + 28), r.weight_addr);
  EXPECT_EQ(rd32(p.dram, d + 32), 0u);  // reserved
  EXPECT_EQ(rd32(p.dram, d + 36), r.out_addr);
  EXPECT_EQ(rd32(p.dram, d + 44), r.qin_addr);
  for (uint32_t a : {r.in_addr, r.weight_addr, r.out_addr, r.qin_addr}) EXPECT_EQ(a % 64, 0u);
  // Input-Q table: int8 per channel, 16 per word, zeros past c_in.
  EXPECT_EQ(p.dram[r.qin_addr + 0], 2u);
  EXPECT_EQ(p.dram[r.qin_addr + 17], 0xFDu);  // -3
  EXPECT_EQ(p.dram[r.qin_addr + 18], 0u);
  // Input (HC16W, 2 channel groups of 4 x 5 pixels): channel 17 (group 1,
  // lane 1) of pixel (y 2, x 3) at ((y*2 + group)*5 + x)*16 + lane.
  EXPECT_EQ(static_cast<int8_t>(p.dram[r.in_addr + ((2 * 2 + 1) * 5 + 3) * 16 + 1]), in[(17 * 4 + 2) * 5 + 3]);
  // Channel 2 (group 0) of the same pixel.
  EXPECT_EQ(static_cast<int8_t>(p.dram[r.in_addr + ((2 * 2 + 0) * 5 + 3) * 16 + 2]), in[(2 * 4 + 2) * 5 + 3]);
  // Padded channel 18..31 of group 1 are zero.
  EXPECT_EQ(p.dram[r.in_addr + ((0 * 2 + 1) * 5 + 0) * 16 + 2], 0);
  // Weight records, one per output channel: 16 bytes of parameters, then
  // its 18*3*3 = 162 codes in 6 beats (96 bytes, ceil(162 / 32)): 112 bytes.
  // Code i of channel o is nibble i % 4 of the 16-bit word i / 4 after the
  // parameters, little-endian.
  constexpr uint32_t kRecord = 112;
  EXPECT_EQ(r.weight_bytes, 3 * kRecord);
  for (std::size_t o = 0; o < 3; ++o) {
    for (std::size_t i : {std::size_t{0}, std::size_t{5}, std::size_t{128}, std::size_t{161}}) {
      const uint32_t at = r.weight_addr + static_cast<uint32_t>(o) * kRecord + 16 + 2 * static_cast<uint32_t>(i / 4);
      const uint16_t word = static_cast<uint16_t>(p.dram[at] | p.dram[at + 1] << 8);
      EXPECT_EQ((word >> (4 * (i % 4))) & 0xF, L.codes[o * 162 + i]) << o << " " << i;
    }
    // The last word's tail (codes 162, 163) is the zero code 0111, the rest
    // of the beat zero bytes.
    EXPECT_EQ(p.dram[r.weight_addr + o * kRecord + 16 + 81], 0x77);
    EXPECT_EQ(p.dram[r.weight_addr + o * kRecord + 16 + 82], 0);
    EXPECT_EQ(p.dram[r.weight_addr + o * kRecord + kRecord - 1], 0);
  }
  // Parameters: the record's first 16 bytes.
  EXPECT_EQ(static_cast<int32_t>(rd32(p.dram, r.weight_addr + kRecord * 2 + 0)), L.bias[2]);
  EXPECT_EQ(static_cast<int32_t>(rd32(p.dram, r.weight_addr + kRecord * 2 + 4)), L.alpha[2]);
  EXPECT_EQ(static_cast<int32_t>(rd32(p.dram, r.weight_addr + kRecord * 2 + 8)), L.beta[2]);
  EXPECT_EQ(rd32(p.dram, r.weight_addr + kRecord * 2 + 12), 0xF9u);  // Q_out -7, then three zero bytes
  EXPECT_EQ(rd32(p.dram, r.weight_addr + kRecord * 1 + 12), 4u);
  // Output region pre-filled.
  EXPECT_EQ(r.out_bytes, 1u * 2 * 3 * 16);
  EXPECT_EQ(p.dram[r.out_addr], kOutputFill);
  EXPECT_EQ(p.dram[r.out_addr + r.out_bytes - 1], kOutputFill);
}

TEST(Tf2Compiler, ChainsLayersThroughOutputRegions) {
  const std::vector<ConvLayer> ab = random_chain({{5, 7, 6, 6, 3, 1, 1, true, true}, {7, 4, 6, 6, 1, 2, 0, false, false}}, 1);
  const ConvLayer& a = ab[0];
  const ConvLayer& b = ab[1];
  const Program p = compile({a, b}, random_input(5, 6, 6, 1));
  ASSERT_EQ(p.layers.size(), 2u);
  EXPECT_EQ(p.layers[1].in_addr, p.layers[0].out_addr);
  EXPECT_EQ(p.layers[1].desc_addr, p.desc_addr + 64);
  EXPECT_THROW(compile({b, a}, random_input(7, 6, 6, 1)), InputError);  // shapes do not chain
  // A map has one Q per channel: the reader must use the writer's.
  ConvLayer b2 = b;
  b2.q_in_ch = a.output_q();
  b2.q_in_ch[3] += 1;
  try {
    compile({a, b2}, random_input(5, 6, 6, 1));
    FAIL() << "a Q mismatch between layers was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("input channel 3 has Q"), std::string::npos) << e.what();
  }
}

TEST(Tf2Compiler, RejectsLayersThatDoNotFit) {
  DeviceConfig cfg;
  cfg.feat_cache_words = 16;
  const ConvLayer L = random_layer({17, 2, 3, 3, 3, 1, 1, true, false}, 4);  // 2*3*3 = 18 words
  try {
    compile({L}, random_input(17, 3, 3, 4), cfg);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("feature-cache"), std::string::npos) << e.what();
  }
  cfg = DeviceConfig{};
  cfg.filter_nibbles = 100;  // 17*9 = 153
  EXPECT_THROW(compile({L}, random_input(17, 3, 3, 4), cfg), InputError);
  ConvLayer bad = L;
  bad.codes[3] = 15;
  EXPECT_THROW(compile({bad}, random_input(17, 3, 3, 4)), InputError);
  EXPECT_THROW(compile({L}, random_input(16, 3, 3, 4)), InputError);
}

TEST(Tf2Compiler, Hc16wRoundTrip) {
  const std::vector<int8_t> m = random_input(21, 3, 2, 9);
  const std::vector<uint8_t> b = to_hc16w(m, 21, 3, 2);
  EXPECT_EQ(b.size(), 2u * 3 * 2 * 16);
  EXPECT_EQ(from_hc16w(b.data(), 21, 3, 2), m);
}

}  // namespace
}  // namespace cosim::tf2
