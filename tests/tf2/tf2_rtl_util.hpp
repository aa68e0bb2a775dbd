// Shared helpers of the TF2 RTL tests: compile layers, run them on the bare
// harness, compare every output region byte for byte with the golden model.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "tf2/compiler.hpp"
#include "support/tf2_random_layer.hpp"
#include "tf2/core/tf2_bare.hpp"

// The Verilated variant these helpers run: tf2_rtl, or TF2_TEST_MODEL (the
// model class of another, e.g. Vtf2_rtl_small with cosim_tf2_core_tf2_rtl_small).
#ifndef TF2_TEST_MODEL
#define TF2_TEST_MODEL Vtf2_rtl
#endif
class TF2_TEST_MODEL;

namespace cosim::tf2 {

// The bare harness's settings over the tests' variant.
inline tb::tf2::Tf2BareConfig test_bare_config() {
  tb::tf2::Tf2BareConfig cfg;
  cfg.build = &tb::tf2::Tf2CoreOver<TF2_TEST_MODEL>::build();
  return cfg;
}

// The build's parameters, as its registers report them.
inline DeviceConfig dut_config() {
  std::vector<uint8_t> dram(64, 0);
  tb::tf2::Tf2Bare probe(dram, test_bare_config());
  return probe.device_config();
}

struct RtlRun {
  tb::tf2::Tf2RunResult result;
  std::size_t mismatches = 0;
  std::string first_mismatch;
  std::vector<std::string> protocol_errors;
  double dut_seconds = 0;  // wall time of the DUT run alone
};

inline RtlRun run_on_rtl(const std::vector<ConvLayer>& layers, const std::vector<int8_t>& input,
                         const tb::Axi4SlaveConfig& axi, const DeviceConfig& dev = DeviceConfig{}) {
  Program p = compile(layers, input, dev);
  const std::vector<std::vector<uint8_t>> expect = expected_outputs(layers, input);
  tb::tf2::Tf2BareConfig cfg = test_bare_config();
  cfg.axi = axi;
  cfg.max_cycles = 5'000'000;
  tb::tf2::Tf2Bare dut(p.dram, cfg);
  RtlRun r;
  const auto t0 = std::chrono::steady_clock::now();
  r.result = dut.run(p);
  r.dut_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.protocol_errors = dut.axi().protocol_errors();
  for (std::size_t l = 0; l < layers.size(); ++l) {
    const LayerRegions& reg = p.layers[l];
    for (std::size_t i = 0; i < reg.out_bytes; ++i) {
      if (p.dram[reg.out_addr + i] != expect[l][i]) {
        if (r.mismatches++ == 0) {
          const ConvLayer& L = layers[l];
          // HC16W: pixel word i / 16 is [y][group][x].
          const std::size_t word = i / 16, groups = static_cast<std::size_t>(L.c_out + 15) / 16;
          const std::size_t wo = static_cast<std::size_t>(L.w_out());
          std::ostringstream s;
          s << "layer " << l << " channel " << (word / wo) % groups * 16 + i % 16 << " y " << word / (wo * groups)
            << " x " << word % wo << ": dut "
            << int(static_cast<int8_t>(p.dram[reg.out_addr + i])) << " golden " << int(static_cast<int8_t>(expect[l][i]));
          r.first_mismatch = s.str();
        }
      }
    }
  }
  return r;
}

// Random layer i of a sweep: kernel 1/3/5, stride 1/2, batch-norm on/off and
// ReLU rotate with i; channel counts, map sizes, padding, one Q per map or
// per channel, and the DRAM timing come from the seed.
// Runs `p` on the RTL with the descriptor word at byte `offset` of its list
// replaced by `value` (a broken pointer): the run must end flagged, and its
// error code (ERR_INFO[3:0]) comes back.
inline uint32_t error_code_with_descriptor_word(Program p, uint32_t offset, uint32_t value) {
  std::memcpy(&p.dram[p.desc_addr + offset], &value, 4);
  tb::tf2::Tf2Bare dut(p.dram);
  const tb::tf2::Tf2RunResult r = dut.run(p);
  EXPECT_TRUE(r.done);
  EXPECT_TRUE(r.error);
  return r.err_info & 0xF;
}

struct SweepCase {
  RandomLayerShape shape;
  tb::Axi4SlaveConfig axi;
  uint64_t seed;
};

inline SweepCase sweep_case(int i, uint64_t seed, int max_c, int max_hw) {
  std::mt19937_64 rng(seed * 7919 + static_cast<uint64_t>(i));
  auto uni = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  SweepCase c;
  c.seed = seed * 1000003 + static_cast<uint64_t>(i);
  RandomLayerShape& s = c.shape;
  const int ks[] = {1, 3, 5};
  s.k = ks[i % 3];
  s.stride = 1 + (i / 3) % 2;
  s.batch_norm = ((i / 6) % 2) == 0;
  s.relu = ((i / 12) % 2) == 0;
  s.pad = uni(0, (s.k - 1) / 2);
  s.c_in = uni(1, max_c);
  s.c_out = uni(1, max_c);
  s.h_in = uni(std::max(1, s.k - 2 * s.pad), max_hw);
  s.w_in = uni(std::max(1, s.k - 2 * s.pad), max_hw);
  c.axi.data_bytes = 16;
  c.axi.read_latency = static_cast<uint32_t>(uni(0, 24));
  c.axi.write_latency = static_cast<uint32_t>(uni(0, 24));
  c.axi.stall_probability = uni(0, 3) * 0.1;
  c.axi.seed = c.seed;
  c.axi.max_outstanding = static_cast<uint32_t>(uni(1, 8));
  s.per_channel_q = uni(0, 1) == 1;
  return c;
}

// Relabels a layer's input or output map Q (one entry per channel) while
// keeping its arithmetic in range: min_exp moves by the change of the mean
// shift base 15 + Q_out - Q_in, then down until the largest shift fits.
// Lets a random layer read a given map or take a residual map of that Q.
inline double mean_q(const std::vector<int>& q) {
  double s = 0;
  for (int v : q) s += v;
  return q.empty() ? 0.0 : s / static_cast<double>(q.size());
}
inline void set_map_q(int& shared, std::vector<int>& per_channel, const std::vector<int>& q) {
  const bool uniform = std::all_of(q.begin(), q.end(), [&](int v) { return v == q[0]; });
  shared = q[0];
  per_channel = uniform ? std::vector<int>{} : q;
}
inline void set_output_q(ConvLayer& L, const std::vector<int>& q) {
  L.min_exp += static_cast<int>(std::lround(mean_q(L.output_q()) - mean_q(q)));
  set_map_q(L.q_out, L.q_out_ch, q);
  while (L.largest_shift() > kMaxShift) --L.min_exp;
}
inline void set_input_q(ConvLayer& L, const std::vector<int>& q) {
  L.min_exp += static_cast<int>(std::lround(mean_q(q) - mean_q(L.input_q())));
  set_map_q(L.q_in, L.q_in_ch, q);
  while (L.largest_shift() > kMaxShift) --L.min_exp;
}

// Random residual case i: a "same" conv c -> c (stride 1, odd k) whose output
// gets the input map added (residual_from = input), batch-norm and ReLU
// rotating with i; map size, channels and DRAM timing from the seed.
inline SweepCase residual_case(int i, uint64_t seed, int max_c, int max_hw) {
  SweepCase c = sweep_case(i, seed, max_c, max_hw);
  RandomLayerShape& s = c.shape;
  s.k = (i % 3 == 0) ? 1 : (i % 3 == 1 ? 3 : 5);
  s.stride = 1;
  s.pad = (s.k - 1) / 2;
  s.c_out = s.c_in;
  s.relu = (i / 3) % 2 == 0;
  s.batch_norm = (i / 6) % 2 == 0;
  return c;
}

inline ConvLayer residual_layer(const SweepCase& c) {
  ConvLayer L = random_layer(c.shape, c.seed);
  set_output_q(L, L.input_q());  // the residual map is the input: its Q, channel by channel
  L.residual_from = kResidualFromInput;
  return L;
}

inline std::string describe(const SweepCase& c) {
  std::ostringstream s;
  const RandomLayerShape& r = c.shape;
  s << "c_in " << r.c_in << " c_out " << r.c_out << " h " << r.h_in << " w " << r.w_in << " k " << r.k << " stride "
    << r.stride << " pad " << r.pad << " bn " << r.batch_norm << " relu " << r.relu << (r.per_channel_q ? " Q per channel" : " Q per map") << " | rd_lat "
    << c.axi.read_latency << " wr_lat " << c.axi.write_latency << " stall " << c.axi.stall_probability << " seed "
    << c.seed;
  return s.str();
}

}  // namespace cosim::tf2
