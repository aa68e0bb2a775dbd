// `cosim run --trace`: the FST holds exactly the window asked for, the
// signals of the prepared view, only the hierarchy levels asked for, and the
// size guard stops it. Read back with Debian's fst2vcd, independent of the
// Verilator FST writer.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>

#include "support/text_file.hpp"
#include "wave_test_util.hpp"

namespace fs = std::filesystem;
using cosim::test::read_text;
using wavetest::read_fst;
using wavetest::read_json;
using wavetest::run;

namespace {

// cosim run <scenario> --out <dir> <args>; returns the exit status.
int run_cosim(const std::string& scen, const std::string& dir, const std::string& args) {
  return wavetest::cosim_run(COSIM_BIN, scen, dir, args);
}

// Every signal the .gtkw lists (lines that are not directives).
std::vector<std::string> gtkw_signals(const std::string& gtkw) {
  std::vector<std::string> out;
  std::istringstream is(read_text(gtkw));
  for (std::string l; std::getline(is, l);) {
    if (l.empty() || l[0] == '@' || l[0] == '-' || l[0] == '[' || l[0] == '*' || l[0] == '^') continue;
    out.push_back(std::regex_replace(l, std::regex("\\[[0-9]+:[0-9]+\\]$"), ""));
  }
  return out;
}

void expect_window(const wavetest::Vcd& v, uint64_t from, uint64_t to) {
  ASSERT_FALSE(v.times.empty());
  // The ruler counts cycles: unit 1 ps, 1000 units per cycle, so 1 ns is
  // one cycle; 1000 x cycle is the clock's low half, + 500 its high.
  EXPECT_EQ(v.timescale, "1ps");
  EXPECT_EQ(v.times.front(), 1000 * from);
  EXPECT_EQ(v.times.back(), 1000 * to + 500);
  // Every half cycle in between, nothing outside.
  EXPECT_EQ(v.times.size(), 2 * (to - from + 1));
}

}  // namespace

TEST(WaveFst, Tf2WindowHoldsExactlyTheRequestedCyclesAndTheView) {
  const std::string d = wavetest::fresh_dir("tf2_window");
  ASSERT_EQ(run_cosim("tf2_conv3x3", d, "--trace " + d + "/w.fst --trace-from 300 --trace-to 420"), 0);
  const auto v = read_fst(d + "/w.fst");
  expect_window(v, 300, 420);
  // The prepared view: PE array, loaders, controller, AXI channels.
  for (const char* s : {"tf2.clk_i", "tf2.m_axi_arvalid_o", "tf2.m_axi_wvalid_o", "tf2.m_axi_rdata_i",
                        "tf2.tf2_top.u_ctrl.state_q", "tf2.tf2_top.u_feat_ld.we_o", "tf2.tf2_top.u_filt_ld.state_q",
                        "tf2.tf2_top.u_pe_array.g_pe[0].u_pe.lane_sum_q",
                        "tf2.tf2_top.u_pe_array.g_pe[15].u_pe.u_adder.acc_q", "tf2.tf2_top.u_sched.ry_q",
                        "tf2.tf2_top.u_writer.state_q"}) {
    EXPECT_TRUE(v.has(s)) << s;
  }
  const auto sigs = gtkw_signals(d + "/w.gtkw");
  EXPECT_GT(sigs.size(), 60u);
  for (const auto& s : sigs) EXPECT_TRUE(v.has(s)) << "view names " << s << ", which the FST lacks";
  for (const char* s : {"tf2.tf2_top.u_ctrl.state_q", "tf2.tf2_top.u_pe_array.g_pe[15].u_pe.lane_sum_q",
                        "tf2.m_axi_awaddr_o"}) {
    EXPECT_NE(std::find(sigs.begin(), sigs.end(), s), sigs.end()) << s;
  }
  // An SV enum (the controller's state) shows its names: GTKWave's enum
  // display (flag bit 32) over binary, the FST's own table, no file filter;
  // a plain vector with a view filter keeps the filter.
  const std::string view = read_text(d + "/w.gtkw");
  EXPECT_NE(view.find("@100000028\ntf2.tf2_top.u_ctrl.state_q[3:0]\n"), std::string::npos) << view;
  // The clock toggles every half cycle: low at 1000 x cycle, high 500 units later.
  EXPECT_EQ(v.at("tf2.clk_i", 300000), "0");
  EXPECT_EQ(v.at("tf2.clk_i", 300500), "1");
  const auto j = read_json(d + "/report.json");
  EXPECT_EQ(j["wave"]["first_cycle"], 300);
  EXPECT_EQ(j["wave"]["last_cycle"], 420);
  EXPECT_EQ(j["wave"]["truncated"], false);
  EXPECT_EQ(j["wave"]["gtkw"], d + "/w.gtkw");
  EXPECT_EQ(j["status"], "pass");
  fs::remove_all(d);
}

TEST(WaveFst, TinyDnnWindowAndStreamView) {
  const std::string d = wavetest::fresh_dir("td_window");
  ASSERT_EQ(run_cosim("tinydnn_fwd", d, "--trace " + d + "/w.fst --trace-from 2000 --trace-to 2100"), 0);
  const auto v = read_fst(d + "/w.fst");
  expect_window(v, 2000, 2100);
  for (const char* s : {"tinydnn.s_axis_tvalid_i", "tinydnn.s_axis_tready_o", "tinydnn.m_axis_tvalid_o",
                        "tinydnn.m_axis_tready_i", "tinydnn.tinydnn_top.u_batch.state_q",
                        "tinydnn.tinydnn_top.u_ctl.oy_q", "tinydnn.tinydnn_top.u_post.r3_valid_q",
                        "tinydnn.tinydnn_top.g_core[15].u_core.sum_q"}) {
    EXPECT_TRUE(v.has(s)) << s;
  }
  for (const auto& s : gtkw_signals(d + "/w.gtkw")) EXPECT_TRUE(v.has(s)) << s;
  fs::remove_all(d);
}

TEST(WaveFst, NoWindowDumpsTheWholeRun) {
  const std::string d = wavetest::fresh_dir("td_whole");
  ASSERT_EQ(run_cosim("tinydnn_fwd", d, "--trace"), 0);  // default file <out>/wave.fst
  const auto j = read_json(d + "/report.json");
  const uint64_t cycles = j["cycles"];
  const auto v = read_fst(d + "/wave.fst");
  expect_window(v, 0, cycles - 1);  // cycle numbers 0 .. cycles-1
  EXPECT_TRUE(fs::exists(d + "/wave.gtkw"));
  EXPECT_EQ(j["wave"]["truncated"], false);
  fs::remove_all(d);
}

TEST(WaveFst, DepthLimitsTheHierarchy) {
  const std::string d = wavetest::fresh_dir("td_depth");
  ASSERT_EQ(run_cosim("tinydnn_fwd", d, "--trace " + d + "/w1.fst --trace-to 50 --trace-depth 1"), 0);
  const auto v1 = read_fst(d + "/w1.fst");
  for (const auto& n : v1.names) EXPECT_EQ(std::count(n.begin(), n.end(), '.'), 1) << n;
  EXPECT_TRUE(v1.has("tinydnn.s_axis_tvalid_i"));
  ASSERT_EQ(run_cosim("tinydnn_fwd", d + "/2", "--trace " + d + "/w2.fst --trace-to 50 --trace-depth 2"), 0);
  const auto v2 = read_fst(d + "/w2.fst");
  bool level2 = false;
  for (const auto& n : v2.names) {
    EXPECT_LE(std::count(n.begin(), n.end(), '.'), 2) << n;
    level2 = level2 || n.rfind("tinydnn.tinydnn_top.", 0) == 0;
  }
  EXPECT_TRUE(level2);
  EXPECT_FALSE(v2.has("tinydnn.tinydnn_top.u_batch.state_q"));
  fs::remove_all(d);
}

TEST(WaveFst, SizeGuardStopsDumping) {
  const std::string d = wavetest::fresh_dir("td_guard");
  ASSERT_EQ(run_cosim("tinydnn_fwd", d, "--trace " + d + "/w.fst --trace-max-mb 1"), 0);
  const auto j = read_json(d + "/report.json");
  EXPECT_EQ(j["wave"]["truncated"], true);
  const uint64_t last = j["wave"]["last_cycle"], cycles = j["cycles"];
  EXPECT_LT(last, cycles - 1);
  // Stopped near the limit: over 1 MiB by a fraction of it at most.
  const auto bytes = fs::file_size(d + "/w.fst");
  EXPECT_GE(bytes, 1u << 20);
  EXPECT_LT(bytes, 3u << 19);
  const auto v = read_fst(d + "/w.fst");
  EXPECT_EQ(v.times.back(), 1000 * last + 500);
  EXPECT_NE(read_text(d + ".log").find("dumping stopped"), std::string::npos);
  fs::remove_all(d);
}

TEST(WaveFst, TimeoutStillLeavesTheWaveform) {
  // A hang (TF2 never started: fault no_start) is where a waveform helps most.
  const std::string d = wavetest::fresh_dir("tf2_hang");
  const std::string args = "--set fault=no_start --set testbench.timeout_cycles=300 --trace " + d + "/w.fst";
  ASSERT_EQ(run_cosim("tf2_conv1x1", d, args), 3);
  const auto j = read_json(d + "/report.json");
  EXPECT_EQ(j["status"], "timeout");
  EXPECT_EQ(j["wave"]["file"], d + "/w.fst");
  EXPECT_TRUE(fs::exists(d + "/w.gtkw"));
  const auto v = read_fst(d + "/w.fst");
  EXPECT_EQ(v.times.front(), 0u);
  EXPECT_GE(v.times.back(), 2u * 300);
  EXPECT_EQ(v.at("tf2.done_o", v.times.back()), "0");
  fs::remove_all(d);
}

TEST(WaveFst, NoTraceOptionNoFile) {
  const std::string d = wavetest::fresh_dir("tf2_none");
  ASSERT_EQ(run_cosim("tf2_conv1x1", d, ""), 0);
  EXPECT_FALSE(fs::exists(d + "/wave.fst"));
  EXPECT_TRUE(read_json(d + "/report.json")["wave"].is_null());
  fs::remove_all(d);
}

TEST(WaveFst, WindowAfterTheRunWritesNothing) {
  const std::string d = wavetest::fresh_dir("tf2_late");
  ASSERT_EQ(run_cosim("tf2_conv1x1", d, "--trace " + d + "/w.fst --trace-from 100000000"), 0);
  EXPECT_FALSE(fs::exists(d + "/w.fst"));
  EXPECT_NE(read_text(d + ".log").find("nothing dumped"), std::string::npos);
  fs::remove_all(d);
}

TEST(WaveFst, BadWindowIsAnInputError) {
  const std::string d = wavetest::fresh_dir("bad");
  EXPECT_EQ(run_cosim("tf2_conv1x1", d, "--trace --trace-from 10 --trace-to 5"), 2);
  EXPECT_EQ(run_cosim("tf2_conv1x1", d, "--trace --trace-max-mb 0"), 2);
  fs::remove_all(d);
}
