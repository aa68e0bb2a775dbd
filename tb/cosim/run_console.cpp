#include "cosim/run_console.hpp"

#include <filesystem>
#include <iomanip>
#include <map>
#include <string>

#include "common/text.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace cosim::tb {

namespace {

// Network runs have many weak checks and distances: past these the console
// points at report.json (and the layer table) instead of a line each.
constexpr std::size_t kWeakLines = 5;
constexpr std::size_t kDistanceLines = 16;

std::string plural(std::size_t n, const char* noun) { return std::to_string(n) + " " + noun + (n == 1 ? "" : "s"); }

std::string report_json_path(const std::string& out_dir) { return (fs::path(out_dir) / "report.json").string(); }

void print_heading(std::ostream& console, const RunContext& ctx) {
  console << "cosim " << ctx.scenario << ": target " << ctx.target << ", op " << ctx.op << ", seed " << ctx.seed
          << "\n";
}

void print_result(std::ostream& console, const FinishedRun& run) {
  const Scores& s = run.scores;
  const PlayResult& play = run.sim.play;
  const char* result = run.verdict.pass                                          ? "PASS bit-exact"
                       : !run.verdict.checked && run.sim.dut_errors.empty() ? "NO CHECK"
                                                                                 : "FAIL";
  console << "  result      " << result << " (" << plural(play.checks.size(), "check") << ", " << s.elements
          << " elements";
  if (s.mismatches > 0) console << ", " << s.mismatches << " mismatching";
  if (!play.reg_checks.empty()) {
    console << "; " << plural(play.reg_checks.size(), "register check");
    if (s.register_failed > 0) console << ", " << s.register_failed << " failing";
  }
  console << ")\n";
  if (!run.verdict.checked) {
    console << "  no check    " << run.verdict.no_check_reason
            << "; a PASS needs a compared element or a register check\n";
  }
}

// What failed and where: weak checks, failing register reads, mismatches,
// the first divergence, the errors the DUT's checkers saw.
void print_findings(std::ostream& console, const FinishedRun& run) {
  const Scores& s = run.scores;
  for (std::size_t i = 0; i < s.weak_lines.size() && i < kWeakLines; ++i) console << s.weak_lines[i] << "\n";
  if (s.weak_lines.size() > kWeakLines) {
    console << "  weak        ... " << s.weak_lines.size() - kWeakLines
            << " more weak checks in report.json \"weak_checks\"\n";
  }
  for (const auto& l : s.register_lines) console << l << "\n";
  for (const auto& l : s.mismatch_lines) console << l << "\n";
  if (run.divergence.found) console << "  first diff  " << run.divergence.line << "\n";
  const std::string& fault = run.context.fault;
  if (!fault.empty() && !run.sim.dut_errors.empty()) {
    console << "  injected    fault=" << fault << ": the testbench broke the protocol on purpose; the errors below "
            << "are what the checkers saw, not the DUT's doing\n";
  }
  const char* label = fault.empty() ? "  DUT error   " : "  fault seen  ";
  for (const auto& e : run.sim.dut_errors) console << label << e << "\n";
}

// A block-level control port's calls, their latency and the interval between them
// (harness/ap_ctrl_binder.hpp counters): "calls 2000 (control), latency 11 cycles from ap_start to
// ap_done, one taken every 1 cycles, 1999 while an earlier call ran" (ranges where they differ).
void print_calls(std::ostream& console, const std::map<std::string, uint64_t>& perf) {
  const auto range = [&perf](const std::string& lo_key, const std::string& hi_key) {
    const auto lo = perf.find(lo_key), hi = perf.find(hi_key);
    if (lo == perf.end() || hi == perf.end()) return std::string();
    return std::to_string(lo->second) + (hi->second != lo->second ? ".." + std::to_string(hi->second) : std::string());
  };
  for (const auto& [key, calls] : perf) {
    const std::size_t dot = key.rfind(".calls");
    if (calls == 0 || dot == std::string::npos || dot + 6 != key.size()) continue;
    const std::string port = key.substr(0, dot);
    const std::string latency = range(port + ".latency_min", port + ".latency_max");
    if (latency.empty()) continue;
    console << "  calls       " << calls << " (" << port << "), latency " << latency
            << " cycles from ap_start to ap_done";
    const std::string interval = range(port + ".interval_min", port + ".interval_max");
    if (!interval.empty()) console << ", one taken every " << interval << " cycles";
    const auto overlapped = perf.find(port + ".overlapped");
    if (overlapped != perf.end() && overlapped->second > 0) {
      console << ", " << overlapped->second << " while an earlier call ran";
    }
    console << "\n";
  }
}

void print_cycles_and_macs(std::ostream& console, const FinishedRun& run) {
  const SimOutcome& sim = run.sim;
  const Metrics& metrics = run.metrics;
  const double wait_pct = sim.cycles > 0 ? 100.0 * static_cast<double>(sim.memory_wait_cycles) /
                                                static_cast<double>(sim.cycles)
                                        : 0.0;
  const std::string wait_share = sim.cycles > 0 ? ", " + fixed_text(wait_pct, 1) + " %" : std::string();
  if (!run.context.clocks.empty()) console << "  clocks      " << run.context.clocks << "\n";
  console << "  cycles      " << sim.cycles << " (memory wait " << sim.memory_wait_cycles << " cycles" << wait_share
          << ": cycles in which some DRAM access was waiting)\n";
  print_calls(console, sim.perf);
  console << "  MACs        " << metrics.macs << ", utilization "
          << (metrics.utilization ? fixed_text(*metrics.utilization * 100.0, 1) + " %" : std::string("n/a"));
  // A target whose busy-unit figure counts padded lanes also gives the share
  // of its peak that went to the workload's own MACs.
  if (const auto it = metrics.extra.find("useful_mac_fraction"); it != metrics.extra.end())
    console << ", useful MACs " << fixed_text(it->second * 100.0, 1) << " % of peak";
  console << "\n";
}

void print_distances(std::ostream& console, const json& distances) {
  if (distances.size() > kDistanceLines) {
    console << "  distance    " << distances.size()
            << " figures (check x reference) in report.json \"distance\"; the layer table summarises them\n";
    return;
  }
  for (const auto& d : distances) {
    console << "  vs " << std::left << std::setw(14) << d["reference"].get<std::string>() << std::right << "exact "
            << fixed_text(d["exact_pct"].get<double>()) << " %, max |diff| "
            << value_text(d["max_abs_diff"].get<double>()) << " (" << d["check"].get<std::string>() << ")";
    if (d.contains("output_format")) {
      const json& f = d["output_format"];
      console << "; in " << f["format"].get<std::string>() << " max |diff| "
              << value_text(f["max_abs_diff"].get<double>()) << " (" << f["max_abs_diff_steps"].get<int64_t>() << " steps)";
    }
    console << "\n";
  }
}

// The run's files: dumps, the waveform with the command that opens it, the reports.
void print_files(std::ostream& console, const FinishedRun& run, const std::string& wave_file,
                 const std::string& out_dir) {
  for (const auto& d : run.sim.play.dumps) console << "  dump        " << d << "\n";
  const json& wave = run.wave;
  if (wave.is_object() && wave.contains("first_cycle")) {
    const bool truncated = wave["truncated"].get<bool>();
    console << "  wave        " << wave_file << " (cycles " << wave["first_cycle"].get<uint64_t>() << ".."
            << wave["last_cycle"].get<uint64_t>() << (truncated ? ", TRUNCATED by --wave-max-mb" : "")
            << (wave.contains("gtkw") ? "): gtkwave -a " + wave["gtkw"].get<std::string>() + " " + wave_file : ")")
            << "\n";
  }
  console << "  report      " << report_json_path(out_dir) << ", " << (fs::path(out_dir) / "report.html").string()
          << "\n";
}

}  // namespace

void print_run_summary(std::ostream& console, const FinishedRun& run, const std::string& wave_file,
                       const std::string& out_dir) {
  print_heading(console, run.context);
  if (!run.context.summary.empty()) console << "  workload    " << run.context.summary << "\n";
  print_result(console, run);
  print_findings(console, run);
  print_cycles_and_macs(console, run);
  print_distances(console, run.scores.distances);
  for (const auto& l : run.metrics.table) console << l << "\n";
  console << "  wall        " << fixed_text(run.sim.wall_seconds, 3) << " s, " << fixed_text(simulated_khz(run.sim), 1)
          << " kHz simulated" << (run.context.build == "fast" ? " (fast build, no assertions)" : "") << "\n";
  print_files(console, run, wave_file, out_dir);
}

void print_assertion_summary(std::ostream& console, const RunContext& ctx, const RtlAssertionError& e,
                             const std::string& out_dir) {
  print_heading(console, ctx);
  console << "  result      FAIL (RTL assertion)\n  assertion   " << e.what() << "\n";
  console << "  report      " << report_json_path(out_dir) << "\n";
}

}  // namespace cosim::tb
