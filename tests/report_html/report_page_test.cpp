// report.html and the engine timeline, end to end through `cosim run`: the
// lanes of a VTA conv2d run agree with the core's own performance counters
// (token waits exactly, GEMM busy within the start / done cycles of its
// instructions), TF2's and tiny-dnn's lanes with theirs; the page is
// written beside report.json, by replay too, and is self-contained, also
// for a hang (the timeline up to the timeout); --no-timeline switches
// sampling off. The page's parts as units on
// hand-made reports (a mismatch: first divergence, map, GTKWave command).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "report_html/report_page.hpp"
#include "scoreboard/mismatch_map.hpp"
#include "support/cosim_cli.hpp"

namespace fs = std::filesystem;
using cosim::test::CosimCli;
using nlohmann::json;

namespace {

std::string read_text(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

const json& lane(const json& report, const std::string& name) {
  for (const auto& l : report["timeline"]["lanes"]) {
    if (l["name"] == name) return l;
  }
  ADD_FAILURE() << "no lane " << name;
  static const json none = json::object();
  return none;
}

// Cycles of lane `name` in state `state` (by name).
uint64_t cycles_in(const json& report, const std::string& name, const std::string& state) {
  const json& l = lane(report, name);
  const auto& states = l["states"];
  for (std::size_t i = 0; i < states.size(); ++i) {
    if (states[i] == state) return l["cycles"][i].get<uint64_t>();
  }
  ADD_FAILURE() << "lane " << name << " has no state " << state;
  return 0;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

// No reference out of the file: no URL, no script, no external source.
void expect_self_contained(const std::string& html) {
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find(" src="), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
}

}  // namespace

class ReportPage : public CosimCli {};

TEST_F(ReportPage, VtaConv2dLanesAgreeWithTheCoresCounters) {
  const std::string out = work() + "/conv2d";
  const auto r = cosim("run " + scenario("conv2d") + " --out " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  const json rep = report(out);
  const json& perf = rep["perf_counters"];
  ASSERT_TRUE(rep["timeline"].is_object());
  EXPECT_EQ(rep["timeline"]["cycles"], rep["cycles"]);
  EXPECT_EQ(rep["timeline"]["lanes"].size(), 9u);
  for (const char* engine : {"LOAD", "COMPUTE GEMM", "COMPUTE ALU", "COMPUTE LOAD (UOP/ACC)", "STORE"}) {
    EXPECT_GT(cycles_in(rep, engine, "busy"), 0u) << engine;
  }
  // The lane's busy counts each GEMM's start and done cycle too (vta_lanes.hpp).
  const uint64_t gemm = cycles_in(rep, "COMPUTE GEMM", "busy"), counter = perf["gemm_busy"].get<uint64_t>();
  EXPECT_GE(gemm, counter);
  EXPECT_LE(gemm, counter + counter / 100) << "GEMM lane busy " << gemm << " vs gemm_busy " << counter;
  // Token waits: the same condition the stall counters count.
  EXPECT_EQ(cycles_in(rep, "LOAD", "wait compute->load"), perf["stall_compute_to_load"].get<uint64_t>());
  EXPECT_EQ(cycles_in(rep, "STORE", "wait compute->store"), perf["stall_compute_to_store"].get<uint64_t>());
  uint64_t l2c = 0, s2c = 0;
  for (const char* c : {"COMPUTE GEMM", "COMPUTE ALU", "COMPUTE LOAD (UOP/ACC)"}) {
    l2c += cycles_in(rep, c, "wait load->compute");
    s2c += cycles_in(rep, c, "wait store->compute");
  }
  EXPECT_EQ(l2c, perf["stall_load_to_compute"].get<uint64_t>());
  EXPECT_EQ(s2c, perf["stall_store_to_compute"].get<uint64_t>());
  EXPECT_GT(lane(rep, "tokens load->compute")["max"].get<uint64_t>(), 0u);
  // The page, beside report.json: every lane drawn, with bars.
  const std::string html = read_text(out + "/report.html");
  ASSERT_FALSE(html.empty());
  expect_self_contained(html);
  EXPECT_EQ(count(html, "<g class=\"lane "), 9u);
  EXPECT_GT(count(html, "<rect class=\"bar "), 9u);
  EXPECT_NE(html.find("id=\"drift\""), std::string::npos);
}

TEST_F(ReportPage, Tf2AndTinyDnnLanesAgreeWithTheirCounters) {
  const std::string tf2 = work() + "/tf2", tdnn = work() + "/tinydnn";
  auto r = cosim("run " + scenario("tf2_conv3x3") + " --out " + tf2);
  ASSERT_EQ(r.code, 0) << r.out;
  const json a = report(tf2);
  EXPECT_EQ(a["timeline"]["lanes"].size(), 6u);
  EXPECT_EQ(cycles_in(a, "PE array", "busy"), a["perf_counters"]["pe_busy_cycles"].get<uint64_t>());
  EXPECT_EQ(cycles_in(a, "PE array", "wait filters"), a["perf_counters"]["filter_wait_cycles"].get<uint64_t>());
  EXPECT_EQ(cycles_in(a, "PE array", "wait output slot"), a["perf_counters"]["output_wait_cycles"].get<uint64_t>());
  EXPECT_GT(cycles_in(a, "feature loader", "read burst"), 0u);
  EXPECT_GT(cycles_in(a, "filter loader", "weights"), 0u);
  EXPECT_GT(cycles_in(a, "writer", "write"), 0u);
  r = cosim("run " + scenario("tinydnn_fwd") + " --out " + tdnn);
  ASSERT_EQ(r.code, 0) << r.out;
  const json b = report(tdnn);
  const json& p = b["perf_counters"];
  EXPECT_EQ(b["timeline"]["lanes"].size(), 4u);
  EXPECT_EQ(cycles_in(b, "stream in (s_axis)", "beat"), p["in_beats"].get<uint64_t>());
  EXPECT_EQ(cycles_in(b, "stream in (s_axis)", "DUT not ready"), p["in_backpressure_cycles"].get<uint64_t>());
  EXPECT_EQ(cycles_in(b, "stream in (s_axis)", "starved"), p["in_starved_cycles"].get<uint64_t>());
  EXPECT_EQ(cycles_in(b, "MAC pipeline", "step"), p["mac_busy_cycles"].get<uint64_t>());
  EXPECT_GT(cycles_in(b, "normaliser", "busy"), 0u);
  EXPECT_EQ(cycles_in(b, "stream out (m_axis)", "beat"), p["out_beats"].get<uint64_t>());
  EXPECT_EQ(cycles_in(b, "stream out (m_axis)", "testbench not ready"), p["out_backpressure_cycles"].get<uint64_t>());
  expect_self_contained(read_text(tdnn + "/report.html"));
}

TEST_F(ReportPage, ReplayWritesThePageAndNoTimelineSwitchesSamplingOff) {
  const std::string out = work() + "/add", replay = work() + "/add_replay", off = work() + "/add_off";
  ASSERT_EQ(cosim("run " + scenario("add") + " --out " + out).code, 0);
  auto r = cosim("replay " + out + "/trace --out " + replay);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(count(read_text(replay + "/report.html"), "<g class=\"lane "), 9u);
  r = cosim("run " + scenario("add") + " --out " + off + " --no-timeline");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(report(off)["timeline"].is_null());
  const std::string html = read_text(off + "/report.html");
  EXPECT_EQ(count(html, "<g class=\"lane "), 0u);
  EXPECT_NE(html.find("--no-timeline"), std::string::npos);
  EXPECT_EQ(report(off)["cycles"], report(out)["cycles"]);  // sampling never changes the DUT's timing
}

TEST_F(ReportPage, HangPageShowsTheTimelineUpToTheTimeout) {
  const std::string out = work() + "/hang";
  const auto r = cosim("run " + scenario("conv2d") + " --out " + out + " --set testbench.timeout_cycles=20000");
  ASSERT_EQ(r.code, 3) << r.out;
  const json rep = report(out);
  EXPECT_EQ(rep["status"], "timeout");
  ASSERT_TRUE(rep["timeline"].is_object());
  EXPECT_GE(rep["timeline"]["cycles"].get<uint64_t>(), 20000u);
  EXPECT_GT(cycles_in(rep, "COMPUTE GEMM", "busy"), 0u);
  const std::string html = read_text(out + "/report.html");
  expect_self_contained(html);
  EXPECT_EQ(count(html, "<g class=\"lane "), 9u);
  EXPECT_NE(html.find("diagnosis"), std::string::npos);
}

TEST(ReportPageUnit, MismatchShowsWhereWithAMapAndTheGtkwaveCommand) {
  cosim::Tensor e(cosim::DType::kInt8, {1, 4, 4, 8}, cosim::Layout::kNHWC), a = e;
  a.data<int8_t>()[(0 * 4 + 2) * 8 * 4 + 1 * 8 + 5] = 3;  // h=2, w=1, c=5
  const cosim::tb::MismatchMap m = cosim::tb::mismatch_map(e, a);
  ASSERT_EQ(m.rows, 4);
  ASSERT_EQ(m.cols, 8);
  EXPECT_EQ(m.counts[2 * 8 + 5], 1);
  const json rep = json::parse(R"({
    "scenario": "x<y", "target": "vta", "op": "conv2d", "seed": 3, "status": "mismatch", "cycles": 1000,
    "mismatch": {"count": 1, "elements": 128, "checks": [{"name": "output", "mismatches": 1, "elements": 128,
      "first_mismatches": [{"coords": "n=0,h=2,w=1,c=5", "expected": 0, "actual": 3, "write_cycle": 640}],
      "mismatch_map": {"row_axis": "h", "col_axis": "c", "rows": 4, "cols": 8, "row_extent": 4, "col_extent": 8,
                       "row_step": 1, "col_step": 1, "counts": [0,0,0,0,0,0,0,0, 0,0,0,0,0,0,0,0,
                                                                 0,0,0,0,0,1,0,0, 0,0,0,0,0,0,0,0]}}]},
    "first_divergence": {"check": "output", "coords": "n=0,h=2,w=1,c=5", "expected": 0, "actual": 3,
                         "write_cycle": 640, "unit": {"text": "STORE #7"}},
    "timeline": null, "distance": []})");
  const std::string html = cosim::tb::report_html::report_page(rep, {"out/x", "build/tb/cosim/cosim"});
  expect_self_contained(html);
  EXPECT_NE(html.find("x&lt;y"), std::string::npos);
  EXPECT_NE(html.find("id=\"first-divergence\""), std::string::npos);
  EXPECT_NE(html.find("written at cycle 640 by STORE #7"), std::string::npos);
  EXPECT_EQ(count(html, "class=\"cell bad\""), 1u);
  EXPECT_NE(html.find("build/tb/cosim/cosim replay out/x/trace --out out/x/divergence --trace "
                      "out/x/divergence/wave.fst --trace-from 440 --trace-to 840; test -f out/x/divergence/wave.gtkw "
                      "&amp;&amp; gtkwave -a out/x/divergence/wave.gtkw out/x/divergence/wave.fst"),
            std::string::npos)
      << html;
}

TEST(ReportPageUnit, LayersAreTabledAndMarkedOnTheTimeline) {
  const json rep = json::parse(R"({
    "scenario": "net", "target": "vta", "op": "model", "seed": 1, "status": "pass", "cycles": 300,
    "timeline": {"cycles": 300, "bucket_cycles": 1, "lanes": [
      {"name": "unit", "kind": "state", "states": ["idle", "busy"], "cycles": [100, 200],
       "buckets": [[100, 1, 0], [200, 0, 1]]}]},
    "layers": [
      {"op_index": 0, "type": "CONV_2D", "where": "vta", "bit_exact": true, "cycles": 120, "utilization": 0.5,
       "start_cycle": 10, "end_cycle": 130, "distance": {"tflite_double": {"exact_pct": 75.0, "max_abs_diff": 1}}},
      {"op_index": 1, "type": "ADD", "where": "vta", "bit_exact": false, "cycles": 100,
       "start_cycle": 150, "end_cycle": 250},
      {"op_index": 2, "type": "SOFTMAX", "where": "cpu"}],
    "distance": []})");
  const std::string html = cosim::tb::report_html::report_page(rep, {"out/net", "cosim"});
  expect_self_contained(html);
  EXPECT_EQ(count(html, "<tr class=\"layer"), 3u);
  EXPECT_EQ(count(html, "<tr class=\"layer bad\""), 1u);
  EXPECT_NE(html.find("75.00 % / 1"), std::string::npos);
  EXPECT_EQ(count(html, "<rect class=\"layer-span"), 2u);
  EXPECT_EQ(count(html, "<line class=\"layer-edge\""), 2u);
  EXPECT_EQ(count(html, "<rect class=\"bar "), 1u);  // one run of busy
}

// A failing reg_check: the page's summary counts the register checks and a
// section tables them, the failing one marked and spelled out (name,
// offset, value read, expected value, mask), with no element mismatch.
TEST(ReportPageUnit, RegisterChecksAreTabledWithTheFailingOneNamed) {
  const json rep = json::parse(R"({
    "scenario": "host", "target": "testdut", "op": "trace", "seed": 1, "status": "mismatch", "cycles": 40,
    "mismatch": {"count": 0, "elements": 0, "checks": []},
    "register_checks": {"count": 2, "failed": 1, "checks": [
      {"name": "LENGTH", "offset": "0x8", "value": 1024, "expected": 1024, "mask": 4294967295, "held": true,
       "cycle": 3, "line": 4, "text": "register LENGTH (0x8): read 0x00000400, expected 0x00000400 under mask 0xffffffff"},
      {"name": "CTRL", "offset": "0x0", "value": 4, "expected": 2, "mask": 2, "held": false, "cycle": 9, "line": null,
       "text": "register CTRL (0x0): read 0x00000004, expected 0x00000002 under mask 0x00000002"}]},
    "timeline": null, "distance": []})");
  const std::string html = cosim::tb::report_html::report_page(rep, {"out/host", "cosim"});
  expect_self_contained(html);
  EXPECT_NE(html.find("2 register check(s), 1 failing"), std::string::npos) << html;
  EXPECT_NE(html.find("id=\"register-checks\""), std::string::npos) << html;
  EXPECT_EQ(count(html, "<tr class=\"bad\"><td>CTRL</td><td>0x0</td><td>0x00000004</td><td>0x00000002</td>"
                        "<td>0x00000002</td>"),
            1u)
      << html;
  EXPECT_EQ(count(html, "<tr><td>LENGTH</td><td>0x8</td><td>0x00000400</td>"), 1u) << html;
  EXPECT_NE(html.find("register CTRL (0x0): read 0x00000004, expected 0x00000002 under mask 0x00000002"),
            std::string::npos);
  EXPECT_EQ(html.find("register LENGTH (0x8): read 0x00000400, expected"), std::string::npos)
      << "only failing checks are spelled out";
  EXPECT_EQ(html.find("id=\"first-divergence\""), std::string::npos);  // no element diverged
}

// Issue 32 item 5: the network verdict beside the RTL's, in each target's
// report shape (figures as the shipped model scenarios report them): the
// console's top-1 on the page, and a warning when the network output is
// unusable (TF2's float ResNet-8: top-1 0 / 4, SNR -3.3 dB) though the
// layers PASS.
TEST(ReportPageUnit, TheNetworkVerdictStandsBesideTheRtlOne) {
  const auto row_of = [](const std::string& html) {
    const auto at = html.find("id=\"network\"");
    if (at == std::string::npos) return std::string();
    const auto start = html.rfind("<tr", at);
    return html.substr(start, html.find("</tr>", at) - start);
  };
  const json tinydnn = json::parse(R"({"scenario": "tinydnn_resnet8", "target": "tinydnn", "op": "model",
    "status": "pass", "top1_agreement": {"float32": 4, "inputs": 4},
    "network_drift": {"snr_db": {"min": 22.92, "median": 23.87, "max": 24.2}}, "timeline": null, "distance": []})");
  const std::string t = row_of(cosim::tb::report_html::report_page(tinydnn, {"out/t", "cosim"}));
  EXPECT_NE(t.find("4 / 4 (float32)"), std::string::npos) << t;
  EXPECT_NE(t.find("output SNR 22.9 dB"), std::string::npos) << t;
  EXPECT_EQ(t.find("warn"), std::string::npos) << t;
  const json tf2 = json::parse(R"({"scenario": "tf2_resnet8", "target": "tf2", "op": "model", "status": "pass",
    "top1": {"agree": 0, "inputs": 4}, "network_output": {"float_max_abs_diff": 0.656, "float_snr_db": -3.25},
    "timeline": null, "distance": []})");
  const std::string f = row_of(cosim::tb::report_html::report_page(tf2, {"out/f", "cosim"}));
  EXPECT_NE(f.find("class=\"warn\""), std::string::npos) << f;
  EXPECT_NE(f.find("0 / 4 (float)"), std::string::npos) << f;
  EXPECT_NE(f.find("output SNR -3.2 dB"), std::string::npos) << f;
  EXPECT_NE(f.find("do not trust it"), std::string::npos) << f;
  const json vta = json::parse(R"({"scenario": "resnet8", "target": "vta", "op": "model", "status": "pass",
    "top1_agreement": {"inputs": 1, "tflite_double": 1, "tflite_single": 1}, "timeline": null, "distance": []})");
  const std::string v = row_of(cosim::tb::report_html::report_page(vta, {"out/v", "cosim"}));
  EXPECT_NE(v.find("1 / 1 (tflite_double), 1 / 1 (tflite_single)"), std::string::npos) << v;
  EXPECT_EQ(v.find("warn"), std::string::npos) << v;
  // A single layer has no network row.
  const json layer = json::parse(R"({"scenario": "conv2d", "target": "vta", "op": "conv2d", "status": "pass",
    "timeline": null, "distance": []})");
  EXPECT_EQ(row_of(cosim::tb::report_html::report_page(layer, {"out/c", "cosim"})), "");
}
