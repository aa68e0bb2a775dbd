// report.html and the engine timeline, end to end through `cosim run`: the
// lanes of a VTA conv2d run agree with the core's own performance counters
// (token waits exactly, GEMM busy within the start / done cycles of its
// instructions), TF2's and tiny-dnn's lanes with theirs; the page is
// written beside report.json, by replay too, and is self-contained, also
// for a hang (the timeline up to the timeout); --no-timeline switches
// sampling off. The page's parts as units on
// hand-made reports (a mismatch: first divergence, map, GTKWave command).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <initializer_list>
#include <regex>
#include <sstream>
#include <utility>
#include <vector>

#include "report_html/report_page.hpp"
#include "scoreboard/mismatch_map.hpp"
#include "support/cosim_cli.hpp"
#include "support/text_file.hpp"

namespace fs = std::filesystem;
using cosim::test::CosimCli;
using cosim::test::read_text;
using nlohmann::json;

namespace {

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
  // The lane's busy counts each GEMM's start and done cycle too (vta_timeline.hpp).
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
  EXPECT_NE(html.find("build/tb/cosim/cosim replay out/x/trace --out out/x/divergence --wave "
                      "out/x/divergence/wave.fst --wave-from 440 --wave-to 840; test -f out/x/divergence/wave.gtkw "
                      "&amp;&amp; gtkwave -a out/x/divergence/wave.gtkw out/x/divergence/wave.fst"),
            std::string::npos)
      << html;
}

// A stream's element has no address and no write cycle (only memory is
// logged by write): the page does not say the DUT never wrote it.
TEST(ReportPageUnit, AStreamMismatchIsNotCalledNeverWritten) {
  const json rep = json::parse(R"({
    "scenario": "s", "target": "krnl", "op": "addc", "seed": 1, "status": "mismatch", "cycles": 100,
    "mismatch": {"count": 1, "elements": 4, "checks": [{"name": "out", "mismatches": 1, "elements": 4,
      "first_mismatches": [{"coords": "i0=2", "expected": 5, "actual": 6, "write_cycle": null}]}]},
    "first_divergence": {"check": "out", "coords": "i0=2", "expected": 5, "actual": 6, "write_cycle": null},
    "timeline": null, "distance": []})");
  const std::string html = cosim::tb::report_html::report_page(rep, {"out/s", "cosim"});
  EXPECT_EQ(html.find("never"), std::string::npos) << html;
  EXPECT_NE(html.find("came out of a stream"), std::string::npos) << html;
  EXPECT_NE(html.find("<td>i0=2</td><td>5</td><td>6</td><td>-</td><td>-</td>"), std::string::npos) << html;
}

// Every element matched, a register read did not (a batch's call 1500): the page says where, and
// the command opens GTKWave around that read's cycle through a replay of the plugin's trace.
TEST(ReportPageUnit, ARegisterOnlyFailureOpensAtTheFailingRead) {
  const json rep = json::parse(R"({
    "scenario": "batch", "target": "q3", "op": "call", "seed": 1, "status": "mismatch", "cycles": 32000,
    "mismatch": {"count": 0, "elements": 0, "checks": []},
    "register_checks": {"count": 2000, "failed": 1, "listed": "failing", "checks": [
      {"name": "OUT.call1500", "offset": "0x18", "value": 76, "expected": 77, "mask": 4294967295, "held": false,
       "cycle": 24016, "line": null, "text": "register OUT.call1500 (0x18): read 0x0000004c, expected 0x0000004d"}]},
    "first_divergence": {"register": "OUT.call1500", "offset": "0x18", "expected": 77, "actual": 76,
                         "mask": 4294967295, "cycle": 24016},
    "timeline": null, "distance": []})");
  const std::string html = cosim::tb::report_html::report_page(rep, {"out/b", "cosim", "/proj"});
  EXPECT_NE(html.find("First divergence: register <b>OUT.call1500</b> (0x18) read 0x0000004c, expected 0x0000004d"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("COSIM_DUT_PATH=/proj cosim replay out/b/trace --out out/b/divergence --wave "
                      "out/b/divergence/wave.fst --wave-from 23816 --wave-to 24216"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("2 000 checks, 1 failing: only the failing ones are listed"), std::string::npos) << html;
}

// 64-bit values are shown in full: 2^53 + 1 is not printed as 2^53, nor 2^64 - 1 as 2^64.
TEST(ReportPageUnit, SixtyFourBitValuesAreShownInFull) {
  const json rep = json::parse(R"({
    "scenario": "s", "target": "krnl", "op": "call", "seed": 1, "status": "mismatch", "cycles": 100,
    "mismatch": {"count": 1, "elements": 4, "checks": [{"name": "out", "mismatches": 1, "elements": 4,
      "first_mismatches": [{"coords": "i0=2", "expected": 9007199254740993, "actual": 18446744073709551615,
                            "write_cycle": null}]}]},
    "first_divergence": null, "timeline": null, "distance": []})");
  const std::string html = cosim::tb::report_html::report_page(rep, {"out/s", "cosim"});
  const std::string thin = "\u2009";
  EXPECT_NE(html.find("9" + thin + "007" + thin + "199" + thin + "254" + thin + "740" + thin + "993"), std::string::npos) << html;
  EXPECT_NE(html.find("18" + thin + "446" + thin + "744" + thin + "073" + thin + "709" + thin + "551" + thin + "615"),
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

namespace {

// The Layers table of a page, split: header texts (tags dropped) and, per
// row, its class and cell texts.
struct LayerTable {
  std::vector<std::string> headers;
  struct Row {
    std::string cls;
    std::vector<std::string> cells;
  };
  std::vector<Row> rows;
  // The cell of `row` under the header `header` ("" when there is no such column).
  std::string at(std::size_t row, const std::string& header) const {
    for (std::size_t c = 0; c < headers.size(); ++c) {
      if (headers[c] == header && row < rows.size() && c < rows[row].cells.size()) return rows[row].cells[c];
    }
    return "";
  }
  bool has(const std::string& header) const {
    return std::find(headers.begin(), headers.end(), header) != headers.end();
  }
  // One check per {header, text}: the cell of `row` under that header.
  void expect_row(std::size_t row, std::initializer_list<std::pair<std::string, std::string>> cells) const {
    for (const auto& [header, text] : cells) EXPECT_EQ(at(row, header), text) << "row " << row << ", " << header;
  }
};

std::string strip_tags(const std::string& s) {
  std::string o;
  bool tag = false;
  for (char c : s) {
    if (c == '<') tag = true;
    else if (c == '>') tag = false;
    else if (!tag) o += c;
  }
  return o;
}

// The elements <tag ...>...</tag> (not nested) in `s`: their attributes and inner text.
std::vector<std::pair<std::string, std::string>> elements(const std::string& s, const std::string& tag) {
  std::vector<std::pair<std::string, std::string>> out;
  const std::string open = "<" + tag, close = "</" + tag + ">";
  for (std::size_t p = s.find(open); p != std::string::npos; p = s.find(open, p + 1)) {
    const char after = s[p + open.size()];
    if (after != '>' && after != ' ') continue;
    const std::size_t gt = s.find('>', p), end = s.find(close, gt);
    if (gt == std::string::npos || end == std::string::npos) break;
    out.emplace_back(s.substr(p + open.size(), gt - p - open.size()), s.substr(gt + 1, end - gt - 1));
    p = end;
  }
  return out;
}

LayerTable layer_table_of(const std::string& html) {
  LayerTable t;
  const auto begin = html.find("<table class=\"layers\"");
  if (begin == std::string::npos) return t;
  const std::string table = html.substr(begin, html.find("</table>", begin) - begin);
  const std::size_t body = table.find("</thead>");
  std::string head = table.substr(0, body);
  // Header "<br>" reads as a space, as the browser shows it.
  for (std::size_t p = head.find("<br>"); p != std::string::npos; p = head.find("<br>")) head.replace(p, 4, " ");
  for (const auto& [attrs, inner] : elements(head, "th")) t.headers.push_back(strip_tags(inner));
  for (const auto& [attrs, inner] : elements(table.substr(body), "tr")) {
    const auto c = attrs.find("class=\"");
    LayerTable::Row row{c == std::string::npos ? "" : attrs.substr(c + 7, attrs.find('"', c + 7) - c - 7), {}};
    for (const auto& cell : elements(inner, "td")) row.cells.push_back(strip_tags(cell.second));
    t.rows.push_back(row);
  }
  return t;
}

bool has_class(const std::string& cls, const std::string& name) {
  std::istringstream s(cls);
  std::string w;
  while (s >> w) {
    if (w == name) return true;
  }
  return false;
}

}  // namespace

// Issue 32 item 5: the Layers table has designed, labelled columns with
// units, not report.json's keys; a column no row fills is not shown; every
// raw field stays in the row's "fields" disclosure. A VTA model's rows as
// tb/vta/vta_model_op.cpp writes them.
TEST(ReportPageUnit, LayersHaveDesignedColumnsNotReportKeys) {
  const json rep = json::parse(R"({
    "scenario": "resnet8", "target": "vta", "op": "model", "seed": 1, "status": "pass", "cycles": 30000,
    "timeline": null, "distance": [],
    "layers": [
      {"bit_exact": true, "check": "op00_conv2d", "compute_bound": 0.19412322274881516, "cycles": 11166,
       "distance": {"tflite_double": {"exact_pct": 73.272705078125, "max_abs_diff": 1.0},
                    "tflite_single": {"exact_pct": 73.358154296875, "max_abs_diff": 1.0}},
       "end_cycle": 11182, "gemm_uops": 2048, "input_from": {"dram": false}, "instructions": 111, "macs": 424128,
       "op_index": 0, "run": 0, "shapes": "1x32x32x3 -> 1x32x32x16, 3x3 s1", "start_cycle": 16, "status": "vta",
       "type": "CONV_2D", "utilization": 0.18341393516030807, "where": "vta"},
      {"bit_exact": true, "check": "op03_add", "cycles": 10138, "gemm_busy_fraction": 0.2064509765239692,
       "distance": {"tflite_double": {"exact_pct": 56.92, "max_abs_diff": 7.0}}, "gemm_uops": 1024,
       "input_from": {"dram": false}, "instructions": 142, "macs": 0, "op_index": 3, "run": 1,
       "shapes": "1x32x32x16 + 1x32x32x16 -> 1x32x32x16", "status": "vta", "type": "ADD", "utilization": null,
       "where": "vta"}]})");
  const std::string html = cosim::tb::report_html::report_page(rep, {"out/r", "cosim"});
  const LayerTable t = layer_table_of(html);
  ASSERT_EQ(t.rows.size(), 2u) << html;
  for (const auto& h : t.headers) {
    EXPECT_EQ(h.find('_'), std::string::npos) << "a report.json key as a header: " << h;
    for (const char* key : {"status", "check", "run", "instructions", "gemm", "bit", "utilization", "compute_bound",
                            "start", "end", "input_from"}) {
      EXPECT_NE(h, key) << "a report.json key as a header";
    }
  }
  for (const char* h : {"op", "type", "shapes", "where", "exact", "cycles", "MACs", "util. %", "compute bound %",
                        "vs TFLite double exact % / max |diff|", "vs TFLite single exact % / max |diff|", "fields"}) {
    EXPECT_TRUE(t.has(h)) << h << " in " << ::testing::PrintToString(t.headers);
  }
  // No row has them: no column.
  for (const char* h : {"cycles / input", "input", "SNR vs float32 (dB)", "layer SNR (dB)"}) EXPECT_FALSE(t.has(h)) << h;
  t.expect_row(0, {{"where", "DUT"}, {"exact", "yes"}, {"cycles", "11\u2009166"}, {"util. %", "18.3"},
                   {"compute bound %", "19.4"}, {"vs TFLite double exact % / max |diff|", "73.27 % / 1"}});
  EXPECT_EQ(t.at(1, "compute bound %"), "\u2013");  // an ADD has none
  // The raw fields, one click away: the keys the columns leave out too.
  EXPECT_NE(t.rows[1].cells.back().find("gemm_busy_fraction 0.2065"), std::string::npos) << t.rows[1].cells.back();
  EXPECT_NE(html.find("<details><summary>fields</summary>"), std::string::npos);
}

// Issue 32 item 5: a row is tinted failed only when its bit_exact is false;
// null (a fused ADD, checked with its convolution) and absent (a CPU
// operator) are "not checked": neutral, "—". CPU operators the delegate
// lists in "not_supported" are rows too, in op order, with their shapes.
TEST(ReportPageUnit, OnlyFailedRowsAreTintedAndCpuRowsHaveShapes) {
  const json rep = json::parse(R"({
    "scenario": "net", "target": "vta", "op": "model", "seed": 1, "status": "mismatch", "cycles": 300,
    "timeline": null, "distance": [],
    "layers": [
      {"op_index": 0, "type": "CONV_2D", "where": "vta", "bit_exact": true, "cycles": 120, "shapes": "1x8x8x16 -> 1x8x8x16"},
      {"op_index": 1, "type": "CONV_2D", "where": "vta", "bit_exact": false, "cycles": 100, "shapes": "1x8x8x16 -> 1x8x8x16"},
      {"op_index": 2, "type": "ADD", "where": "tf2:op1", "bit_exact": null, "shapes": "1x8x8x16 -> 1x8x8x16"},
      {"op_index": 4, "type": "SOFTMAX", "where": "cpu", "bit_exact": null, "shapes": "1x10 -> 1x10"}],
    "not_supported": [{"op_index": 3, "type": "AVERAGE_POOL_2D", "reason": "AVERAGE_POOL_2D",
                       "shapes": "1x8x8x16 -> 1x1x1x16"}]})");
  const std::string html = cosim::tb::report_html::report_page(rep, {"out/net", "cosim"});
  const LayerTable t = layer_table_of(html);
  ASSERT_EQ(t.rows.size(), 5u) << html;
  for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(t.at(i, "op"), std::to_string(i)) << "op order";
  EXPECT_FALSE(has_class(t.rows[0].cls, "bad"));
  EXPECT_TRUE(has_class(t.rows[1].cls, "bad"));
  EXPECT_EQ(t.at(1, "exact"), "NO");
  for (std::size_t i : {2u, 3u, 4u}) {
    EXPECT_FALSE(has_class(t.rows[i].cls, "bad")) << "row " << i << " " << t.rows[i].cls;
    EXPECT_TRUE(has_class(t.rows[i].cls, "unchecked")) << "row " << i;
    EXPECT_EQ(t.at(i, "exact"), "\u2014") << "row " << i;
  }
  EXPECT_EQ(t.at(2, "where"), "fused into op 1");
  t.expect_row(3, {{"where", "CPU"}, {"type", "AVERAGE_POOL_2D"}, {"shapes", "1x8x8x16 -&gt; 1x1x1x16"}});
  EXPECT_EQ(t.at(4, "shapes"), "1x10 -&gt; 1x10");
  EXPECT_EQ(count(html, "<tr class=\"layer bad"), 1u);
}

// Issue 32 item 5: a float model's page shows each layer's drift against
// the float model (tiny-dnn's float32_drift, TF2's layer / INQ / network
// SNR) in the table, in dB, and charts it in the drift section instead of
// "No reference semantics".
TEST(ReportPageUnit, FloatModelsShowPerLayerDrift) {
  const json tinydnn = json::parse(R"({
    "scenario": "tinydnn_resnet8", "target": "tinydnn", "op": "model", "seed": 1, "status": "pass", "cycles": 2000,
    "timeline": null, "distance": [],
    "layers": [
      {"bit_exact": true, "cycles": 129448, "cycles_per_input": 32362, "macs": 1835008, "op_index": 0,
       "float32_drift": {"max_abs_diff": 0.008116364479064941, "snr_db": 47.6043351979563},
       "shapes": "32x32x3 -> 32x32x16, 3x3 s1 relu", "type": "CONV_2D", "utilization": 0.8859773808788085,
       "where": "tinydnn"},
      {"bit_exact": null, "float32_drift": {"max_abs_diff": 0.04183149337768555, "snr_db": 36.352954563480225},
       "macs": 0, "op_index": 1, "reason": "ADD: the accelerator runs convolutions only",
       "shapes": "32x32x16 -> 32x32x16", "type": "ADD", "where": "cpu"},
      {"bit_exact": null, "float32_drift": {"max_abs_diff": 0.5, "snr_db": 7.31}, "macs": 0, "op_index": 2,
       "shapes": "1x10 -> 1x10", "type": "SOFTMAX", "where": "cpu"}]})");
  std::string html = cosim::tb::report_html::report_page(tinydnn, {"out/t", "cosim"});
  LayerTable t = layer_table_of(html);
  ASSERT_EQ(t.rows.size(), 3u) << html;
  t.expect_row(0, {{"SNR vs float32 (dB)", "47.6"}, {"max |diff| vs float32", "0.0081"}, {"cycles / input", "32\u2009362"}});
  EXPECT_EQ(t.at(1, "SNR vs float32 (dB)"), "36.4");
  EXPECT_EQ(t.at(2, "SNR vs float32 (dB)"), "7.3");
  EXPECT_EQ(t.at(1, "MACs"), "\u2013");  // 0 on the CPU is no figure
  EXPECT_EQ(html.find("No reference semantics"), std::string::npos);
  EXPECT_NE(html.find("id=\"layer-snr\""), std::string::npos);
  EXPECT_NE(html.find("47.6 dB, max |diff| 0.0081"), std::string::npos);
  EXPECT_EQ(count(html, "<rect class=\"snr-bar low\""), 1u);  // below 10 dB
  const json tf2 = json::parse(R"({
    "scenario": "tf2_resnet8", "target": "tf2", "op": "model", "seed": 1, "status": "pass", "cycles": 2000,
    "timeline": null, "distance": [],
    "layers": [
      {"bit_exact": true, "cycles_per_input": 2211, "inq_max_abs_err": 0.626, "inq_snr_db": 8.731176301309535,
       "layer_max_abs_err": 0.6316462736576796, "layer_snr_db": 8.728624576216133, "macs": 9437184,
       "network_max_abs_err": 0.676, "network_snr_db": 8.846243609093067, "op_index": 0,
       "pe_utilization": 0.27785189372526853, "q_in": [5, 5], "shapes": "32x32x16 -> 32x32x16, k3 s1 relu",
       "type": "CONV_2D", "where": "tf2"},
      {"bit_exact": null, "layer_snr_db": 8.728624576216133, "layer_max_abs_err": 0.6316462736576796,
       "network_snr_db": 7.169, "op_index": 1, "macs": 0, "shapes": "32x32x16 -> 32x32x16", "type": "ADD",
       "where": "tf2:op0"},
      {"bit_exact": null, "macs": 0, "network_snr_db": -3.2509626009473687, "op_index": 2, "shapes": "1x10 -> 1x10",
       "type": "SOFTMAX", "where": "cpu"}]})");
  html = cosim::tb::report_html::report_page(tf2, {"out/f", "cosim"});
  t = layer_table_of(html);
  ASSERT_EQ(t.rows.size(), 3u) << html;
  t.expect_row(0, {{"layer SNR (dB)", "8.7"}, {"layer max |err|", "0.6316"}, {"INQ weights SNR (dB)", "8.7"},
                   {"network SNR (dB)", "8.8"}, {"util. %", "27.8"}});
  EXPECT_EQ(t.at(2, "network SNR (dB)"), "-3.3");
  EXPECT_EQ(t.at(1, "where"), "fused into op 0");
  EXPECT_FALSE(t.has("cycles"));
  EXPECT_EQ(html.find("No reference semantics"), std::string::npos);
  EXPECT_EQ(count(html, "<line class=\"net-tick\""), 2u);
}

// Issue 32 item 5: "memory delay" is defined on the page: the cycles in
// which at least one DRAM access was waiting, and their share of the run.
TEST(ReportPageUnit, MemoryWaitIsDefinedAndAShareOfTheRun) {
  const json rep = json::parse(R"({"scenario": "tf2_conv1x1", "target": "tf2", "op": "conv2d", "seed": 1,
    "status": "pass", "cycles": 1432, "timeline": null, "distance": [],
    "memory": {"delay_cycles": 716, "dut_read_bytes": 4096, "dut_write_bytes": 1024}})");
  const std::string html = cosim::tb::report_html::report_page(rep, {"out/m", "cosim"});
  EXPECT_NE(html.find("<th>memory wait</th><td>716 cycles (50.0 % of the run) in which at least one DRAM access was "
                      "waiting"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("A cycle counts once however many accesses wait in it"), std::string::npos);
  EXPECT_EQ(html.find("delay cycles"), std::string::npos);
}
