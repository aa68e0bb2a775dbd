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
  // 10 FST ticks a cycle; clk rises at tick 10c + 5. clk_fast (5/2) rises
  // there too, then toggles every 2 ticks: it changes at every odd tick, and
  // at no other, between the window's first and last samples.
  std::vector<uint64_t> want, got;
  for (uint64_t t = 10 * cfg.wave_from + 1; t <= 10 * cfg.wave_to + 5; t += 2) want.push_back(t);
  for (const auto& [t, value] : v.changes.at(v.id.at("clocks.clk_fast")))
    if (t > 10 * cfg.wave_from) got.push_back(t);
  EXPECT_EQ(got, want);
  // clk_2x rises with every edge of clk and falls halfway between, at ticks
  // 10c + 2.5 and 10c + 7.5: shown in the tick that holds it (2, 7) or, when
  // an earlier edge took that tick, the next (3, 8). The window ends with
  // the last cycle's high sample, so its cycles before the last.
  for (uint64_t c = cfg.wave_from + 1; c < cfg.wave_to; ++c) {
    SCOPED_TRACE("cycle " + std::to_string(c));
    EXPECT_EQ(v.at_u64("clocks.clk_2x", 10 * c), 1u);
    EXPECT_EQ(v.at_u64("clocks.clk_2x", 10 * c + 1), 1u);
    EXPECT_EQ(v.at_u64("clocks.clk_2x", 10 * c + 3), 0u);
    EXPECT_EQ(v.at_u64("clocks.clk_2x", 10 * c + 5), 1u);
    EXPECT_EQ(v.at_u64("clocks.clk_2x", 10 * c + 6), 1u);
    EXPECT_EQ(v.at_u64("clocks.clk_2x", 10 * c + 8), 0u);
  }
}

}  // namespace
}  // namespace cosim::tb::harness
