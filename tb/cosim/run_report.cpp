#include "cosim/run_report.hpp"

#include <filesystem>

#include "cosim/output_format.hpp"
#include "cosim/wave_section.hpp"
#include "scoreboard/scoreboard.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace cosim::tb {

namespace {

// One tensor as <out>/<file>; returns the path written.
std::string dump_npy(const std::string& out_dir, const std::string& file, const Tensor& t) {
  const std::string path = (fs::path(out_dir) / file).string();
  write_npy(path, t);
  return path;
}

// What a hang and an assertion report share: the timeline up to the stop
// and the waveform (where a hang is where one helps most).
json stopped_report(const RunContext& ctx, const char* status, const std::optional<timeline::Timeline>& timeline,
                    const TbConfig& cfg, double wall_seconds) {
  json j = base_report(ctx);
  j["status"] = status;
  j["timeline"] = timeline ? timeline->to_json() : json(nullptr);
  if (json files = wave_files(cfg); !files.is_null()) j["wave"] = files;
  j["wall_seconds"] = wall_seconds;
  return j;
}

json memory_section(const SimOutcome& sim) {
  return {{"dut_reads", sim.memory.reads},
          {"dut_writes", sim.memory.writes},
          {"dut_read_bytes", sim.memory.read_bytes},
          {"dut_write_bytes", sim.memory.write_bytes},
          {"dmi_accesses", sim.memory.dmi_accesses},
          {"tlm_accesses", sim.memory.tlm_accesses},
          {"delay_cycles", sim.memory_wait_cycles}};  // cycles some access waited, <= cycles
}

// The verdict and what it rests on: data checks, register checks, DUT errors.
void add_checks(json& j, const FinishedRun& run) {
  const Scores& s = run.scores;
  j["status"] = run.verdict.status;
  if (!run.verdict.checked) j["reason"] = run.verdict.no_check_reason;
  j["dut_errors"] = run.sim.dut_errors;
  j["bit_exact"] = run.verdict.pass;
  j["mismatch"] = {{"count", s.mismatches}, {"elements", s.elements}, {"checks", s.checks}};
  j["weak_checks"] = s.weak_names;
  j["register_checks"] = {
      {"count", s.register_count}, {"failed", s.register_failed},
      {"listed", s.register_all_listed ? "all" : "failing"}, {"checks", s.register_checks}};
  j["distance"] = s.distances;
}

// How the run went: cycles, throughput, memory traffic, the target's figures.
void add_performance(json& j, const FinishedRun& run) {
  const SimOutcome& sim = run.sim;
  j["cycles"] = sim.cycles;
  j["macs"] = run.metrics.macs;
  j["utilization"] = run.metrics.utilization ? json(*run.metrics.utilization) : json(nullptr);
  j["wall_seconds"] = sim.wall_seconds;
  j["simulated_khz"] = simulated_khz(sim);
  j["memory"] = memory_section(sim);
  j["perf_counters"] = sim.perf;
  j["timeline"] = sim.timeline ? sim.timeline->to_json() : json(nullptr);
  j["metrics"] = run.metrics.extra;
}

}  // namespace

json base_report(const RunContext& ctx) {
  return {{"scenario", ctx.scenario},
          {"target", ctx.target},
          {"op", ctx.op},
          {"seed", ctx.seed},
          {"build", ctx.build},
          {"injected_fault", ctx.fault.empty() ? json(nullptr) : json(ctx.fault)},
          {"clocks", ctx.clocks.empty() ? json(nullptr) : json(ctx.clocks)}};
}

json timeout_report(const RunContext& ctx, const std::string& diagnosis,
                    const std::optional<timeline::Timeline>& timeline, const TbConfig& cfg, double wall_seconds) {
  json j = stopped_report(ctx, "timeout", timeline, cfg, wall_seconds);
  j["diagnosis"] = diagnosis;
  return j;
}

json assertion_report(const RunContext& ctx, const RtlAssertionError& e,
                      const std::optional<timeline::Timeline>& timeline, const TbConfig& cfg, double wall_seconds) {
  const RtlAssertionInfo& a = e.info();
  json j = stopped_report(ctx, "assertion", timeline, cfg, wall_seconds);
  j["bit_exact"] = false;
  j["assertion"] = {{"dut", e.dut()}, {"cycle", e.cycle()}, {"name", a.name},       {"instance", a.instance},
                    {"file", a.file}, {"line", a.line},     {"message", a.message}, {"verilator", a.raw}};
  return j;
}

json write_npy_dumps(const PlayResult& play, const Workload* workload, const std::string& out_dir) {
  json files = json::object();
  // In the scenario's output format when it names one: the files hold that
  // format's container (its parameters in "output_format").
  const bool formatted = workload != nullptr && workload->output_format;
  const auto seen = [&](const Tensor& t, const std::string& check) {
    return formatted ? in_output_format(*workload, t, check) : t;
  };
  for (const CheckCapture& c : play.checks) {
    const std::string& name = c.desc.name;
    fs::create_directories(out_dir);
    files["expected"][name] = dump_npy(out_dir, name + "_expected.npy", seen(c.expected, name));
    files["actual"][name] = dump_npy(out_dir, name + "_actual.npy", seen(c.actual, name));
  }
  if (formatted) files["output_format"] = output_format_json(*workload->output_format);
  if (workload != nullptr) {
    for (const auto& [name, t] : workload->inputs) files["inputs"][name] = dump_npy(out_dir, name + "_input.npy", t);
  }
  return files;
}

json finished_report(const FinishedRun& run, const json& npy_dumps) {
  json j = base_report(run.context);
  add_checks(j, run);
  add_performance(j, run);
  j["workload"] = run.context.summary;
  j["drift_bins"] = drift_bin_bounds();
  j["dumps"] = run.sim.play.dumps;
  if (!npy_dumps.is_null()) j["npy_dumps"] = npy_dumps;
  j["first_divergence"] = run.divergence.report;
  j["wave"] = run.wave;
  if (!run.metrics.report_json.empty()) {  // target sections, e.g. the model replay's "layers"
    const json sections = json::parse(run.metrics.report_json);
    for (const auto& [k, v] : sections.items()) j[k] = v;
  }
  return j;
}

}  // namespace cosim::tb
