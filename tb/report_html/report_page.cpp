#include "report_html/report_page.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <system_error>
#include <vector>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "report_html/histogram_svg.hpp"
#include "report_html/html.hpp"
#include "report_html/layer_table.hpp"
#include "report_html/mismatch_svg.hpp"
#include "report_html/timeline_svg.hpp"

namespace fs = std::filesystem;

namespace cosim::tb::report_html {

namespace {

const char* const kStyle = R"(
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #212529; max-width: 1240px; }
h1 { font-size: 22px; margin: 0 0 8px; } h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid #dee2e6; }
h3 { font-size: 14px; margin: 16px 0 6px; }
.status { padding: 2px 10px; border-radius: 10px; color: #fff; font-weight: 600; font-size: 14px; }
.status.pass { background: #2f9e44; } .status.skipped { background: #868e96; } .status.other { background: #e03131; }
table { border-collapse: collapse; margin: 4px 0; } td, th { padding: 3px 10px; border-bottom: 1px solid #e9ecef; text-align: left; vertical-align: top; }
th { background: #f8f9fa; font-weight: 600; } td.num { text-align: right; } tr.bad td { background: #fff5f5; }
table.summary th { width: 170px; } tr.warn td { background: #fff4e6; color: #a34700; font-weight: 600; }
.note { color: #495057; font-size: 13px; } code, pre { font: 12px ui-monospace, monospace; }
pre.command { background: #f1f3f5; padding: 8px; white-space: pre-wrap; word-break: break-all; }
.divergence { background: #fff5f5; border-left: 4px solid #e03131; padding: 6px 10px; }
svg text { font: 11px system-ui, sans-serif; fill: #343a40; }
svg.timeline .axis line { stroke: #dee2e6; } svg.timeline .axis text { text-anchor: middle; }
svg.timeline .lane-label { text-anchor: end; } svg.timeline .lane-bg { fill: #f1f3f5; }
svg.timeline .level-max { fill: #a5d8ff; } svg.timeline .layer-span { fill: #ffe8a1; } svg.timeline .layer-edge { stroke: #495057; stroke-width: 0.6; stroke-dasharray: 2 2; }
svg.timeline .layer-span.odd { fill: #a5d8ff; } svg.timeline .layer-label { text-anchor: middle; font-size: 10px; } svg.timeline .level-mean { fill: #1c7ed6; }
.key { white-space: nowrap; margin-right: 10px; } .key i { display: inline-block; width: 10px; height: 10px; margin-right: 4px; }
.drifts { display: flex; flex-wrap: wrap; gap: 8px 24px; } figure.drift { margin: 0; } figcaption { font-size: 12px; }
svg.histogram .hbar { fill: #f08c00; } svg.histogram .hbar.exact { fill: #2f9e44; }
svg.histogram text { text-anchor: middle; font-size: 10px; } svg text.axis-note { text-anchor: start; fill: #868e96; }
svg.mismatch-map .cell { fill: #f1f3f5; }
details { margin: 6px 0; }
/* The Layers table fits the page's width; no scroll box, which would clip a row's open "fields". */
.layers-box { position: relative; }
table.layers { width: 100%; font-size: 12px; } table.layers th { font-size: 12px; vertical-align: bottom; }
table.layers th.num { text-align: right; } table.layers td { white-space: nowrap; font-variant-numeric: tabular-nums; }
table.layers td, table.layers th { padding: 3px 6px; }
table.layers td.shapes { white-space: normal; min-width: 140px; } table.layers td.type { font-family: ui-monospace, monospace; font-size: 11px; }
table.layers tr.unchecked td { color: #495057; } table.layers tr.cpu td { background: #f8f9fa; }
table.layers td.exact-yes { color: #2b8a3e; } table.layers td.exact-no { color: #c92a2a; } table.layers td.exact-none { color: #868e96; }
table.layers td.where-fused { color: #495057; font-style: italic; } table.layers .none { color: #ced4da; }
table.layers td.low { color: #c92a2a; font-weight: 600; } table.layers tr.bad td { background: #fff5f5; }
table.layers td.raw { position: relative; } table.layers td.raw details { margin: 0; } table.layers td.raw summary { cursor: pointer; color: #1c7ed6; }
table.layers td.raw details[open] > div.raw-fields { position: absolute; right: 0; top: 100%; z-index: 2; width: 460px;
  white-space: normal; overflow-wrap: anywhere; background: #fff; border: 1px solid #ced4da; padding: 6px 8px;
  box-shadow: 0 2px 6px rgba(0,0,0,.15); text-align: left; }
svg.layer-snr .snr-bar { fill: #1c7ed6; } svg.layer-snr .snr-bar.low { fill: #e03131; } svg.layer-snr .lane-label { text-anchor: end; }
svg.layer-snr .grid { stroke: #e9ecef; } svg.layer-snr .grid-label { text-anchor: middle; fill: #868e96; font-size: 10px; }
svg.layer-snr .usable { stroke: #e03131; stroke-dasharray: 3 2; } svg.layer-snr .net-tick { stroke: #f08c00; stroke-width: 3; }
svg.layer-snr text.snr-value.low { fill: #c92a2a; }
)";

void row(std::ostringstream& o, const std::string& key, const std::string& html_value) {
  o << "<tr><th>" << escape(key) << "</th><td>" << html_value << "</td></tr>\n";
}

// The network verdict beside the RTL one: top-1 agreement with each
// reference (VTA: TFLite in both roundings; tiny-dnn: float32; TF2: the
// float model) and the network output's worst SNR, in a warning style when
// the top-1 disagrees or the SNR is below kUsableSnrDb: a green PASS of the
// layers says nothing of a network output that is unusable.
void network_rows(std::ostringstream& o, const nlohmann::json& r) {
  std::vector<std::string> parts;
  bool poor = false;
  const auto agree = [&](const nlohmann::json& n, const nlohmann::json& inputs, const std::string& ref) {
    if (!n.is_number() || !inputs.is_number()) return;
    parts.push_back(value_text(n) + " / " + value_text(inputs) + " (" + ref + ")");
    poor = poor || n.get<double>() < inputs.get<double>();
  };
  if (r.contains("top1_agreement") && r["top1_agreement"].is_object()) {
    const auto& t = r["top1_agreement"];
    for (const auto& [ref, n] : t.items()) {
      if (ref != "inputs") agree(n, t.value("inputs", nlohmann::json()), ref);
    }
  } else if (r.contains("top1") && r["top1"].is_object() && r["top1"].contains("agree")) {
    agree(r["top1"]["agree"], r["top1"].value("inputs", nlohmann::json()), "float");
  }
  std::optional<double> snr;
  if (r.contains("network_drift") && r["network_drift"].contains("snr_db")) {
    const auto& v = r["network_drift"]["snr_db"].value("min", nlohmann::json());
    if (v.is_number()) snr = v.get<double>();
  } else if (r.contains("network_output") && r["network_output"].is_object()) {
    const auto& n = r["network_output"];
    if (n.value("float_snr_db", nlohmann::json()).is_number()) snr = n["float_snr_db"].get<double>();
    if (n.contains("float32") && n["float32"].value("snr_db", nlohmann::json()).is_number()) {
      snr = n["float32"]["snr_db"].get<double>();
    }
  }
  if (parts.empty() && !snr) return;
  std::string text;
  for (const auto& p : parts) text += (text.empty() ? "" : ", ") + escape(p);
  if (snr) {
    text += (text.empty() ? "" : "; ") + std::string("output SNR ") + number(*snr, 1) + " dB";
    poor = poor || *snr < kUsableSnrDb;
  }
  if (poor) text += " &mdash; the network's output differs from the reference: do not trust it";
  o << "<tr" << (poor ? " class=\"warn\"" : "") << " id=\"network\"><th>network (top-1)</th><td>" << text
    << "</td></tr>\n";
}

std::string summary(const nlohmann::json& r) {
  std::ostringstream o;
  o << "<table class=\"summary\" id=\"summary\">\n";
  row(o, "target / op", escape(r.value("target", "?") + " / " + r.value("op", "?")));
  row(o, "seed", value_text(r.value("seed", nlohmann::json())));
  if (r.contains("build")) {
    const std::string b = r.value("build", "");
    row(o, "build", escape(b) + (b == "fast" ? " (no assertions: cosim run --fast)" : " (assertions in)"));
  }
  if (!r.value("workload", std::string()).empty()) row(o, "workload", escape(r["workload"].get<std::string>()));
  if (r.contains("reason")) row(o, "reason", escape(value_text(r["reason"])));
  if (r.contains("diagnosis")) row(o, "diagnosis", escape(value_text(r["diagnosis"])));
  if (r.contains("assertion") && r["assertion"].is_object()) {
    const auto& a = r["assertion"];
    row(o, "assertion", escape(a.value("name", "?") + " in " + a.value("instance", "?") + " at cycle " +
                               value_text(a.value("cycle", nlohmann::json())) + ": " + a.value("message", "")));
  }
  if (r.contains("cycles")) row(o, "cycles", value_text(r["cycles"]));
  if (r.contains("macs")) {
    row(o, "MACs / utilization",
        value_text(r["macs"]) + " / " +
            (r.value("utilization", nlohmann::json()).is_number() ? percent(r["utilization"].get<double>()) : "n/a"));
  }
  if (r.contains("mismatch") && r["mismatch"].is_object()) {
    const auto& m = r["mismatch"];
    row(o, "checked", value_text(m.value("elements", nlohmann::json())) + " elements in " +
                          std::to_string(m.value("checks", nlohmann::json::array()).size()) + " check(s), " +
                          value_text(m.value("count", nlohmann::json())) + " mismatching");
  }
  // Weak checks (scoreboard/check_strength.hpp): compared, but a constant
  // expected tensor proves little.
  if (r.contains("mismatch") && r["mismatch"].is_object()) {
    int shown = 0;
    for (const auto& c : r["mismatch"].value("checks", nlohmann::json::array())) {
      if (!c.contains("weak") || !c["weak"].is_object()) continue;
      if (++shown > 5) break;  // a network: report.json "weak_checks" has them all
      const auto& w = c["weak"];
      const std::string v = value_text(w.value("value", nlohmann::json()));
      row(o, "weak check",
          "<span style=\"color: #e8590c; font-weight: 600\">" + escape(c.value("name", "?")) + ": " +
              (w.value("constant", false) ? "all " + value_text(w.value("elements", nlohmann::json())) +
                                                " expected elements are " + escape(v)
                                          : number(w.value("fraction", 0.0) * 100.0, 2) + " % of the expected elements are " +
                                                escape(v)) +
              "; a DUT writing only " + escape(v) + " would pass</span>");
    }
  }
  if (r.contains("register_checks") && r["register_checks"].is_object()) {
    const auto& g = r["register_checks"];
    if (g.value("count", int64_t{0}) > 0) {
      row(o, "registers", value_text(g.value("count", nlohmann::json())) + " register check(s), " +
                              value_text(g.value("failed", nlohmann::json())) + " failing");
    }
  }
  for (const auto& d : r.value("distance", nlohmann::json::array())) {
    if (r["distance"].size() > 8) break;  // a network: the layer table has them
    row(o, "vs " + d.value("reference", "?"),
        number(d.value("exact_pct", 0.0), 2) + " % exact, max |diff| " +
            value_text(d.value("max_abs_diff", nlohmann::json())) + " (" + escape(d.value("check", "")) + ")");
  }
  network_rows(o, r);
  if (r.contains("wall_seconds")) {
    row(o, "wall", number(r.value("wall_seconds", 0.0), 3) + " s" +
                       (r.contains("simulated_khz") ? ", " + number(r.value("simulated_khz", 0.0), 1) + " kHz simulated"
                                                    : std::string()));
  }
  if (r.contains("memory") && r["memory"].is_object()) {
    const auto& m = r["memory"];
    row(o, "DUT memory", value_text(m.value("dut_read_bytes", nlohmann::json())) + " bytes read, " +
                             value_text(m.value("dut_write_bytes", nlohmann::json())) + " written");
    // report.json memory.delay_cycles: the cycles in which at least one of
    // the DUT's DRAM accesses was waiting for the memory model (counted once
    // however many waited), so never more than the run's cycles.
    const nlohmann::json& wait = m.value("delay_cycles", nlohmann::json());
    if (wait.is_number()) {
      const nlohmann::json& cycles = r.value("cycles", nlohmann::json());
      std::string share;
      if (cycles.is_number() && cycles.get<double>() > 0) {
        share = " (" + percent(wait.get<double>() / cycles.get<double>()) + " of the run)";
      }
      o << "<tr id=\"memory-wait\"><th>memory wait</th><td>" << value_text(wait) << " cycles" << share
        << " in which at least one DRAM access was waiting<div class=\"note\">A cycle counts once however many "
           "accesses wait in it: the time the DUT's reads and writes were held by the memory's latency, not the "
           "sum of their latencies (report.json <code>memory.delay_cycles</code>).</div></td></tr>\n";
    }
  }
  // A fault the scenario had the testbench inject: what the checkers saw is
  // not the DUT's doing, and the page says so.
  const bool injected = r.contains("injected_fault") && r["injected_fault"].is_string();
  if (injected) {
    row(o, "injected fault", "fault=" + escape(r["injected_fault"].get<std::string>()) +
                                 ": the testbench broke the protocol on purpose");
  }
  for (const auto& e : r.value("dut_errors", nlohmann::json::array())) {
    row(o, injected ? "fault seen" : "DUT error", escape(value_text(e)));
  }
  o << "</table>\n";
  return o.str();
}

// The reg_check steps (report.json "register_checks"): one row each, the
// failing ones marked, with the register's name, offset, value read,
// expected value and mask.
std::string register_section(const nlohmann::json& r) {
  const nlohmann::json g = r.value("register_checks", nlohmann::json::object());
  if (!g.is_object() || g.value("checks", nlohmann::json::array()).empty()) return "";
  std::ostringstream o;
  if (g.value("listed", "all") == "failing") {
    o << "<p class=\"note\">" << number(g.value("count", 0.0)) << " checks, " << number(g.value("failed", 0.0))
      << " failing: only the failing ones are listed (a run of many register checks, a batch of calls).</p>\n";
  }
  o << "<table class=\"registers\" id=\"register-checks\"><tr><th>register</th><th>offset</th><th>read</th>"
       "<th>expected</th><th>mask</th><th>result</th><th>cycle</th><th>trace line</th></tr>\n";
  for (const auto& c : g["checks"]) {
    const bool held = c.value("held", false);
    o << "<tr" << (held ? "" : " class=\"bad\"") << "><td>" << escape(c.value("name", "?")) << "</td><td>"
      << escape(c.value("offset", "?")) << "</td><td>" << hex32(c.value("value", nlohmann::json())) << "</td><td>"
      << hex32(c.value("expected", nlohmann::json())) << "</td><td>" << hex32(c.value("mask", nlohmann::json()))
      << "</td><td>" << (held ? "held" : "<b>FAIL</b>") << "</td><td class=\"num\">"
      << value_text(c.value("cycle", nlohmann::json())) << "</td><td class=\"num\">"
      << (c.value("line", nlohmann::json()).is_number() ? value_text(c["line"]) : "-") << "</td></tr>\n";
  }
  o << "</table>\n";
  for (const auto& c : g["checks"]) {
    if (!c.value("held", true)) o << "<p class=\"divergence\">" << escape(c.value("text", "")) << "</p>\n";
  }
  return o.str();
}

std::string counters(const nlohmann::json& r) {
  const nlohmann::json p = r.value("perf_counters", nlohmann::json::object());
  if (!p.is_object() || p.empty()) return "";
  std::ostringstream o;
  o << "<details><summary>Performance counters (" << p.size() << ")</summary><table class=\"counters\">";
  for (const auto& [k, v] : p.items()) o << "<tr><td>" << escape(k) << "</td><td class=\"num\">" << value_text(v) << "</td></tr>";
  o << "</table></details>\n";
  return o.str();
}

}  // namespace

std::string report_page(const nlohmann::json& r, const PageOptions& opt) {
  const std::string status = r.value("status", "unknown");
  const std::string title = "cosim " + r.value("scenario", "?") + " (" + r.value("target", "?") + ", seed " +
                            value_text(r.value("seed", nlohmann::json())) + ")";
  std::ostringstream o;
  o << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" << escape(title)
    << "</title><style>" << kStyle << "</style></head><body>\n";
  o << "<h1>" << escape(title) << " <span class=\"status "
    << (status == "pass" ? "pass" : status == "skipped" ? "skipped" : "other") << "\" id=\"status\">"
    << escape(status) << "</span></h1>\n";
  o << summary(r);
  const std::string divergence = divergence_section(r, WaveCommand{opt.out_dir, opt.program, opt.dut_path});
  if (!divergence.empty()) o << "<h2 id=\"where\">Where it diverges</h2>\n" << divergence;
  // A run that simulated: finished (cycles), or stopped by a hang or an assertion (a timeline up to there).
  if (r.contains("cycles") || r.contains("timeline")) {
    o << "<h2 id=\"timeline\">Engine timeline</h2>\n" << timeline_section(r.value("timeline", nlohmann::json()), r.value("layers", nlohmann::json()));
  }
  const std::string layers = layer_table(r);
  if (!layers.empty()) o << "<h2 id=\"layers-title\">Layers</h2>\n<div class=\"layers-box\">" << layers << "</div>\n";
  const std::string registers = register_section(r);
  if (!registers.empty()) o << "<h2 id=\"registers\">Register checks</h2>\n" << registers;
  if (r.contains("distance")) o << "<h2 id=\"drift\">Drift from the reference semantics</h2>\n" << drift_section(r);
  o << counters(r);
  o << "<p class=\"note\">All figures from <a href=\"report.json\">report.json</a> beside this page.</p>\n";
  o << "</body></html>\n";
  return o.str();
}

void write_report_html(const nlohmann::json& report, const PageOptions& options) {
  // A temporary name in the same folder, renamed when complete: never a
  // half-written page (IoError naming the file and the errno on a full disk).
  write_file_atomic((fs::path(options.out_dir) / "report.html").string(), report_page(report, options));
}

void rewrite_report_html(const PageOptions& options) {
  const fs::path path = fs::path(options.out_dir) / "report.json";
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(read_regular_file_text(path.string(), uint64_t{256} << 20));
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path.string() + ": not readable as JSON (" + e.what() + ")");
  }
  write_report_html(j, options);
}

}  // namespace cosim::tb::report_html
