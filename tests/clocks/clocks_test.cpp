// The harness's further clocks (a manifest's ports.clocks) on a real
// Verilated top, clocks_top.sv, which counts the rising edges of each clock.
// What the counters must read is computed here from the manifest's ratios and
// the schedule's rule alone (tb/harness/clock_set.hpp): every clock rises at
// the primary clock's first rising edge, half a cycle after time 0, and
// clock r rises again every 1/r cycles; the reset is held for the first
// kResetCycles cycles; after n cycles the time is that of the n-th rising
// edge after reset. Simultaneous edges are evaluated together (each side
// samples the other's old value) unless the further clock is early (its
// edge first), and the waveform shows each further edge at its own time.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "harness/core.hpp"
// core.hpp first: it brings in Verilator's headers.
#include "Vclocks_top.h"
#include "clock_edges.hpp"
#include "dut/clocks_pins.hpp"
#include "harness/module_binding.hpp"
#include "wave_test_util.hpp"

namespace cosim::tb::harness {
namespace {

using Model = Vclocks_top;
using Pins = cosim::clocks::pins::Top;
using ClocksCore = Core<Model, NeverDone, Pins>;

// The manifest's reset (ports.reset.cycles) and ratios, written again here.
constexpr int64_t kManifestResetCycles = 2;
using clocktest::Ratio;
using clocktest::rising_edges;
constexpr Ratio kFast{5, 2}, kSlow{2, 3}, k2x{2, 1};

TEST(FurtherClocks, EachClockMakesTheEdgesItsRatioPromises) {
  ClocksCore core("clocks");
  const Model& m = core.model();
  const int64_t reset = ClocksCore::kResetCycles;
  // The reset lasts until clk_fast has seen its reset for at least the
  // manifest's cycles, and not less than those cycles of clk.
  ASSERT_GE(reset, kManifestResetCycles);
  EXPECT_EQ(m.fast_reset_edges_o, rising_edges(kFast, 0, 2 * reset));
  EXPECT_GE(m.fast_reset_edges_o, kManifestResetCycles);
  EXPECT_EQ(m.main_edges_o, 0u);
  for (int64_t n = 1; n <= 97; ++n) {
    core.cycle();
    const int64_t now = 2 * (reset + n) - 1;  // the n-th rising edge after reset, in half cycles
    SCOPED_TRACE("cycle " + std::to_string(n));
    ASSERT_EQ(m.main_edges_o, n);
    ASSERT_EQ(m.fast_reset_edges_o, rising_edges(kFast, 0, 2 * reset));
    ASSERT_EQ(m.fast_edges_o, rising_edges(kFast, 2 * reset, now));
    ASSERT_EQ(m.slow_edges_o, rising_edges(kSlow, 0, now));
    ASSERT_EQ(m.x2_edges_o, rising_edges(k2x, 0, now));
    // clk_2x rises with clk: across that edge each sees the other's old
    // value, and clk read as data is already high.
    ASSERT_EQ(m.x2_saw_main_o, n - 1);
    ASSERT_EQ(m.main_saw_x2_o, rising_edges(k2x, 0, now) - 1);
    ASSERT_EQ(m.x2_saw_clk_o, 1);
    // clk_2x_early's edge comes first: it sees clk's old count and level,
    // clk sees its new count.
    ASSERT_EQ(m.early_edges_o, rising_edges(k2x, 0, now));
    ASSERT_EQ(m.early_saw_main_o, n - 1);
    ASSERT_EQ(m.main_saw_early_o, rising_edges(k2x, 0, now));
    ASSERT_EQ(m.early_saw_clk_o, 0);
  }
}

// A binder's sample(): what the rising edge of clk sees, clk_fast's edges
// since the falling one included.
class FastCountProbe final : public Port<Model> {
 public:
  void drive(Model&) override {}
  bool has_drive() const override { return false; }
  void sample(const Model& m, uint64_t) override { seen.push_back(m.fast_edges_o); }
  std::vector<uint32_t> seen;
};

TEST(FurtherClocks, BindersSampleWhatTheRisingEdgeSees) {
  ClocksCore core("clocks");
  FastCountProbe probe;
  core.add_port(probe);
  for (int n = 1; n <= 40; ++n) {
    core.cycle();
    ASSERT_EQ(probe.seen.back(), core.model().main_saw_fast_o) << "cycle " << n;
  }
}

TEST(FurtherClocks, TheWaveformShowsEachEdgeAtItsTime) {
  const std::string dir = wavetest::fresh_dir("further_clocks");
  TbConfig cfg;
  cfg.wave_file = dir + "/clocks.fst";
  cfg.wave_from = 3;
  cfg.wave_to = 12;
  const uint64_t cycles = 20;
  {
    ClocksCore core("clocks", &cfg);
    core.start_timeline();
    for (uint64_t i = 0; i < cycles; ++i) core.cycle();
  }
  const wavetest::Vcd v = wavetest::read_fst(cfg.wave_file);
  ASSERT_TRUE(v.has("clocks.clk_fast")) << "signals: " << v.names.size();
  // The FST's unit is 1 ps, a cycle 1000 of them (1 ns on GTKWave's
  // ruler); cycle c (counted from the end of reset) is dumped at 1000 c and
  // its rising edge at 1000 c + 500. A clock of ratio p/q rises with the
  // first edge of all (reset's first, 1000 x kManifestResetCycles before
  // cycle 0's) and toggles every 1000 q / 2p units: each of its edges shows
  // at exactly that time, and it changes at no other, from the window's
  // first sample to its last (the last cycle's high half).
  constexpr int64_t kUnits = 1000;
  const int64_t first = kUnits * static_cast<int64_t>(cfg.wave_from);
  const int64_t last = kUnits * static_cast<int64_t>(cfg.wave_to) + kUnits / 2;
  const std::pair<const char*, Ratio> further[] = {{"clocks.clk_fast", kFast}, {"clocks.clk_slow", kSlow}, {"clocks.clk_2x", k2x}};
  for (const auto& [name, r] : further) {
    SCOPED_TRACE(name);
    const int64_t half = kUnits * r.q / (2 * r.p);
    std::vector<int64_t> want, got;
    for (int64_t t = kUnits / 2 - kUnits * kManifestResetCycles; t <= last; t += half)
      if (t > first) want.push_back(t);
    for (const auto& [t, value] : v.changes.at(v.id.at(name)))
      if (static_cast<int64_t>(t) > first) got.push_back(static_cast<int64_t>(t));
    EXPECT_EQ(got, want);
  }
}

}  // namespace
}  // namespace cosim::tb::harness
