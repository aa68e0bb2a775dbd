// tb/wave as units: the window and size-guard rules (wave_window.hpp), the
// name helpers and view resolution, the .gtkw text and its marker.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "common/error.hpp"
#include "wave/around.hpp"
#include "wave/gtkw.hpp"
#include "wave/wave_window.hpp"
#include "support/text_file.hpp"
#include "wave_test_util.hpp"

namespace fs = std::filesystem;
using namespace cosim::wave;

namespace {

WaveSettings settings(uint64_t from, uint64_t to, uint64_t max_bytes = 1000000) {
  WaveSettings s;
  s.file = "x.fst";
  s.from = from;
  s.to = to;
  s.max_bytes = max_bytes;
  return s;
}

using cosim::test::read_text;

// A fresh directory of this suite's own (cosim_wave_unit_<name>_<pid>).
fs::path temp_dir(const std::string& name) { return wavetest::fresh_dir("unit_" + name); }

// The view every .gtkw test starts from: DUT "t" under the scope "top".
View top_view() {
  View v;
  v.dut = "t";
  v.root = "top";
  return v;
}

// A .gtkw beside d/w.fst, whose samples run from start to end.
GtkwFile gtkw_file_in(const fs::path& d, uint64_t start, uint64_t end) {
  GtkwFile f;
  f.fst_path = (d / "w.fst").string();
  f.gtkw_path = gtkw_path_for(f.fst_path);
  f.start_time = start;
  f.end_time = end;
  return f;
}

}  // namespace

TEST(WaveWindow, DisabledWithoutFile) {
  WaveWindow w(WaveSettings{});
  EXPECT_FALSE(w.enabled());
}

TEST(WaveWindow, OpensAtFromAndClosesAfterTo) {
  WaveWindow w(settings(10, 20));
  ASSERT_TRUE(w.enabled());
  EXPECT_FALSE(w.should_open(9));
  EXPECT_TRUE(w.should_open(10));
  w.opened(10);
  EXPECT_FALSE(w.should_open(11));  // once
  EXPECT_FALSE(w.should_close(20));
  EXPECT_TRUE(w.should_close(21));
  w.dumped(20);
  w.closed();
  EXPECT_EQ(w.state(), WaveWindow::State::kClosed);
  EXPECT_EQ(w.first_cycle(), 10u);
  EXPECT_EQ(w.last_cycle(), 20u);
  EXPECT_FALSE(w.should_open(30));
  EXPECT_FALSE(w.truncated());
}

TEST(WaveWindow, OpensLateWhenTheFirstSampleIsPastFrom) {
  // Cycles are sampled from wherever the wrapper starts counting.
  WaveWindow w(settings(5, 50));
  EXPECT_TRUE(w.should_open(7));
  EXPECT_FALSE(WaveWindow(settings(5, 6)).should_open(7));  // window already over
}

TEST(WaveWindow, DefaultWindowIsTheWholeRun) {
  WaveSettings s;
  s.file = "x.fst";
  WaveWindow w(s);
  EXPECT_TRUE(w.should_open(0));
  w.opened(0);
  EXPECT_FALSE(w.should_close(UINT64_MAX - 1));
  EXPECT_EQ(s.max_bytes, 256ull << 20);  // the documented default limit
}

TEST(WaveWindow, SizeGuardStopsAtTheLimit) {
  WaveWindow w(settings(0, UINT64_MAX, 100000));
  w.opened(0);
  EXPECT_FALSE(w.size_check_due(1023));
  EXPECT_TRUE(w.size_check_due(1024));  // first check 1024 cycles after opening
  EXPECT_FALSE(w.check_size(1024, 99999));
  EXPECT_FALSE(w.truncated());
  EXPECT_TRUE(w.check_size(2000, 100000));
  EXPECT_TRUE(w.truncated());
}

TEST(WaveWindow, SizeChecksFollowTheGrowthRate) {
  // 10 bytes/cycle, limit 1e6: a tenth of the limit is 10000 cycles away,
  // but the spacing is at most a quarter of the cycles dumped (1025 / 4),
  // and never below 256.
  WaveWindow w(settings(0, UINT64_MAX, 1000000));
  w.opened(0);
  EXPECT_FALSE(w.check_size(1024, 10250));
  EXPECT_EQ(w.next_check(), 1024u + 256u);
  // Later, with 100000 cycles dumped at 1 byte/cycle: 100000 / 1 capped by
  // 100000 / 4 = 25000.
  EXPECT_FALSE(w.check_size(100000, 100000));
  EXPECT_EQ(w.next_check(), 125000u);
  // Fast growth: 600000 bytes over 200001 cycles = 2 bytes/cycle; a tenth of
  // the limit (100000 bytes) lasts 50000 cycles = the quarter cap (50000).
  EXPECT_FALSE(w.check_size(200000, 600000));
  EXPECT_EQ(w.next_check(), 250000u);
  // Near the limit: 999500 bytes over 250001 cycles = 3 bytes/cycle (floor),
  // 500 bytes left = 166 cycles -> the 256-cycle minimum.
  EXPECT_FALSE(w.check_size(250000, 999500));
  EXPECT_EQ(w.next_check(), 250256u);
}

TEST(WaveAround, WindowIsClippedAtZero) {
  using W = std::pair<uint64_t, uint64_t>;
  EXPECT_EQ(window_around(1000, 50), W(950, 1050));
  EXPECT_EQ(window_around(30, 50), W(0, 80));
}

TEST(GtkwNames, StripRange) {
  EXPECT_EQ(strip_range("tf2.tf2_top.u_ctrl.state_q[2:0]"), "tf2.tf2_top.u_ctrl.state_q");
  EXPECT_EQ(strip_range("a.bias_q[0][31:0]"), "a.bias_q[0]");
  EXPECT_EQ(strip_range("a.g_pe[3].clk_i"), "a.g_pe[3].clk_i");
  EXPECT_EQ(strip_range("a.x"), "a.x");
}

TEST(GtkwNames, GlobMatchesStarOnly) {
  EXPECT_TRUE(glob_match("a.g_pe[*].u_pe.x", "a.g_pe[12].u_pe.x"));
  EXPECT_FALSE(glob_match("a.g_pe[*].u_pe.x", "a.g_pe[12].u_pe.y"));
  EXPECT_TRUE(glob_match("a.*", "a.b.c"));
  EXPECT_FALSE(glob_match("a.g_pe[1]", "a.g_pe1"));  // '[' is literal
  EXPECT_TRUE(glob_match("*x*", "x"));
  EXPECT_FALSE(glob_match("", "x"));
}

TEST(GtkwNames, NaturalOrder) {
  EXPECT_TRUE(natural_less("g_pe[2].x", "g_pe[10].x"));
  EXPECT_FALSE(natural_less("g_pe[10].x", "g_pe[2].x"));
  EXPECT_TRUE(natural_less("a", "b"));
  EXPECT_TRUE(natural_less("ab", "abc"));
}

TEST(GtkwView, ResolvesPatternsInViewOrderAndReportsMissing) {
  View v = top_view();
  v.groups = {{"g1", {{"u.state_q", Format::kHex}, {"clk_i", Format::kHex}}, false},
              {"pes", {{"p[*].acc", Format::kDec}}, true},
              {"none", {{"nothing"}}, false}};
  const std::vector<std::pair<std::string, int>> sigs = {
      {"top.clk_i", 1}, {"top.u.state_q[2:0]", 3}, {"top.p[10].acc[7:0]", 8}, {"top.p[2].acc[7:0]", 8}};
  std::vector<std::string> missing;
  const auto g = resolve_view(v, sigs, &missing);
  ASSERT_EQ(g.size(), 2u);  // the empty group is dropped
  ASSERT_EQ(g[0].signals.size(), 2u);
  EXPECT_EQ(g[0].signals[0].name, "top.u.state_q[2:0]");
  EXPECT_EQ(g[0].signals[1].name, "top.clk_i");
  EXPECT_EQ(g[0].signals[1].format, Format::kBin);  // 1-bit signals as lines
  ASSERT_EQ(g[1].signals.size(), 2u);
  EXPECT_EQ(g[1].signals[0].name, "top.p[2].acc[7:0]");
  EXPECT_EQ(g[1].signals[1].name, "top.p[10].acc[7:0]");
  EXPECT_TRUE(g[1].collapsed);
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0], "top.nothing");
}

TEST(GtkwView, EveryDutHasAView) {
  for (const char* d : {"tf2", "tinydnn", "testdut", "vta"}) {
    const View* v = find_view(d);
    ASSERT_NE(v, nullptr) << d;
    EXPECT_FALSE(v->groups.empty());
    for (const auto& g : v->groups) {
      for (const auto& s : g.signals) {
        if (!s.filter.empty()) {
          EXPECT_TRUE(v->filters.count(s.filter)) << s.filter;
        }
      }
    }
  }
  EXPECT_EQ(find_view("nope"), nullptr);
}

TEST(GtkwFile, GroupsFormatsFiltersAndMarker) {
  const fs::path d = temp_dir("gtkw");
  View v = top_view();
  v.filters["st"] = {{0, "StIdle"}, {10, "StRun"}};
  const std::vector<ResolvedGroup> g = {{"ctl", {{"top.state_q[4:0]", 5, Format::kHex, "st"}, {"top.clk_i", 1, Format::kBin, ""}}, false},
                                        {"num", {{"top.n[7:0]", 8, Format::kDec, ""}}, true}};
  GtkwFile f = gtkw_file_in(d, 200000, 601000);  // cycles 200 .. 601 (1000 FST units a cycle)
  EXPECT_EQ(f.gtkw_path, (d / "w.gtkw").string());
  write_gtkw(f, v, g);
  const std::string t = read_text(f.gtkw_path);
  // GTKWave trace flags: group begin = blank|grp_begin = 0x800200, end 0x1000200,
  // collapsed group adds collapsed|closed (0x1000 | 0x400000); hex|rjustify 0x22,
  // bin|rjustify 0x28, dec|rjustify 0x24, translated hex 0x2022.
  EXPECT_NE(t.find("[dumpfile] \"" + fs::absolute(f.fst_path).string() + "\""), std::string::npos);
  EXPECT_NE(t.find("[timestart] 200000\n"), std::string::npos);  // GTKWave reads ps, the FST's unit
  EXPECT_NE(t.find("@800200\n-ctl\n"), std::string::npos);
  EXPECT_NE(t.find("@1000200\n-ctl\n"), std::string::npos);
  EXPECT_NE(t.find("@c01200\n-num\n"), std::string::npos);
  EXPECT_NE(t.find("@2022\ntop.state_q[4:0]\n"), std::string::npos);
  EXPECT_NE(t.find("@28\ntop.clk_i\n"), std::string::npos);
  EXPECT_NE(t.find("@24\ntop.n[7:0]\n"), std::string::npos);
  const std::string filt = (d / "w.st.txt").string();
  EXPECT_NE(t.find("^1 " + fs::absolute(filt).string() + "\n"), std::string::npos);
  EXPECT_EQ(read_text(filt), "00 StIdle\n0A StRun\n");  // 5 bits -> 2 hex digits, as GTKWave prints them
  // No marker yet: primary and 26 named markers at -1.
  std::string no_marker = " -1";
  for (int i = 0; i < 26; ++i) no_marker += " -1";
  EXPECT_NE(t.find(no_marker + "\n"), std::string::npos);

  set_gtkw_marker(f.gtkw_path, 420000, "first mismatch out[n=0]");  // cycle 420
  const std::string m = read_text(f.gtkw_path);
  std::string with_marker = " 420000 420000";  // in ps, as GTKWave reads a save file
  for (int i = 1; i < 26; ++i) with_marker += " -1";
  EXPECT_NE(m.find(with_marker + "\n"), std::string::npos) << m;
  EXPECT_NE(m.find("[markername] Afirst mismatch out[n=0]\n"), std::string::npos);
  EXPECT_NE(m.find("[timestart] 360000\n"), std::string::npos);  // 60 cycles before the marker, in ps
  // Setting it again replaces it.
  set_gtkw_marker(f.gtkw_path, 500000, "again");
  const std::string m2 = read_text(f.gtkw_path);
  EXPECT_EQ(m2.find("[markername] Afirst"), std::string::npos);
  EXPECT_NE(m2.find("[markername] Aagain\n"), std::string::npos);
  EXPECT_LT(m2.find("-ctl\n"), m2.find("-num\n"));  // no engine named: the view's order
  // A divergence whose unit names an engine in capitals ("... NUM OUT") puts
  // the group of that name first (VTA: a STORE -> "store engine"), whole.
  set_gtkw_marker(f.gtkw_path, 500, "first mismatch out[n=0] by instruction 3: NUM OUT sram=1");
  const std::string m3 = read_text(f.gtkw_path);
  EXPECT_LT(m3.find("@c01200\n-num\n"), m3.find("@800200\n-ctl\n")) << m3;
  EXPECT_LT(m3.find("@c01200\n-num\n"), m3.find("@24\ntop.n[7:0]\n@1000200\n-num\n")) << m3;
  EXPECT_LT(m3.find("@1000200\n-num\n"), m3.find("@800200\n-ctl\n")) << m3;
  const auto count = [&m3](const std::string& x) {
    std::size_t n = 0;
    for (auto p = m3.find(x); p != std::string::npos; p = m3.find(x, p + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("-ctl\n"), 2u);
  EXPECT_EQ(count("-num\n"), 2u);
  EXPECT_EQ(count("top.state_q[4:0]\n"), 1u);
  fs::remove_all(d);
}

TEST(GtkwFile, MarkerOnAMissingFileIsAnInputError) {
  EXPECT_THROW(set_gtkw_marker("/nonexistent/dir/x.gtkw", 1, "m"), cosim::InputError);
}

namespace {

// What GTKWave 3.3.118 makes of a written view: the window it opens on, in
// ps, from the save file's [timestart], zoom and pane widths (zoom z shows
// 2^-z / 200 ps per pixel; the wave pane is what the window, the SST and
// the signals pane leave). Independent of the writer's own helpers.
struct Opened {
  double start_ps = 0, end_ps = 0;
  int signals_width = 0;
  int64_t marker_ps = -1;
};
Opened opened(const std::string& gtkw) {
  Opened o;
  int w = 0, h = 0, sst = 0;
  double zoom = 0;
  std::istringstream in(read_text(gtkw));
  for (std::string l; std::getline(in, l);) {
    std::sscanf(l.c_str(), "[timestart] %lf", &o.start_ps);
    std::sscanf(l.c_str(), "[size] %d %d", &w, &h);
    std::sscanf(l.c_str(), "[sst_width] %d", &sst);
    std::sscanf(l.c_str(), "[signals_width] %d", &o.signals_width);
    long long m = -1;
    if (!l.empty() && l[0] == '*' && std::sscanf(l.c_str(), "*%lf %lld", &zoom, &m) == 2) o.marker_ps = m;
  }
  const int wave_px = w - sst - o.signals_width - ViewLayout::kChrome;
  o.end_ps = o.start_ps + wave_px * std::exp2(-zoom) / 200.0;
  return o;
}

}  // namespace

TEST(GtkwFile, ZoomFillsTheWavePaneWithTheWindowItShows) {
  // Issue 32 item 9: a fifth of the wave pane was black past the dump's end.
  const fs::path d = temp_dir("gtkw_zoom");
  View v = top_view();
  const std::vector<ResolvedGroup> g = {{"ctl", {{"top.n[7:0]", 8, Format::kDec, ""}}, false}};
  GtkwFile f = gtkw_file_in(d, fst_time(1000), fst_time(137306, 1));  // a whole run: cycles 1000 .. 137306
  write_gtkw(f, v, g);
  Opened o = opened(f.gtkw_path);
  EXPECT_DOUBLE_EQ(o.start_ps, f.start_time * kPsPerFstTick);
  // The window ends at the dump's last sample, not past it (within a pixel).
  const double px_ps = (o.end_ps - o.start_ps) / 800;
  EXPECT_NEAR(o.end_ps, f.end_time * kPsPerFstTick, px_ps) << read_text(f.gtkw_path);

  // At a divergence: 60 cycles either side of the marker fill the pane ...
  set_gtkw_marker(f.gtkw_path, fst_time(5000), "first mismatch");
  o = opened(f.gtkw_path);
  EXPECT_EQ(o.marker_ps, static_cast<int64_t>(fst_time(5000) * kPsPerFstTick));
  EXPECT_NEAR(o.start_ps, fst_time(4940) * kPsPerFstTick, 1);
  EXPECT_NEAR(o.end_ps, fst_time(5060) * kPsPerFstTick, 200);
  // ... and near the dump's end the window stops at its last sample.
  set_gtkw_marker(f.gtkw_path, fst_time(137300), "first mismatch");
  o = opened(f.gtkw_path);
  EXPECT_NEAR(o.start_ps, fst_time(137240) * kPsPerFstTick, 1);
  EXPECT_NEAR(o.end_ps, f.end_time * kPsPerFstTick, 200) << read_text(f.gtkw_path);
  // Near its start, the window begins at the first sample.
  set_gtkw_marker(f.gtkw_path, fst_time(1010), "first mismatch");
  o = opened(f.gtkw_path);
  EXPECT_NEAR(o.start_ps, f.start_time * kPsPerFstTick, 1);
  EXPECT_NEAR(o.end_ps, fst_time(1070) * kPsPerFstTick, 200);
  fs::remove_all(d);
}

TEST(GtkwFile, SignalsPaneFitsTheLongestNameAndValue) {
  // Issue 32 item 9: a fixed 360 px signals pane cut names and values.
  const fs::path d = temp_dir("gtkw_width");
  View v = top_view();
  v.filters["op"] = {{0, "LOAD"}, {1, "A_VERY_LONG_OPCODE_NAME"}};
  GtkwFile f = gtkw_file_in(d, 0, 1005);
  const auto width_of = [&](const std::vector<ResolvedGroup>& g) {
    write_gtkw(f, v, g);
    return opened(f.gtkw_path).signals_width;
  };
  // The name column holds the longest name shown (the last component with
  // its range, 43 characters), the value column the widest value GTKWave
  // shows at the marker (128 bits in hex: '=' and 32 digits) ...
  const std::string longest = "a_register_with_a_rather_long_name_q[127:0]";
  const std::vector<ResolvedGroup> long_one = {
      {"g", {{"top.u." + longest, 128, Format::kHex, ""}, {"top.b", 1, Format::kBin, ""}}, false}};
  const int unmarked = width_of(long_one);
  set_gtkw_marker(f.gtkw_path, 500, "first mismatch");
  const int wide = opened(f.gtkw_path).signals_width;
  EXPECT_EQ(wide, signals_width_for(v, long_one, f));
  EXPECT_GE(wide, static_cast<int>(longest.size() + 33) * kCharPx + 30);
  EXPECT_LE(wide, static_cast<int>(longest.size() + 33) * kCharPx + 60);
  // ... which GTKWave shows only at a marker: without one, room for short
  // values (12 characters), so the waves get the width.
  EXPECT_GE(unmarked, static_cast<int>(longest.size() + 13) * kCharPx + 30);
  EXPECT_LE(unmarked, static_cast<int>(longest.size() + 13) * kCharPx + 60);
  // Short names and values: a narrower pane, so the waves get the room.
  const int narrow = width_of({{"g", {{"top.b", 1, Format::kBin, ""}, {"top.n[7:0]", 8, Format::kDec, ""}}, false}});
  EXPECT_LT(narrow, wide);
  EXPECT_GE(narrow, static_cast<int>(std::string("n[7:0]").size() + 4) * kCharPx + 30);
  // A translated value is as wide as its longest name.
  const int named = signals_width_for(v, {{"g", {{"top.op[2:0]", 3, Format::kHex, "op"}}, false}}, f);
  EXPECT_GE(named, static_cast<int>(std::string("op[2:0]").size() + 1 + 23) * kCharPx + 30);
  // A group's label counts with its brace; a long name loses its
  // parenthesised description (kept as a comment) instead of widening the pane.
  const std::string t_short = (write_gtkw(f, v, {{"engine (what it holds, in a sentence that runs on and on)",
                                                  {{"top.b", 1, Format::kBin, ""}}, false}}),
                               read_text(f.gtkw_path));
  EXPECT_NE(t_short.find("@800200\n-engine\n"), std::string::npos) << t_short;
  EXPECT_NE(t_short.find("[*] group engine: engine (what it holds"), std::string::npos);
  EXPECT_EQ(group_label("AXI read data (gmem1)"), "AXI read data (gmem1)");  // short enough: whole
  fs::remove_all(d);
}

TEST(GtkwFile, CycleCounterIsTheFirstTraceInDecimal) {
  // Issue 32 item 9: GTKWave's ruler says ns; the view reads in cycles.
  const fs::path d = temp_dir("gtkw_cycle");
  View v = top_view();
  const std::vector<ResolvedGroup> g = {{"ctl", {{"top.clk_i", 1, Format::kBin, ""}}, false},
                                        {"num", {{"top.n[7:0]", 8, Format::kDec, ""}}, false}};
  GtkwFile f = gtkw_file_in(d, 0, 1005);
  f.cycle_signal = "top.cycle[31:0]";
  write_gtkw(f, v, g);
  const std::string t = read_text(f.gtkw_path);
  EXPECT_NE(t.find("@24\ntop.cycle[31:0]\n@800200\n-ctl\n"), std::string::npos) << t;
  // The divergence's group moves to the top, below the cycle counter.
  set_gtkw_marker(f.gtkw_path, 500, "first mismatch by instruction 3: NUM OUT");
  const std::string m = read_text(f.gtkw_path);
  EXPECT_NE(m.find("@24\ntop.cycle[31:0]\n@800200\n-num\n"), std::string::npos) << m;
  // Without a counter in the dump, no such trace.
  f.cycle_signal.clear();
  write_gtkw(f, v, g);
  EXPECT_EQ(read_text(f.gtkw_path).find("top.cycle"), std::string::npos);
  fs::remove_all(d);
}
