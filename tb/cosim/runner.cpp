#include "cosim/runner.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/error.hpp"
#include "common/text.hpp"
#include "cosim/run_folder.hpp"
#include "report_html/report_page.hpp"
#include "rtl_assert/rtl_assertion_error.hpp"
#include "scenario/resolved_yaml.hpp"
#include "scoreboard/check_strength.hpp"
#include "scoreboard/mismatch_map.hpp"
#include "scoreboard/scoreboard.hpp"
#include "wave/gtkw.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace cosim::tb {

namespace {

struct Context {
  std::string scenario;  // name
  std::string target;
  std::string op;
  uint64_t seed = 0;
  std::string summary;
  // The scenario's `fault:` (a protocol fault the testbench injects on
  // purpose), "" for none: what the DUT's checkers then see is not the DUT's.
  std::string fault;
};

std::string fmt(double v, int prec = 2) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(prec) << v;
  return os.str();
}

// Integers print without a fraction; floats with enough digits to differ.
std::string value_text(double v) {
  std::ostringstream os;
  if (v == static_cast<double>(static_cast<int64_t>(v))) os << static_cast<int64_t>(v);
  else os << std::setprecision(9) << v;
  return os.str();
}

json base_report(const Context& ctx) {
  json j;
  j["scenario"] = ctx.scenario;
  j["target"] = ctx.target;
  j["op"] = ctx.op;
  j["seed"] = ctx.seed;
  j["injected_fault"] = ctx.fault.empty() ? json(nullptr) : json(ctx.fault);
  return j;
}

// --dump: one tensor as <out>/<file>; returns the path written.
std::string dump_npy(const std::string& out_dir, const std::string& file, const Tensor& t) {
  const std::string path = (fs::path(out_dir) / file).string();
  write_npy(path, t);
  return path;
}

TbConfig apply_options(TbConfig cfg, const RunOptions& o) {
  cfg.wave_file = o.wave_file;
  cfg.wave_from = o.wave_from;
  cfg.wave_to = o.wave_to;
  cfg.wave_depth = o.wave_depth;
  cfg.wave_max_bytes = o.wave_max_bytes;
  if (o.dmi) cfg.dmi = *o.dmi;
  if (o.quantum_cycles) cfg.quantum_cycles = *o.quantum_cycles;
  cfg.timeline = o.timeline;
  return cfg;
}

// Simulation, scoreboard, summary, report. Shared by run and replay.
int execute(const TargetBackend& backend, const trace::Trace& tr, const TbConfig& cfg, const Workload* workload,
            const Context& ctx, const RunOptions& opt, std::ostream& console, RunFolder& folder) {
  WriteLog log;
  SimOutcome out;
  const auto t0 = std::chrono::steady_clock::now();
  std::optional<activity::Timeline> partial;  // the timeline up to a hang or an assertion
  try {
    out = simulate(
        tr, cfg, [&backend](const char* name, const TbConfig& c) { return backend.make_dut(name, c); }, opt.out_dir,
        &log, &partial);
  } catch (const TimeoutError& e) {
    json j = base_report(ctx);
    j["status"] = "timeout";
    j["diagnosis"] = e.what();
    j["timeline"] = partial ? partial->to_json() : json(nullptr);
    // A hang is where a waveform helps most: the wrapper closed it on the way out.
    if (!cfg.wave_file.empty() && fs::exists(cfg.wave_file)) {
      j["wave"] = {{"file", cfg.wave_file}, {"gtkw", wave::gtkw_path_for(cfg.wave_file)}};
    }
    j["wall_seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    folder.finish(j);
    throw;
  } catch (const RtlAssertionError& e) {
    // A property of the design broke: a failure of the DUT (exit 1) with the
    // assertion named, not an internal error.
    const RtlAssertionInfo& a = e.info();
    json j = base_report(ctx);
    j["status"] = "assertion";
    j["bit_exact"] = false;
    j["assertion"] = {{"dut", e.dut()}, {"cycle", e.cycle()}, {"name", a.name},     {"instance", a.instance},
                      {"file", a.file}, {"line", a.line},     {"message", a.message}, {"verilator", a.raw}};
    j["timeline"] = partial ? partial->to_json() : json(nullptr);
    if (!cfg.wave_file.empty() && fs::exists(cfg.wave_file)) {
      j["wave"] = {{"file", cfg.wave_file}, {"gtkw", wave::gtkw_path_for(cfg.wave_file)}};
    }
    j["wall_seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    folder.finish(j);
    console << "cosim " << ctx.scenario << ": target " << ctx.target << ", op " << ctx.op << ", seed " << ctx.seed
            << "\n";
    console << "  result      FAIL (RTL assertion)\n  assertion   " << e.what() << "\n";
    console << "  report      " << (fs::path(opt.out_dir) / "report.json").string() << "\n";
    return 1;
  }
  const double wall = out.wall_seconds;

  json checks = json::array();
  json npy_dumps = json::object();  // --dump: {expected|actual|inputs: {name: file}}
  int64_t total_mismatches = 0;
  int64_t total_elements = 0;
  std::vector<std::string> lines;
  std::vector<std::string> weak_names, weak_lines;  // weak checks (scoreboard/check_strength.hpp)
  // The first divergence: of the mismatches listed, the one the DUT wrote
  // earliest (never-written elements last), ties by check order and index.
  const CheckCapture* first_check = nullptr;
  std::optional<Mismatch> first_mm;
  for (const CheckCapture& c : out.play.checks) {
    CompareOptions co;
    co.name = c.desc.name;
    co.max_report = opt.max_report;
    co.base_addr = c.base_addr;
    co.log = &log;
    if (c.desc.strided()) co.element_offset = [&c](int64_t i) { return c.desc.memory_offset(i); };
    const Comparison cmp = compare(c.expected, c.actual, co);
    total_mismatches += cmp.mismatches;
    total_elements += cmp.elements;
    json jc;
    jc["name"] = cmp.name;
    jc["dtype"] = dtype_name(c.desc.dtype);
    jc["shape"] = c.desc.shape;
    jc["layout"] = trace::layout_name(c.desc.layout);
    if (c.base_addr) jc["address"] = hex(*c.base_addr);
    if (!c.stream.empty()) jc["stream"] = c.stream;
    jc["elements"] = cmp.elements;
    jc["mismatches"] = cmp.mismatches;
    json first = json::array();
    for (const Mismatch& m : cmp.first) {
      const auto key = [](const Mismatch& x) { return x.cycle.value_or(UINT64_MAX); };
      if (!first_mm || key(m) < key(*first_mm)) {
        first_mm = m;
        first_check = &c;
      }
      json jm;
      jm["index"] = m.index;
      jm["coords"] = m.coords;
      jm["expected"] = m.expected;
      jm["actual"] = m.actual;
      if (m.address) jm["address"] = hex(*m.address);
      jm["write_cycle"] = m.cycle ? json(*m.cycle) : json(nullptr);
      first.push_back(jm);
      std::string line = "  " + cmp.name + "[" + m.coords + "]: expected " + value_text(m.expected) + ", got " +
                         value_text(m.actual);
      if (m.address) line += " at " + hex(*m.address);
      line += m.cycle ? ", written at cycle " + std::to_string(*m.cycle) : ", never written by the DUT";
      lines.push_back(line);
    }
    jc["first_mismatches"] = first;
    // Weak: a constant (or > 99 % one-value) expected tensor; still compared.
    if (const std::optional<WeakCheck> w = weak_check(c.expected)) {
      jc["weak"] = {{"value", w->value}, {"count", w->count}, {"elements", w->elements},
                    {"fraction", w->fraction()}, {"constant", w->constant()}};
      weak_names.push_back(cmp.name);
      std::string line = "  weak        " + cmp.name + ": " +
                         (w->constant() ? "all " + std::to_string(w->elements) + " expected elements are "
                                        : fmt(w->fraction() * 100.0, 2) + " % of " + std::to_string(w->elements) +
                                              " expected elements are ") +
                         value_text(w->value) + ": a DUT writing only " + value_text(w->value) +
                         (w->constant() ? " would pass" : " would miss few") + "; the check proves little";
      weak_lines.push_back(line);
    } else {
      jc["weak"] = nullptr;
    }
    if (cmp.mismatches > 0) {
      const MismatchMap mm = mismatch_map(c.expected, c.actual);
      jc["mismatch_map"] = {{"row_axis", mm.row_axis}, {"col_axis", mm.col_axis}, {"rows", mm.rows},
                            {"cols", mm.cols}, {"row_extent", mm.row_extent}, {"col_extent", mm.col_extent},
                            {"row_step", mm.row_step}, {"col_step", mm.col_step}, {"counts", mm.counts}};
    }
    // Distance of this output to each reference semantics.
    json dist = json::array();
    if (workload != nullptr) {
      for (const Reference& r : workload->references) {
        if (r.check != c.desc.name) continue;
        const Distance d = distance(r.semantics, r.tensor, c.actual);
        dist.push_back({{"reference", d.reference}, {"exact_pct", d.exact_pct}, {"max_abs_diff", d.max_abs_diff},
                        {"elements", d.elements}, {"histogram", d.histogram}});
      }
    }
    jc["distance"] = dist;
    checks.push_back(jc);
    if (opt.dump) {
      fs::create_directories(opt.out_dir);
      npy_dumps["expected"][cmp.name] = dump_npy(opt.out_dir, cmp.name + "_expected.npy", c.expected);
      npy_dumps["actual"][cmp.name] = dump_npy(opt.out_dir, cmp.name + "_actual.npy", c.actual);
    }
  }
  if (opt.dump && workload != nullptr) {
    for (const auto& [name, t] : workload->inputs) {
      npy_dumps["inputs"][name] = dump_npy(opt.out_dir, name + "_input.npy", t);
    }
  }
  // The first divergence, with the unit of work that produced it.
  json divergence = nullptr;
  std::string divergence_line;
  if (first_mm) {
    divergence = {{"check", first_check->desc.name}, {"index", first_mm->index}, {"coords", first_mm->coords},
                  {"expected", first_mm->expected}, {"actual", first_mm->actual},
                  {"write_cycle", first_mm->cycle ? json(*first_mm->cycle) : json(nullptr)}};
    if (first_mm->address) divergence["address"] = hex(*first_mm->address);
    divergence_line = first_check->desc.name + "[" + first_mm->coords + "]";
    divergence_line += first_mm->cycle ? " written at cycle " + std::to_string(*first_mm->cycle) : " never written";
    const std::optional<WorkUnit> unit =
        backend.work_unit(workload, tr, first_check->desc.name, first_mm->index, first_mm->address);
    if (unit) {
      divergence["unit"] = {{"text", unit->text}, {"fields", unit->fields}};
      divergence_line += " by " + unit->text;
    }
  }
  // Waveform: the dumped window (wave_* counters of the wrapper), the
  // prepared view, and the first-divergence marker in it.
  json wave = nullptr;
  if (!cfg.wave_file.empty()) {
    wave = {{"file", cfg.wave_file}, {"requested_from", cfg.wave_from},
            {"requested_to", cfg.wave_to == UINT64_MAX ? json(nullptr) : json(cfg.wave_to)},
            {"max_mb", cfg.wave_max_bytes >> 20}, {"fst_time_per_cycle", wave::kFstTicksPerCycle}};
    for (auto it = out.perf.begin(); it != out.perf.end();) {
      if (it->first.rfind("wave_", 0) == 0) {
        wave[it->first.substr(5)] = it->first == "wave_truncated" ? json(it->second != 0) : json(it->second);
        it = out.perf.erase(it);
      } else {
        ++it;
      }
    }
    std::error_code ec;
    const auto bytes = fs::file_size(cfg.wave_file, ec);
    wave["bytes"] = ec ? json(nullptr) : json(static_cast<uint64_t>(bytes));
    const std::string gtkw = wave::gtkw_path_for(cfg.wave_file);
    if (fs::exists(gtkw)) {
      wave["gtkw"] = gtkw;
      if (first_mm && first_mm->cycle && wave.contains("first_cycle") &&
          *first_mm->cycle >= wave["first_cycle"].get<uint64_t>() &&
          *first_mm->cycle <= wave["last_cycle"].get<uint64_t>()) {
        wave::set_gtkw_marker(gtkw, wave::fst_time(*first_mm->cycle), "first mismatch " + divergence_line);
        wave["marker_time"] = wave::fst_time(*first_mm->cycle);
      }
    }
    if (!wave.contains("first_cycle")) {
      spdlog::warn("waveform {}: nothing dumped (the window starts after the run's last cycle {}, or this target "
                   "has no waveform support)",
                   cfg.wave_file, out.cycles);
    }
  }
  // Register checks (reg_check): each one a read that held or not.
  json reg_checks = json::array();
  int64_t reg_failed = 0;
  std::vector<std::string> reg_lines;
  for (const RegCheck& r : out.play.reg_checks) {
    reg_failed += r.held() ? 0 : 1;
    reg_checks.push_back({{"name", r.name}, {"offset", hex(r.offset)}, {"value", r.value}, {"expected", r.expected},
                          {"mask", r.mask}, {"held", r.held()}, {"cycle", r.cycle},
                          {"line", r.line > 0 ? json(r.line) : json(nullptr)}, {"text", r.text()}});
    if (!r.held()) reg_lines.push_back("  " + r.text() + ", at cycle " + std::to_string(r.cycle));
  }
  const Metrics metrics = backend.metrics(workload, out);
  // PASS rests on at least one check that held: a compared element or a
  // register read; bus protocol violations fail the run even when the bytes
  // match.
  const bool checked = total_elements > 0 || !out.play.reg_checks.empty();
  const bool pass = checked && total_mismatches == 0 && reg_failed == 0 && out.dut_errors.empty();
  const double khz = wall > 0 ? static_cast<double>(out.cycles) / wall / 1e3 : 0.0;

  json j = base_report(ctx);
  j["status"] = pass                                      ? "pass"
                : total_mismatches > 0 || reg_failed > 0  ? "mismatch"
                : !out.dut_errors.empty()                 ? "dut_error"
                                                          : "no_check";
  if (!checked) {
    j["reason"] = out.play.checks.empty() ? "the run has no check: nothing on the DUT was compared"
                                          : "every check was empty: no element was compared";
  }
  j["dut_errors"] = out.dut_errors;
  j["bit_exact"] = pass;
  j["cycles"] = out.cycles;
  j["macs"] = metrics.macs;
  j["utilization"] = metrics.utilization ? json(*metrics.utilization) : json(nullptr);
  j["mismatch"] = {{"count", total_mismatches}, {"elements", total_elements}, {"checks", checks}};
  j["weak_checks"] = weak_names;
  j["register_checks"] = {{"count", reg_checks.size()}, {"failed", reg_failed}, {"checks", reg_checks}};
  json distance_summary = json::array();
  for (const auto& jc : checks) {
    for (const auto& d : jc["distance"]) {
      json e = d;
      e["check"] = jc["name"];
      distance_summary.push_back(e);
    }
  }
  j["distance"] = distance_summary;
  j["wall_seconds"] = wall;
  j["simulated_khz"] = khz;
  j["workload"] = ctx.summary;
  j["drift_bins"] = drift_bin_bounds();
  j["memory"] = {{"dut_reads", out.memory.reads},
                 {"dut_writes", out.memory.writes},
                 {"dut_read_bytes", out.memory.read_bytes},
                 {"dut_write_bytes", out.memory.write_bytes},
                 {"dmi_accesses", out.memory.dmi_accesses},
                 {"tlm_accesses", out.memory.tlm_accesses},
                 {"delay_cycles", out.memory_wait_cycles}};  // cycles some access waited, <= cycles
  j["perf_counters"] = out.perf;
  j["timeline"] = out.timeline ? out.timeline->to_json() : json(nullptr);
  j["metrics"] = metrics.extra;
  j["dumps"] = out.play.dumps;
  if (opt.dump) j["npy_dumps"] = npy_dumps;
  j["first_divergence"] = divergence;
  j["wave"] = wave;
  if (!metrics.report_json.empty()) {  // target sections, e.g. the model replay's "layers"
    const json sections = json::parse(metrics.report_json);
    for (const auto& [k, v] : sections.items()) j[k] = v;
  }
  folder.finish(j);

  // One screen.
  console << "cosim " << ctx.scenario << ": target " << ctx.target << ", op " << ctx.op << ", seed " << ctx.seed
          << "\n";
  if (!ctx.summary.empty()) console << "  workload    " << ctx.summary << "\n";
  console << "  result      "
          << (pass ? "PASS bit-exact" : !checked && out.dut_errors.empty() ? "NO CHECK" : "FAIL") << " ("
          << out.play.checks.size() << " check"
          << (out.play.checks.size() == 1 ? "" : "s") << ", " << total_elements << " elements";
  if (total_mismatches > 0) console << ", " << total_mismatches << " mismatching";
  if (!out.play.reg_checks.empty()) {
    console << "; " << out.play.reg_checks.size() << " register check"
            << (out.play.reg_checks.size() == 1 ? "" : "s");
    if (reg_failed > 0) console << ", " << reg_failed << " failing";
  }
  console << ")\n";
  if (!checked) {
    console << "  no check    " << j["reason"].get<std::string>()
            << "; a PASS needs a compared element or a register check\n";
  }
  constexpr std::size_t kWeakLines = 5;  // a network: the rest in report.json "weak_checks"
  for (std::size_t i = 0; i < weak_lines.size() && i < kWeakLines; ++i) console << weak_lines[i] << "\n";
  if (weak_lines.size() > kWeakLines) {
    console << "  weak        ... " << weak_lines.size() - kWeakLines << " more weak checks in report.json \"weak_checks\"\n";
  }
  for (const auto& l : reg_lines) console << l << "\n";
  for (const auto& l : lines) console << l << "\n";
  if (first_mm) console << "  first diff  " << divergence_line << "\n";
  if (!ctx.fault.empty() && !out.dut_errors.empty()) {
    console << "  injected    fault=" << ctx.fault << ": the testbench broke the protocol on purpose; the errors below "
            << "are what the checkers saw, not the DUT's doing\n";
  }
  for (const auto& e : out.dut_errors) console << (ctx.fault.empty() ? "  DUT error   " : "  fault seen  ") << e << "\n";
  console << "  cycles      " << out.cycles << " (memory wait " << out.memory_wait_cycles << " cycles"
          << (out.cycles > 0 ? ", " + fmt(100.0 * static_cast<double>(out.memory_wait_cycles) /
                                              static_cast<double>(out.cycles), 1) + " %"
                             : std::string())
          << ": cycles in which some DRAM access was waiting)\n";
  console << "  MACs        " << metrics.macs << ", utilization "
          << (metrics.utilization ? fmt(*metrics.utilization * 100.0, 1) + " %" : std::string("n/a"));
  // A target whose busy-unit figure counts padded lanes also gives the share
  // of its peak that went to the workload's own MACs.
  if (const auto it = metrics.extra.find("useful_mac_fraction"); it != metrics.extra.end())
    console << ", useful MACs " << fmt(it->second * 100.0, 1) << " % of peak";
  console << "\n";
  // Many checks (a network, several inputs): their distances stay in
  // report.json and the layer table, not one console line each.
  constexpr std::size_t kDistanceLines = 16;
  if (distance_summary.size() > kDistanceLines) {
    console << "  distance    " << distance_summary.size()
            << " figures (check x reference) in report.json \"distance\"; the layer table summarises them\n";
  }
  for (const auto& d : distance_summary.size() > kDistanceLines ? json::array() : distance_summary) {
    console << "  vs " << std::left << std::setw(14) << d["reference"].get<std::string>() << std::right << "exact "
            << fmt(d["exact_pct"].get<double>()) << " %, max |diff| " << value_text(d["max_abs_diff"].get<double>())
            << " (" << d["check"].get<std::string>() << ")\n";
  }
  for (const auto& l : metrics.table) console << l << "\n";
  console << "  wall        " << fmt(wall, 3) << " s, " << fmt(khz, 1) << " kHz simulated\n";
  for (const auto& d : out.play.dumps) console << "  dump        " << d << "\n";
  if (wave.is_object() && wave.contains("first_cycle")) {
    console << "  wave        " << cfg.wave_file << " (cycles " << wave["first_cycle"].get<uint64_t>() << ".."
            << wave["last_cycle"].get<uint64_t>() << (wave["truncated"].get<bool>() ? ", TRUNCATED by --trace-max-mb" : "")
            << (wave.contains("gtkw") ? "): gtkwave -a " + wave["gtkw"].get<std::string>() + " " + cfg.wave_file : ")")
            << "\n";
  }
  console << "  report      " << (fs::path(opt.out_dir) / "report.json").string() << ", "
          << (fs::path(opt.out_dir) / "report.html").string() << "\n";
  return pass ? 0 : 1;
}

// A trace directory, or a target's raw format (e.g. a VTA program) that its
// backend turns into a self-checking trace.
trace::Trace read_replay_directory(const BackendRegistry& registry, const std::string& dir) {
  if (fs::is_directory(dir) && !fs::exists(fs::path(dir) / "trace.txt")) {
    for (const TargetBackend* b : registry.all()) {
      if (std::optional<trace::Trace> t = b->import_directory(dir)) {
        if (t->target.empty()) t->target = b->name();
        return *t;
      }
    }
  }
  return trace::read_trace(dir);
}

}  // namespace

std::string default_out_dir(const std::string& path, bool replay) {
  fs::path p = fs::path(path).lexically_normal();
  if (p.filename().empty()) p = p.parent_path();
  if (!replay) return (fs::path("out") / p.stem()).string();
  std::string name = p.filename().string();
  if (name == "trace" && p.has_parent_path()) name = p.parent_path().filename().string();
  return (fs::path("out") / (name + "_replay")).string();
}

TbConfig tb_config(const scenario::Scenario& sc) {
  TbConfig c;
  c.dram_latency = sc.testbench.dram_latency;
  c.bytes_per_cycle = sc.testbench.bytes_per_cycle;
  c.stall_probability = sc.testbench.stall_probability;
  c.timeout_cycles = sc.testbench.timeout_cycles;
  c.seed = sc.seed;
  return c;
}

namespace {

// Runs `body` in a locked folder whose report.json says "running" from the
// start; an exception before the final report leaves one saying "error" (or
// "timeout") with the message, never an older run's report.
template <typename Body>
int in_run_folder(const RunOptions& options, const json& start, Body body) {
  RunFolder folder(options.out_dir, options.program);
  folder.running(start);
  const auto fail = [&folder](const char* status, const char* what) {
    if (folder.finished()) return;
    try {
      folder.fail(status, what);
    } catch (const std::exception&) {  // the first error is the one to report
    }
  };
  try {
    return body(folder);
  } catch (const TimeoutError& e) {
    fail("timeout", e.what());
    throw;
  } catch (const std::exception& e) {
    fail("error", e.what());
    throw;
  }
}

// The run's own replayable trace, <out>/trace. Only what a trace writes is
// deleted there (trace.txt, blobs/NNN_*.bin); other files stay beside the
// new trace, which names its own blobs, and are named on the console.
void write_run_trace(const trace::Trace& tr, const std::string& out_dir, std::ostream& console) {
  const std::string trace_dir = (fs::path(out_dir) / "trace").string();
  const std::vector<std::string> foreign = trace::clear_trace_dir(trace_dir);
  if (!foreign.empty()) {
    console << "cosim: warning: " << trace_dir << " holds " << foreign.size()
            << (foreign.size() == 1 ? " file" : " files") << " cosim did not write, left in place: ";
    const std::size_t shown = std::min<std::size_t>(foreign.size(), 5);
    for (std::size_t i = 0; i < shown; ++i) {
      std::string name = foreign[i];  // one line: control bytes shown as '?'
      for (char& ch : name) {
        if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) ch = '?';
      }
      console << (i ? ", " : "") << name;
    }
    if (foreign.size() > shown) console << ", ... (" << foreign.size() - shown << " more)";
    console << "\n";
  }
  trace::write_trace(tr, trace_dir);
  spdlog::info("trace written to {} ({} steps)", trace_dir, tr.steps.size());
}

// The workload of a replayed trace, prepared again from the scenario the run
// kept beside it, so the replay reports what the run did (the layer table,
// the distances, who wrote a diverging element). The trace stays what is
// played and checked. Without a scenario (a raw program, in-memory inputs),
// or when it no longer prepares (its model moved), the replay says so and
// reports the trace alone.
std::optional<Workload> replayed_workload(const BackendRegistry& registry, const TargetBackend& backend,
                                          const std::string& dir, const trace::Trace& tr, std::ostream& console) {
  if (tr.scenario.empty()) return std::nullopt;
  const std::string file = (fs::path(dir) / trace::kScenarioFile).string();
  try {
    const scenario::Scenario sc = scenario::load_scenario(file, registry.schemas());
    if (sc.target != backend.name()) {
      throw InputError(file + ": target " + sc.target + ", but the trace plays " + backend.name());
    }
    return backend.prepare(sc);
  } catch (const std::exception& e) {
    console << "cosim: note: the replay reports the trace alone, without its workload: " << e.what() << "\n";
    return std::nullopt;
  }
}

}  // namespace

int run_scenario(const BackendRegistry& registry, const std::string& file, const std::vector<std::string>& overrides,
                 std::optional<uint64_t> seed, const RunOptions& options, std::ostream& console,
                 const std::map<std::string, Tensor>& tensors) {
  json start = {{"scenario", fs::path(file).stem().string()}, {"scenario_file", file}};
  if (seed) start["seed"] = *seed;
  return in_run_folder(options, start, [&](RunFolder& folder) {
    const scenario::Scenario sc = scenario::load_scenario(file, registry.schemas(), overrides, seed, tensors);
    const TargetBackend& backend = registry.get(sc.target);
    folder.running(base_report(Context{sc.name, sc.target, sc.op, sc.seed, "", ""}));
    spdlog::debug("scenario {}: target {}, op {}, seed {}", sc.name, sc.target, sc.op, sc.seed);
    Workload w;
    try {
      w = backend.prepare(sc);
    } catch (const ScenarioSkipped& e) {
      json j = base_report(Context{sc.name, sc.target, sc.op, sc.seed, "", ""});
      j["status"] = "skipped";
      j["reason"] = e.what();
      folder.finish(j);
      console << "cosim: skipped: " << e.what() << "\n";
      return 0;
    }
    trace::Trace tr = backend.compile(sc, w);
    tr.target = backend.name();
    TbConfig cfg = tb_config(sc);
    for (const auto& [k, v] : cfg.to_map()) tr.config[k] = v;
    std::string token = sc.name;  // trace config values are single tokens
    for (char& ch : token) {
      if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-' || ch == '.')) ch = '_';
    }
    tr.config["scenario"] = token.empty() ? "scenario" : token;
    tr.config["op"] = sc.op;
    tr.scenario = scenario::resolved_yaml(sc);
    write_run_trace(tr, options.out_dir, console);
    Context ctx{sc.name, sc.target, sc.op, sc.seed, w.summary, ""};
    if (sc.has("fault") && sc["fault"].as_string() != "none") ctx.fault = sc["fault"].as_string();
    return execute(backend, tr, apply_options(cfg, options), &w, ctx, options, console, folder);
  });
}

int replay_trace(const BackendRegistry& registry, const std::string& dir, const RunOptions& options,
                 std::ostream& console) {
  return in_run_folder(options, json{{"scenario", fs::path(dir).filename().string()}, {"replay_of", dir}},
                       [&](RunFolder& folder) {
    const trace::Trace tr = read_replay_directory(registry, dir);
    const TargetBackend& backend = registry.get(tr.target);
    // A replay is a run: its folder holds the trace it played (a raw
    // program as the trace it became), so the commands its report prints
    // (GTKWave, --trace-around-mismatch, another replay) work on it. Not
    // when it replays that very folder.
    std::error_code ec;
    if (!fs::equivalent(dir, fs::path(options.out_dir) / "trace", ec)) write_run_trace(tr, options.out_dir, console);
    const TbConfig cfg = TbConfig::from_map(tr.config);
    Context ctx;
    ctx.scenario = tr.config.count("scenario") ? tr.config.at("scenario") : fs::path(dir).filename().string();
    ctx.target = tr.target;
    ctx.op = tr.config.count("op") ? tr.config.at("op") : "trace";
    ctx.seed = cfg.seed;
    ctx.summary = "replay of " + dir;
    folder.running(base_report(ctx));
    const std::optional<Workload> w = replayed_workload(registry, backend, dir, tr, console);
    return execute(backend, tr, apply_options(cfg, options), w ? &*w : nullptr, ctx, options, console, folder);
  });
}

}  // namespace cosim::tb
