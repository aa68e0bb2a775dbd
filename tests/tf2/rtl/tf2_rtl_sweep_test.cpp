// Random-layer sweeps of the TF2 RTL against the golden model. Built twice:
// against the default RTL (regress label: larger layers and chains) and
// against the small-parameter variant (NPe 4, OCol3D 2, KTap 2, OCol2D 3).
// TF2_SWEEP=n (or COSIM_SWEEP_COUNT) overrides the number of layers;
// COSIM_SWEEP_SEED shifts the seeds (tests/support/sweep.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "support/sweep.hpp"
#include "tf2/tf2_rtl_util.hpp"

// Suite name per build, so the CTest names of the two executables differ.
#ifndef TF2_SWEEP_SUITE
#define TF2_SWEEP_SUITE Tf2RtlSweep
#endif
#ifndef TF2_SWEEP_LAYERS
#define TF2_SWEEP_LAYERS 100
#endif
#ifndef TF2_SWEEP_MAX_C
#define TF2_SWEEP_MAX_C 40
#endif
#ifndef TF2_SWEEP_MAX_HW
#define TF2_SWEEP_MAX_HW 10
#endif

namespace cosim::tf2 {
namespace {

TEST(TF2_SWEEP_SUITE, RandomLayersBitExact) {
  int n = cosim::testing::sweep_count(TF2_SWEEP_LAYERS);
  if (const char* e = std::getenv("TF2_SWEEP")) n = std::atoi(e);
  const uint64_t base = cosim::testing::sweep_seed(77);
  const DeviceConfig dev = dut_config();
  std::printf("tf2 sweep on a DUT with %d PEs, feature cache %d words, filter cache %d codes\n", dev.n_pe,
              dev.feat_cache_words, dev.filter_nibbles);
  int run = 0, per_channel = 0;
  for (int i = 0; i < n; ++i) {
    const SweepCase c = sweep_case(i, base, TF2_SWEEP_MAX_C, TF2_SWEEP_MAX_HW);
    const ConvLayer L = random_layer(c.shape, c.seed);
    if (static_cast<long>((L.c_in + 15) / 16) * L.h_in * L.w_in > dev.feat_cache_words ||
        L.c_in * L.k * L.k > dev.filter_nibbles) {
      continue;  // does not fit this build
    }
    ++run;
    per_channel += c.shape.per_channel_q ? 1 : 0;
    const RtlRun r = run_on_rtl({L}, random_input(L.c_in, L.h_in, L.w_in, c.seed), c.axi, dev);
    ASSERT_TRUE(r.result.done) << describe(c);
    ASSERT_FALSE(r.result.error) << describe(c) << " err_info " << std::hex << r.result.err_info;
    ASSERT_EQ(r.mismatches, 0u) << describe(c) << ": " << r.first_mismatch;
    ASSERT_TRUE(r.protocol_errors.empty()) << describe(c) << ": " << r.protocol_errors.front();
  }
  EXPECT_GE(run, n * 9 / 10);
  // Shared-Q and per-channel-Q layers mixed, about half each.
  std::printf("tf2 sweep: %d layers bit-exact, %d of them with one Q per channel\n", run, per_channel);
  EXPECT_GE(per_channel, run * 3 / 10);
  EXPECT_GE(run - per_channel, run * 3 / 10);
}

TEST(TF2_SWEEP_SUITE, RandomChainsBitExact) {
  const DeviceConfig dev = dut_config();
  const int n = std::max(1, cosim::testing::sweep_count(TF2_SWEEP_LAYERS) / 20);
  const uint64_t base = cosim::testing::sweep_seed(991);
  for (int i = 0; i < n; ++i) {
    const SweepCase c = sweep_case(i, base, 24, 8);
    std::vector<ConvLayer> layers;
    RandomLayerShape s = c.shape;
    for (int l = 0; l < 3; ++l) {
      layers.push_back(random_layer(s, c.seed + l));
      const ConvLayer& L = layers.back();
      s.input_q = L.output_q();  // the next layer reads this map
      s.c_in = L.c_out;
      s.h_in = L.h_out();
      s.w_in = L.w_out();
      s.k = (s.h_in >= 3 && s.w_in >= 3) ? 3 : 1;
      s.pad = s.k / 2;
      s.stride = 1;
      s.c_out = 1 + static_cast<int>((c.seed + l) % 24);
    }
    const RtlRun r = run_on_rtl(layers, random_input(layers[0].c_in, layers[0].h_in, layers[0].w_in, c.seed), c.axi, dev);
    ASSERT_TRUE(r.result.done) << describe(c);
    ASSERT_FALSE(r.result.error) << describe(c);
    ASSERT_EQ(r.mismatches, 0u) << describe(c) << ": " << r.first_mismatch;
  }
}

// The residual ADD in the writer (saturating int8 add of the input map, then
// ReLU) against the golden chain, random shapes and DRAM timing.
TEST(TF2_SWEEP_SUITE, RandomResidualLayersBitExact) {
  const DeviceConfig dev = dut_config();
  const int n = std::max(12, cosim::testing::sweep_count(TF2_SWEEP_LAYERS) / 3);
  const uint64_t base = cosim::testing::sweep_seed(4242);
  int run = 0;
  for (int i = 0; i < n; ++i) {
    const SweepCase c = residual_case(i, base, TF2_SWEEP_MAX_C, TF2_SWEEP_MAX_HW);
    const ConvLayer L = residual_layer(c);
    if (static_cast<long>((L.c_in + 15) / 16) * L.h_in * L.w_in > dev.feat_cache_words ||
        L.c_in * L.k * L.k > dev.filter_nibbles) {
      continue;
    }
    ++run;
    const RtlRun r = run_on_rtl({L}, random_input(L.c_in, L.h_in, L.w_in, c.seed), c.axi, dev);
    ASSERT_TRUE(r.result.done) << describe(c);
    ASSERT_FALSE(r.result.error) << describe(c) << " err_info " << std::hex << r.result.err_info;
    ASSERT_EQ(r.mismatches, 0u) << "residual " << describe(c) << ": " << r.first_mismatch;
    ASSERT_TRUE(r.protocol_errors.empty()) << describe(c) << ": " << r.protocol_errors.front();
  }
  EXPECT_GE(run, n * 9 / 10);
}

}  // namespace
}  // namespace cosim::tf2
