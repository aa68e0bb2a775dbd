// RTL vs golden, bit for bit: random layers per mode (forward, backward, dW
// over mini-batches) through the Verilated accelerator under random TVALID /
// TREADY stalls, with the AXI-Stream protocol checker on both streams.
// Built twice: the default run (small layers) and TINYDNN_REGRESS (CTest
// label "regress": more and bigger layers).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>
#include <sstream>
#include <string>

#include "common/error.hpp"
#include "support/scratch_dir.hpp"
#include "support/sweep.hpp"
#include "tinydnn/conv.hpp"
#include "tinydnn/program.hpp"
#include "tinydnn/bf16_gen.hpp"
#include "tinydnn/core/tinydnn_bare.hpp"

namespace cosim::tinydnn {
namespace {

using cosim::tb::tinydnn::BareOptions;
using cosim::tb::tinydnn::TinyDnnBare;

// The regress build gets its own suite name so CTest names stay unique, and
// more and larger layers (each limit below: regress ? regress value : default).
#ifdef TINYDNN_REGRESS
#define RTL_SUITE TinyDnnRtlRegress
constexpr bool kRegress = true;
#else
#define RTL_SUITE TinyDnnRtl
constexpr bool kRegress = false;
#endif
constexpr int kDefaultLayers = kRegress ? 1000 : 100;
constexpr int kMaxC = kRegress ? 6 : 3;
constexpr int kMaxHW = kRegress ? 12 : 6;
constexpr int kMaxK = kRegress ? 5 : 3;
constexpr int kMaxBatch = kRegress ? 5 : 3;
constexpr uint64_t kCycleBudget = kRegress ? 20'000'000 : 1'000'000;
constexpr int kLayersPerHarness = 10;
// COSIM_SWEEP_COUNT / COSIM_SWEEP_SEED (tests/support/sweep.hpp) pick a CI slice.
const int kLayers = cosim::testing::sweep_count(kDefaultLayers);

// The RTL suite's mix: 70 % ordinary values up to 8, 15 % raw patterns.
class Gen : public testgen::Bf16Gen {
 public:
  explicit Gen(uint64_t seed) : Bf16Gen(seed, {70, 15, 8.0f, true}) {}
  ConvShape shape() {
    ConvShape s;
    s.in_c = uni(1, kMaxC);
    s.in_h = uni(1, kMaxHW);
    s.in_w = uni(1, kMaxHW);
    s.k_h = uni(1, std::min(kMaxK, s.in_h));
    s.k_w = uni(1, std::min(kMaxK, s.in_w));
    s.out_c = uni(1, kCores);
    return s;
  }
  BareOptions options(int group) {
    static const double stall[] = {0.0, 0.3, 0.6, 0.9};
    BareOptions o;
    o.seed = raw();
    o.source_stall = stall[group % 4];
    o.sink_stall = stall[(group / 2 + 1) % 4];
    // These layers take well under 10^5 cycles even at 90 % stalls: a hung
    // DUT is reported as a test failure within seconds (the mutation gate
    // counts only hangs the test itself reports), not after 2*10^7 cycles.
    o.cycle_budget = kCycleBudget;
    return o;
  }

 private:
};

std::string describe(const ConvShape& s, int batch, bool bias) {
  std::ostringstream o;
  o << "in " << s.in_c << "x" << s.in_h << "x" << s.in_w << ", k " << s.k_h << "x" << s.k_w << ", out_c "
    << s.out_c << ", batch " << batch << (bias ? ", bias" : "");
  return o.str();
}

// Element-wise compare; the first mismatch names its index and both values.
::testing::AssertionResult same_bits(const std::vector<uint32_t>& got, const std::vector<uint32_t>& want) {
  if (got.size() != want.size())
    return ::testing::AssertionFailure() << "size " << got.size() << " != " << want.size();
  int bad = 0;
  std::ostringstream o;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i] && bad++ < 5) o << " [" << i << "] rtl 0x" << std::hex << got[i] << " golden 0x" << want[i] << std::dec;
  if (bad) return ::testing::AssertionFailure() << bad << " of " << got.size() << " differ:" << o.str();
  return ::testing::AssertionSuccess();
}

// Random layers of one data direction through the RTL, every sample checked
// bit by bit against the reference (forward, or backward for the deltas).
// `reshape` adjusts the drawn shape; the MACs and cycles the hardware counted
// add up in *macs and *cycles.
template <class Reshape>
void expect_random_layers_bit_exact(Op op, uint64_t seed, int options_offset, Reshape reshape, uint64_t* macs,
                                    uint64_t* cycles) {
  const bool fwd = op == Op::kForward;
  Gen g(seed);
  std::unique_ptr<TinyDnnBare> hw;
  for (int n = 0; n < kLayers; ++n) {
    if (n % kLayersPerHarness == 0) hw = std::make_unique<TinyDnnBare>(g.options(n / kLayersPerHarness + options_offset));
    ConvShape s = g.shape();
    reshape(g, s);
    const bool use_bias = g.coin(0.5);
    const int batch = g.uni(1, kMaxBatch);
    const auto w = g.values(std::size_t(s.out_c) * s.in_c * s.k_h * s.k_w);
    const auto b = g.values(fwd ? s.out_c : s.in_c);  // one per channel the layer writes
    const HwLayer l = map_layer(op, s, use_bias);
    hw->load_weights(l, weight_elements(l, s, w));
    if (use_bias) hw->load_bias(l, bias_elements(b));
    std::vector<std::vector<bf16>> ins;
    std::vector<std::vector<uint16_t>> samples;
    for (int k = 0; k < batch; ++k) {
      ins.push_back(fwd ? g.values(std::size_t(s.in_c) * s.in_h * s.in_w)
                        : g.values(std::size_t(s.out_c) * s.out_h() * s.out_w()));
      samples.push_back(sample_elements(l, ins.back()));
    }
    const auto out = hw->run(l, samples, false);
    *macs += hw->last_command_macs();
    *cycles += hw->last_command_cycles();
    ASSERT_EQ(out.size(), std::size_t(batch));
    for (int k = 0; k < batch; ++k) {
      const auto want = fwd ? forward(s, ins[k], w, use_bias ? &b : nullptr)
                            : backward(s, ins[k], w, use_bias ? &b : nullptr);
      ASSERT_TRUE(same_bits(out[k], want)) << "layer " << n << " sample " << k << ": " << describe(s, batch, use_bias);
    }
  }
}

TEST(RTL_SUITE, ForwardRandomLayersBitExact) {
  uint64_t macs = 0, cycles = 0;
  expect_random_layers_bit_exact(
      Op::kForward, cosim::testing::sweep_seed(101), 0, [](Gen&, ConvShape&) {}, &macs, &cycles);
  std::printf("forward: %d layers, %llu MACs in %llu cycles\n", kLayers, (unsigned long long)macs,
              (unsigned long long)cycles);
}

TEST(RTL_SUITE, BackwardRandomLayersBitExact) {
  uint64_t macs = 0, cycles = 0;
  expect_random_layers_bit_exact(
      Op::kBackward, cosim::testing::sweep_seed(202), 1,
      [](Gen& g, ConvShape& s) {
        s.in_c = g.uni(1, kCores);  // backward's cores are the layer's input channels
        s.out_c = g.uni(1, kMaxC);
      },
      &macs, &cycles);
}

TEST(RTL_SUITE, WeightGradMiniBatchesBitExact) {
  Gen g(cosim::testing::sweep_seed(303));
  std::unique_ptr<TinyDnnBare> hw;
  for (int n = 0; n < kLayers; ++n) {
    if (n % kLayersPerHarness == 0) hw = std::make_unique<TinyDnnBare>(g.options(n / kLayersPerHarness + 2));
    ConvShape s = g.shape();
    // dW's kernel is the delta plane; keep the source plane at most 4096.
    const bool use_bias = g.coin(0.3);
    const int batch = g.uni(1, kMaxBatch + 1);
    const auto b = g.values(s.out_c);
    const HwLayer l = map_layer(Op::kWeightGrad, s, use_bias);
    if (use_bias) hw->load_bias(l, bias_elements(b));
    std::vector<std::vector<bf16>> xs, ds;
    std::vector<std::vector<uint16_t>> samples;
    for (int k = 0; k < batch; ++k) {
      xs.push_back(g.values(std::size_t(s.in_c) * s.in_h * s.in_w));
      ds.push_back(g.values(std::size_t(s.out_c) * s.out_h() * s.out_w()));
      samples.push_back(sample_elements(l, xs.back(), &ds.back()));
    }
    // Sometimes split the mini-batch over two runs: the first without the
    // last-sample bit keeps accumulating in the destination buffer.
    std::vector<std::vector<uint32_t>> out;
    if (batch > 1 && g.coin(0.4)) {
      const int split = g.uni(1, batch - 1);
      const auto first = hw->run(l, {samples.begin(), samples.begin() + split}, false);
      ASSERT_TRUE(first.empty());
      out = hw->run(l, {samples.begin() + split, samples.end()}, true);
    } else {
      out = hw->run(l, samples, true);
    }
    ASSERT_EQ(out.size(), 1u);
    ASSERT_TRUE(same_bits(out[0], weight_grad(s, xs, ds, use_bias ? &b : nullptr)))
        << "layer " << n << ": " << describe(s, batch, use_bias);
  }
}

TEST(RTL_SUITE, ForwardAfterWeightGradReloadsCleanly) {
  // A dW run overwrites weight bank 0 with deltas; forward after reloading
  // the weights must be unaffected, and a non-dW run ends any pending dW sum.
  Gen g(404);
  TinyDnnBare hw(g.options(1));
  ConvShape s{2, 5, 5, 16, 3, 3};
  const HwLayer lw = map_layer(Op::kWeightGrad, s, false);
  const auto x = g.values(50), d = g.values(16 * 9);
  hw.run(lw, {sample_elements(lw, x, &d)}, false);  // pending, not streamed
  const HwLayer lf = map_layer(Op::kForward, s, false);
  const auto w = g.values(16 * 2 * 9);
  hw.load_weights(lf, weight_elements(lf, s, w));
  const auto y = hw.run(lf, {sample_elements(lf, x)}, false);
  ASSERT_EQ(y.size(), 1u);
  EXPECT_TRUE(same_bits(y[0], forward(s, x, w)));
  // A fresh dW mini-batch now starts from "first sample stored".
  const auto out = hw.run(lw, {sample_elements(lw, x, &d)}, true);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(same_bits(out[0], weight_grad(s, {x}, {d})));
}

TEST(RTL_SUITE, RegistersReadBackAndTimeoutIsReported) {
  BareOptions o;
  o.cycle_budget = 50;
  TinyDnnBare hw(o);
  hw.write_reg(kRegKw, 3);
  hw.write_reg(kRegOd, 7);
  EXPECT_EQ(hw.read_reg(kRegKw), 3u);
  EXPECT_EQ(hw.read_reg(kRegOd), 7u);
  // A zero size is refused at once: CTRL = {error, done, busy} = 0b110.
  hw.write_reg(kRegOd, 0);
  hw.write_reg(kRegMode, kModeRun);
  hw.write_reg(kRegCtrl, 1);
  uint32_t ctrl = 0;
  for (int i = 0; i < 10 && !(ctrl & 2u); ++i) ctrl = hw.read_reg(kRegCtrl);
  EXPECT_EQ(ctrl, 6u);
  // OD above the core count likewise.
  hw.write_reg(kRegOd, 17);
  hw.write_reg(kRegCtrl, 1);
  ctrl = 0;
  for (int i = 0; i < 10 && !(ctrl & 2u); ++i) ctrl = hw.read_reg(kRegCtrl);
  EXPECT_EQ(ctrl, 6u);
  ConvShape s{3, 12, 12, 16, 3, 3};
  const HwLayer l = map_layer(Op::kForward, s, false);
  Gen g(5);
  EXPECT_THROW(hw.run(l, {sample_elements(l, g.values(3 * 144))}, false), TimeoutError);
}

TEST(RTL_SUITE, ThroughputOfALargerForwardLayer) {
  // 16 output channels, 8 input channels 16x16, 3x3 kernel: 72 MAC steps per
  // output; with one normaliser drain per output (16 cycles) the cores stay busy.
  Gen g(9);
  TinyDnnBare hw;
  ConvShape s{8, 16, 16, 16, 3, 3};
  const HwLayer l = map_layer(Op::kForward, s, true);
  const auto w = g.values(16 * 8 * 9), b = g.values(16), x = g.values(8 * 256);
  hw.load_weights(l, weight_elements(l, s, w));
  hw.load_bias(l, bias_elements(b));
  const auto t0 = std::chrono::steady_clock::now();
  const uint64_t c0 = hw.cycle();
  const auto y = hw.run(l, {sample_elements(l, x), sample_elements(l, x)}, false);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("simulated %llu cycles in %.3f s = %.0f kHz (bare loop, 2 stalling streams, checkers on)\n",
              (unsigned long long)(hw.cycle() - c0), secs, double(hw.cycle() - c0) / secs / 1e3);
  ASSERT_EQ(y.size(), 2u);
  EXPECT_TRUE(same_bits(y[1], forward(s, x, w, &b)));
  const double util = double(hw.last_command_macs()) / (16.0 * double(hw.last_command_cycles()));
  std::printf("forward 8x16x16 k3 -> 16, 2 samples: %llu MACs, %llu cycles, utilisation %.1f%%\n",
              (unsigned long long)hw.last_command_macs(), (unsigned long long)hw.last_command_cycles(), 100 * util);
  // MACs = 2 samples * 14*14 outputs * (72 + 1 bias) steps * 16 cores.
  EXPECT_EQ(hw.last_command_macs(), 2ull * 196 * 73 * 16);
  EXPECT_GT(util, 0.8);
}

// A flat memory behind the MemoryPort interface for the DMA path.
class FlatMemory : public cosim::tb::MemoryPort {
 public:
  explicit FlatMemory(std::size_t n) : bytes_(n, 0) {}
  void read(uint64_t addr, uint8_t* dst, std::size_t len) override {
    if (addr + len > bytes_.size()) throw InputError("flat memory: read past end at " + std::to_string(addr));
    std::copy(bytes_.begin() + addr, bytes_.begin() + addr + len, dst);
  }
  void write(uint64_t addr, const uint8_t* src, std::size_t len, const uint8_t* strobe) override {
    if (addr + len > bytes_.size()) throw InputError("flat memory: write past end at " + std::to_string(addr));
    for (std::size_t i = 0; i < len; ++i)
      if (!strobe || strobe[i]) bytes_[addr + i] = src[i];
  }

 private:
  std::vector<uint8_t> bytes_;
};

TEST(RTL_SUITE, LayersThroughDmaFromMemoryBitExact) {
  // The host's view: packets in memory, one MM2S transfer per sample, one
  // S2MM transfer per result packet, results read back from memory.
  Gen g(505);
  FlatMemory mem(1 << 21);
  for (int n = 0; n < 10; ++n) {
    BareOptions o = g.options(n);
    o.memory = &mem;
    TinyDnnBare hw(o);
    const ConvShape s = g.shape();
    const int batch = g.uni(1, kMaxBatch);
    std::vector<std::vector<bf16>> xs, ds;
    for (int k = 0; k < batch; ++k) {
      xs.push_back(g.values(std::size_t(s.in_c) * s.in_h * s.in_w));
      ds.push_back(g.values(std::size_t(s.out_c) * s.out_h() * s.out_w()));
    }
    const auto w = g.values(std::size_t(s.out_c) * s.in_c * s.k_h * s.k_w);
    const HwLayer lf = map_layer(Op::kForward, s, false);
    hw.load_weights(lf, weight_elements(lf, s, w));
    std::vector<std::vector<uint16_t>> fs, ws;
    for (int k = 0; k < batch; ++k) fs.push_back(sample_elements(lf, xs[k]));
    const auto y = hw.run(lf, fs, false);
    ASSERT_EQ(y.size(), std::size_t(batch));
    for (int k = 0; k < batch; ++k)
      ASSERT_TRUE(same_bits(y[k], forward(s, xs[k], w))) << "layer " << n << ": " << describe(s, batch, false);
    const HwLayer lw = map_layer(Op::kWeightGrad, s, false);
    for (int k = 0; k < batch; ++k) ws.push_back(sample_elements(lw, xs[k], &ds[k]));
    const auto dw = hw.run(lw, ws, true);
    ASSERT_EQ(dw.size(), 1u);
    ASSERT_TRUE(same_bits(dw[0], weight_grad(s, xs, ds))) << "layer " << n << ": " << describe(s, batch, false);
  }
}

TEST(RTL_SUITE, WaveformDumpWritesAnFstFile) {
  const std::string path = cosim::test::scratch_dir("tinydnn_rtl_test") + "/wave.fst";
  {
    BareOptions o;
    o.fst_path = path;
    TinyDnnBare hw(o);
    ConvShape s{1, 3, 3, 2, 2, 2};
    const HwLayer l = map_layer(Op::kForward, s, false);
    Gen g(3);
    const auto w = g.values(8), x = g.values(9);
    hw.load_weights(l, weight_elements(l, s, w));
    const auto y = hw.run(l, {sample_elements(l, x)}, false);
    EXPECT_TRUE(same_bits(y.at(0), forward(s, x, w)));
  }
  ASSERT_TRUE(std::filesystem::exists(path));
  EXPECT_GT(std::filesystem::file_size(path), 100u);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace cosim::tinydnn
