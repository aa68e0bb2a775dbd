// TF2 RTL (Verilated tf2_top, default parameters) against the golden model,
// bit for bit, through the bare harness with a cycle-level AXI4 slave.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "common/error.hpp"
#include "dut/tf2_regs.hpp"
#include "tf2/tf2_rtl_util.hpp"

namespace cosim::tf2 {
namespace {

tb::Axi4SlaveConfig plain_axi() {
  tb::Axi4SlaveConfig a;
  a.data_bytes = 16;
  return a;
}

TEST(Tf2Rtl, RegistersReportConfiguration) {
  std::vector<uint8_t> dram(4096, 0);
  tb::tf2::Tf2Bare dut(dram);
  const DeviceConfig d = dut.device_config();
  EXPECT_EQ(d.n_pe, 16);
  EXPECT_EQ(d.feat_cache_words, DeviceConfig{}.feat_cache_words);
  EXPECT_EQ(d.filter_nibbles, DeviceConfig{}.filter_nibbles);
  EXPECT_EQ(dut.read_reg(regs::kConfig), 16u | 5u << 8 | 3u << 16 | 7u << 24);
  dut.write_reg(regs::kDescAddr, 0x1240);
  EXPECT_EQ(dut.read_reg(regs::kDescAddr), 0x1240u);
  // No descriptors: done at once, no error.
  const tb::tf2::Tf2RunResult r = dut.run(0x40, 0);
  EXPECT_TRUE(r.done);
  EXPECT_FALSE(r.error);
}

TEST(Tf2Rtl, SmallLayerBitExact) {
  const ConvLayer L = random_layer({16, 16, 6, 6, 3, 1, 1, true, false}, 1);
  const RtlRun r = run_on_rtl({L}, random_input(16, 6, 6, 1), plain_axi());
  EXPECT_TRUE(r.result.done);
  EXPECT_FALSE(r.result.error) << std::hex << r.result.err_info;
  EXPECT_EQ(r.mismatches, 0u) << r.first_mismatch;
  EXPECT_TRUE(r.protocol_errors.empty()) << r.protocol_errors.front();
}

TEST(Tf2Rtl, ChainOfLayersInOneRun) {
  const std::vector<ConvLayer> layers = random_chain(
      {{3, 20, 9, 9, 3, 1, 1, true, true}, {20, 17, 9, 9, 5, 2, 2, false, true, true}, {17, 9, 5, 5, 1, 1, 0, true, false}}, 21);
  tb::Axi4SlaveConfig axi = plain_axi();
  axi.read_latency = 7;
  axi.stall_probability = 0.2;
  axi.seed = 3;
  const RtlRun r = run_on_rtl(layers, random_input(3, 9, 9, 21), axi);
  EXPECT_TRUE(r.result.done);
  EXPECT_FALSE(r.result.error);
  EXPECT_EQ(r.mismatches, 0u) << r.first_mismatch;
  EXPECT_TRUE(r.protocol_errors.empty());
}

// At least 100 random layers, bit-exact under random DRAM latency and stalls.
TEST(Tf2Rtl, RandomLayersBitExact) {
  int n = 120;
  if (const char* e = std::getenv("TF2_SWEEP")) n = std::atoi(e);
  int k_seen[6] = {}, s_seen[3] = {}, bn_seen[2] = {}, odd_c = 0;
  uint64_t cycles = 0, busy = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i) {
    const SweepCase c = sweep_case(i, 1, 48, 12);
    const ConvLayer L = random_layer(c.shape, c.seed);
    const RtlRun r = run_on_rtl({L}, random_input(L.c_in, L.h_in, L.w_in, c.seed), c.axi);
    ASSERT_TRUE(r.result.done) << describe(c);
    ASSERT_FALSE(r.result.error) << describe(c) << " err_info " << std::hex << r.result.err_info;
    ASSERT_EQ(r.mismatches, 0u) << describe(c) << ": " << r.first_mismatch;
    ASSERT_TRUE(r.protocol_errors.empty()) << describe(c) << ": " << r.protocol_errors.front();
    cycles += r.result.cycles;
    busy += r.result.pe_busy;
    ++k_seen[L.k];
    ++s_seen[L.stride];
    ++bn_seen[L.batch_norm];
    odd_c += (L.c_in % 16 != 0) || (L.c_out % 16 != 0);
  }
  const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("tf2 sweep: %d layers, %llu cycles (PE array busy %.1f%%), %.2f s, %.0f kHz incl. compile+golden\n", n,
              static_cast<unsigned long long>(cycles), 100.0 * busy / std::max<uint64_t>(cycles, 1), sec,
              cycles / sec / 1e3);
  if (n >= 100) {
    EXPECT_GT(k_seen[1], 0); EXPECT_GT(k_seen[3], 0); EXPECT_GT(k_seen[5], 0);
    EXPECT_GT(s_seen[1], 0); EXPECT_GT(s_seen[2], 0);
    EXPECT_GT(bn_seen[0], 0); EXPECT_GT(bn_seen[1], 0);
    EXPECT_GT(odd_c, n / 2);
  }
}

TEST(Tf2Rtl, InvalidWeightCodeRaisesErrorWithoutHang) {
  const ConvLayer L = random_layer({8, 4, 4, 4, 3, 1, 1, true, false}, 5);
  Program p = compile({L}, random_input(8, 4, 4, 5));
  // Code 28 of output channel 1 becomes 1111. A record is 16 bytes of
  // parameters and ceil(8*3*3 / 32) = 3 beats of codes (64 bytes): record 1
  // starts at 64, its codes at 80, code 28 is the low nibble of byte 14.
  p.dram[p.layers[0].weight_addr + 64 + 16 + 14] |= 0x0F;
  tb::tf2::Tf2BareConfig cfg;
  cfg.axi = plain_axi();
  cfg.max_cycles = 200000;
  tb::tf2::Tf2Bare dut(p.dram, cfg);
  const tb::tf2::Tf2RunResult r = dut.run(p);
  EXPECT_TRUE(r.done);
  EXPECT_TRUE(r.error);
  EXPECT_EQ(r.err_info & 0xF, 1u);  // ErrCode
}

TEST(Tf2Rtl, CodeOutsideTheLayerIsNotChecked) {
  // 1111 in the padding nibbles after the last code of a record must not
  // raise an error: the tail of the last 16-bit word and the zero bytes up
  // to the end of the record's code beat.
  const ConvLayer L = random_layer({3, 1, 4, 4, 1, 1, 0, false, false}, 6);  // 3 codes
  Program p = compile({L}, random_input(3, 4, 4, 6));
  p.dram[p.layers[0].weight_addr + 16 + 1] |= 0xF0;   // nibble 3
  p.dram[p.layers[0].weight_addr + 16 + 15] |= 0xFF;  // nibbles 30 and 31
  tb::tf2::Tf2Bare dut(p.dram);
  const tb::tf2::Tf2RunResult r = dut.run(p);
  EXPECT_TRUE(r.done);
  EXPECT_FALSE(r.error);
}

TEST(Tf2Rtl, BadDescriptorIsRejected) {
  const ConvLayer L = random_layer({4, 4, 5, 5, 3, 1, 1, true, false}, 7);
  Program p = compile({L}, random_input(4, 5, 5, 7));
  p.dram[p.desc_addr + 16] = 9;  // k = 9 > MaxK
  tb::tf2::Tf2Bare dut(p.dram);
  tb::tf2::Tf2RunResult r = dut.run(p);
  EXPECT_TRUE(r.done);
  EXPECT_TRUE(r.error);
  EXPECT_EQ(r.err_info & 0xF, 2u);  // ErrDesc
  EXPECT_EQ(p.dram[p.layers[0].out_addr], kOutputFill);  // nothing written
}

// The original loader's shift rules on chip (spec/tf2.md), against the golden
// model whose rules Tf2Shift.* check by hand: shifts of 31, 32 and above
// (the PE uses s & 31), s >= 64 (bit 6: zero), exponents above 0 and below
// -14 (n = 0), weights below 1e-5 (zero), and a negative s (0).
TEST(Tf2Rtl, LoaderShiftRulesOnChip) {
  struct Case { int min_exp, q_in, q_out; const char* what; };
  const Case cases[] = {
      {-6, 0, 20, "q_out - q_in = 20: shifts 29 .. 35"},
      {-6, 0, 52, "shifts 61 .. 67: bit 6 set -> zero from 64"},
      {0, 0, 10, "exponents 0 .. 6: above 0 act as 2^0"},
      {-20, 0, 0, "exponents -20 .. -14: zero below 1e-5, 2^0 at -16 / -15"},
      {-3, 20, 0, "negative shifts clamp to 0"},
      {-6, -100, 20, "15 + 20 + 100 = 135 wraps in 8 bits -> negative -> 0"},
  };
  int k = 0;
  for (const Case& c : cases) {
    ConvLayer L = random_layer({16, 16, 4, 4, 3, 1, 1, true, false}, 300 + k);
    L.min_exp = c.min_exp;
    L.q_in = c.q_in;
    L.q_out = c.q_out;
    const RtlRun r = run_on_rtl({L}, random_input(L.c_in, L.h_in, L.w_in, 400 + k), plain_axi());
    EXPECT_FALSE(r.result.error) << c.what;
    EXPECT_EQ(r.mismatches, 0u) << c.what << ": " << r.first_mismatch;
    ++k;
  }
}

// One Q per channel (spec/tf2.md): every input channel of a 20-channel map
// (two channel groups, so both words of the input-Q table) and every output
// channel has its own Q, spread over 9 values, some shifts past 31. The
// golden model with the layer's shared Q gives a different output, so a DUT
// that used one Q per map (or channel 0's for a whole vector) would fail.
TEST(Tf2Rtl, PerChannelQOnChip) {
  ConvLayer L = random_layer({20, 18, 5, 5, 3, 1, 1, true, false}, 77);
  L.min_exp = -8;
  L.q_in = 0;
  L.q_out = 4;
  for (int c = 0; c < L.c_in; ++c) L.q_in_ch.push_back(c % 9 - 4);
  for (int o = 0; o < L.c_out; ++o) L.q_out_ch.push_back(7 - (o * 5) % 9);
  const std::vector<int8_t> in = random_input(L.c_in, L.h_in, L.w_in, 78);
  ConvLayer shared = L;
  shared.q_in_ch.clear();
  shared.q_out_ch.clear();
  ASSERT_NE(sac_conv2d(L, in), sac_conv2d(shared, in)) << "the per-channel Qs must matter for this check";
  for (double stall : {0.0, 0.2}) {
    tb::Axi4SlaveConfig axi = plain_axi();
    axi.stall_probability = stall;
    axi.read_latency = 5;
    const RtlRun r = run_on_rtl({L}, in, axi);
    EXPECT_TRUE(r.result.done);
    EXPECT_FALSE(r.result.error);
    EXPECT_EQ(r.mismatches, 0u) << "stall " << stall << ": " << r.first_mismatch;
  }
}

TEST(Tf2Rtl, MemoryErrorIsReported) {
  const ConvLayer L = random_layer({4, 4, 5, 5, 3, 1, 1, true, false}, 8);
  const Program p = compile({L}, random_input(4, 5, 5, 8));
  // The input map's address (descriptor word 6) beyond the image: SLVERR.
  EXPECT_EQ(error_code_with_descriptor_word(p, 24, 0x00F00000), 3u);  // ErrAxiRead
}

// ResNet-8-sized layers: bit-exact, and the figures the report quotes
// (cycles, share of the PE array's shift-adds doing useful work, sim speed).
TEST(Tf2Rtl, ResNetSizedLayers) {
  const RandomLayerShape shapes[] = {
      {16, 16, 32, 32, 3, 1, 1, true, true},
      {32, 32, 16, 16, 3, 1, 1, true, true},
      {64, 64, 8, 8, 3, 1, 1, true, true},
      {32, 64, 16, 16, 1, 2, 0, true, false},
      {64, 64, 32, 32, 3, 1, 1, true, true},  // long enough to time the simulator
  };
  uint64_t seed = 40;
  for (const RandomLayerShape& sh : shapes) {
    const ConvLayer L = random_layer(sh, seed);
    tb::Axi4SlaveConfig axi = plain_axi();
    axi.read_latency = 10;
    axi.write_latency = 10;
    const auto t0 = std::chrono::steady_clock::now();
    const RtlRun r = run_on_rtl({L}, random_input(L.c_in, L.h_in, L.w_in, seed), axi);
    const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_TRUE(r.result.done);
    ASSERT_FALSE(r.result.error);
    ASSERT_EQ(r.mismatches, 0u) << r.first_mismatch;
    const double sacs = double(L.c_out) * L.c_in * L.k * L.k * L.h_out() * L.w_out();
    const double slots = double(r.result.cycles) * 16 * 16 * (L.k == 1 ? 7 : 15);
    std::printf("tf2 %2dx%2dx%2d -> %2d k%d s%d: %7llu cycles, PE busy %5.1f%%, useful shift-adds %5.1f%%, %.0f kHz\n",
                L.c_in, L.h_in, L.w_in, L.c_out, L.k, L.stride, static_cast<unsigned long long>(r.result.cycles),
                100.0 * r.result.pe_busy / r.result.cycles, 100.0 * sacs / slots, r.result.cycles / r.dut_seconds / 1e3);
    (void)sec;
    ++seed;
  }
}

// Hand-computed DUT outputs: the 8-bit negation of -128 and the shift clamp.
TEST(Tf2Rtl, Minus128AndShiftClampOnChip) {
  ConvLayer L;
  L.c_in = 1; L.c_out = 3; L.h_in = 1; L.w_in = 1; L.k = 1;
  // min_exp -10, q_in 8, q_out 0: the exact shift 15 + 0 - 8 - 10 = -3 clamps to 0.
  L.min_exp = -10; L.q_in = 8; L.q_out = 0;
  L.codes = {0, 8, 1};  // -2^-10, +2^-10, -2^-9 (shift -2 -> 0)
  L.bias = {0, 0, 0};
  L.alpha = {1 << 30, 1 << 30, 1 << 30};  // t = acc * 1024
  L.beta = {0, 0, 0};
  Program p = compile({L}, {-128});
  tb::tf2::Tf2Bare dut(p.dram);
  ASSERT_FALSE(dut.run(p).error);
  // acc = -128 in every channel ( -(-128) stays -128; no right shift):
  // t = -131072 -> y = -131072 / 32768 = -4.
  for (int o = 0; o < 3; ++o) EXPECT_EQ(static_cast<int8_t>(p.dram[p.layers[0].out_addr + o]), -4) << o;
}

// Hand-computed requantization on chip: all weights zero, so acc = bias.
// Also with requant: saturate (ConvLayer::wide_requant), where t and t +
// beta keep every bit and only y saturates: the rows that wrap in 32 bits
// give the values in their last two fields there, the others the same.
TEST(Tf2Rtl, RequantRoundingSaturationReluOnChip) {
  const int32_t kOne = 1 << 20;
  constexpr int kSame = 1000;
  struct Row { int32_t bias, alpha, beta; int expect, expect_relu, wide = kSame, wide_relu = kSame; };
  const Row rows[] = {
      {3 << 14, kOne, 0, 2, 2},                 // 1.5 -> 2
      {-(3 << 14), kOne, 0, -1, 0},             // -1.5 -> -1
      {1 << 14, kOne, 0, 1, 1},                 // 0.5 -> 1
      {-(1 << 14), kOne, 0, 0, 0},              // -0.5 -> 0
      {(1 << 14) - 1, kOne, 0, 0, 0},           // just below 0.5
      {1 << 15, kOne, 3 << 14, 3, 3},           // 2.5 via beta -> 3
      {-(1 << 16), kOne, -(1 << 14), -2, 0},    // -2.5 -> -2
      {(127 << 15) + (1 << 14), kOne, 0, 127, 127},  // 127.5 -> 128 -> 127
      {-(129 << 15), kOne, 0, -128, 0},         // saturate low
      {10 << 15, 3 << 19, 0, 15, 15},           // alpha 1.5
      {-1, 1, 1 << 14, 0, 0},                   // t = -1 (arithmetic >> 20)
      // t = (acc * alpha) >> 20 kept in 32 bits, t + beta wrapping (spec/tf2.md):
      // (wide: 2^32 etc. saturate to 127, -2^32 to -128, 2^32 - 2 to 127)
      {1 << 30, 1 << 22, 0, 0, 0, 127, 127},              // 2^32 -> low 32 bits 0
      {(1 << 30) + (5 << 13), 1 << 22, 0, 5, 5, 127, 127},  // 2^32 + 5 * 2^15 -> 5 * 2^15
      {1 << 29, 1 << 22, 0, -128, 0, 127, 127},           // 2^31 -> INT32_MIN
      {-(5 << 15), kOne, 0, -5, 0},
      {INT32_MIN, kOne, INT32_MIN, 0, 0, -128, 0},        // t + beta = -2^32 -> 0
      {INT32_MAX, kOne, INT32_MAX, 0, 0, 127, 127},       // t + beta wraps to -2 -> 0
      {INT32_MAX, kOne, 0, 127, 127},           // saturates
      {1 << 28, 1 << 22, 0, 127, 127},          // t = 2^30 saturates
      {7 << 15, -kOne, 0, -7, 0},               // negative alpha
      {0, kOne, -(40 << 15), -40, 0},
  };
  const int n = static_cast<int>(sizeof(rows) / sizeof(rows[0]));
  for (bool wide : {false, true}) {
    for (bool relu : {false, true}) {
      ConvLayer L;
      L.c_in = 1; L.c_out = n; L.h_in = 1; L.w_in = 2; L.k = 1;
      L.codes.assign(n, 7);
      L.relu = relu;
      L.wide_requant = wide;
      for (const Row& r : rows) { L.bias.push_back(r.bias); L.alpha.push_back(r.alpha); L.beta.push_back(r.beta); }
      Program p = compile({L}, {5, -9});
      tb::tf2::Tf2Bare dut(p.dram);
      ASSERT_FALSE(dut.run(p).error);
      for (int o = 0; o < n; ++o) {
        const Row& r = rows[o];
        int expect = relu ? r.expect_relu : r.expect;
        if (wide && r.wide != kSame) expect = relu ? r.wide_relu : r.wide;
        for (int x = 0; x < 2; ++x) {
          // HC16W, one row (y 0): ((0*CG + o/16)*2 + x)*16 + o%16.
          const uint8_t got = p.dram[p.layers[0].out_addr + ((o / 16) * 2 + x) * 16 + o % 16];
          EXPECT_EQ(static_cast<int8_t>(got), expect) << "channel " << o << " relu " << relu << " wide " << wide;
        }
      }
    }
  }
}

// Nibble order on chip: 1x1 conv, one input channel x = 127, six output
// channels with codes 8..13 (+2^(min_exp+0..5)). min_exp -7, q_in = q_out = 0:
// shift = 15 - 7 + index = 8 + index, acc = 127 << (8 + index), y = round
// half up of acc / 2^15 = 0.99 * 2^index -> 1, 2, 4, 8, 16, 32. Each channel
// is a 32-byte record: 16 bytes of parameters, then its one code as the
// least significant nibble of the word 0x777c (tail padded with the zero
// code), little endian in DRAM.
TEST(Tf2Rtl, NibbleOrderOnChip) {
  ConvLayer L;
  L.c_in = 1; L.c_out = 6; L.h_in = 1; L.w_in = 1; L.k = 1;
  L.min_exp = -7; L.q_in = 0; L.q_out = 0;
  L.codes = {8, 9, 10, 11, 12, 13};
  L.bias.assign(6, 0);
  L.alpha.assign(6, 1 << 20);
  L.beta.assign(6, 0);
  Program p = compile({L}, {127});
  for (int o = 0; o < 6; ++o) {
    const uint8_t* w = &p.dram[p.layers[0].weight_addr + 32 * o + 16];
    EXPECT_EQ(std::vector<uint8_t>(w, w + 4), (std::vector<uint8_t>{static_cast<uint8_t>(0x78 + o), 0x77, 0, 0})) << o;
  }
  tb::tf2::Tf2Bare dut(p.dram);
  ASSERT_FALSE(dut.run(p).error);
  const int expect[6] = {1, 2, 4, 8, 16, 32};
  for (int o = 0; o < 6; ++o) EXPECT_EQ(static_cast<int8_t>(p.dram[p.layers[0].out_addr + o]), expect[o]) << o;
}

TEST(Tf2Rtl, CycleBudgetExceededThrowsTimeout) {
  const ConvLayer L = random_layer({8, 8, 6, 6, 3, 1, 1, true, false}, 9);
  Program p = compile({L}, random_input(8, 6, 6, 9));
  tb::tf2::Tf2BareConfig cfg;
  cfg.axi = plain_axi();
  cfg.max_cycles = 20;
  tb::tf2::Tf2Bare dut(p.dram, cfg);
  EXPECT_THROW(dut.run(p), TimeoutError);
  tb::tf2::Tf2BareConfig narrow;
  narrow.axi.data_bytes = 8;
  EXPECT_THROW(tb::tf2::Tf2Bare(p.dram, narrow), InputError);
}

}  // namespace
}  // namespace cosim::tf2
