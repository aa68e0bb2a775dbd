#include "cosim/runner.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <thread>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "cosim/divergence.hpp"
#include "cosim/finished_run.hpp"
#include "cosim/output_format.hpp"
#include "cosim/run_console.hpp"
#include "cosim/run_context.hpp"
#include "cosim/run_folder.hpp"
#include "cosim/run_report.hpp"
#include "cosim/slurm_slices.hpp"
#include "cosim/scoring.hpp"
#include "cosim/wave_section.hpp"
#include "rtl_assert/rtl_assertion_error.hpp"
#include "scenario/resolved_yaml.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace cosim::tb {

namespace {

TbConfig apply_options(TbConfig cfg, const RunOptions& o) {
  cfg.wave_file = o.wave_file;
  cfg.wave_from = o.wave_from;
  cfg.wave_to = o.wave_to;
  cfg.wave_depth = o.wave_depth;
  cfg.wave_max_bytes = o.wave_max_bytes;
  if (o.dmi) cfg.dmi = *o.dmi;
  if (o.quantum_cycles) cfg.quantum_cycles = *o.quantum_cycles;
  cfg.timeline = o.timeline;
  cfg.timeline_changes = o.input_slice.has_value();  // a worker: its merge replays the timeline
  if (o.fast) cfg.fast = *o.fast;
  return cfg;
}

// Simulate: plays the trace on the backend's DUT. A run that hangs or breaks
// an RTL assertion ends here with its own report: the hang rethrown
// (TimeoutError, exit 3), the assertion as nullopt (a DUT failure, exit 1).
std::optional<SimOutcome> simulate_run(const TargetBackend& backend, const trace::Trace& tr, const TbConfig& cfg,
                                       const RunContext& ctx, const RunOptions& opt, std::ostream& console,
                                       RunFolder& folder, WriteLog& log) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto wall_seconds = [&t0] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  std::optional<timeline::Timeline> partial;  // the timeline up to a hang or an assertion
  try {
    return simulate(
        tr, cfg, [&backend](const char* name, const TbConfig& c) { return backend.make_dut(name, c); }, opt.out_dir,
        &log, &partial);
  } catch (const TimeoutError& e) {
    folder.finish(timeout_report(ctx, e.what(), partial, cfg, wall_seconds()));
    throw;
  } catch (const RtlAssertionError& e) {
    folder.finish(assertion_report(ctx, e, partial, cfg, wall_seconds()));
    print_assertion_summary(console, ctx, e, opt.out_dir);
    return std::nullopt;
  }
}

// A run split over processes (input_slices.hpp): its workers, started before
// the workload is prepared; `wait` returns when they all finished, with their
// folders in input order.
struct SplitRun {
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  std::function<std::vector<std::string>(std::ostream&)> wait;

  SimOutcome outcome(const TargetBackend& backend, const trace::Trace& tr, WriteLog& log,
                     std::ostream& console) const {
    SimOutcome sim = merge_slice_outcomes(backend, tr, wait(console), log);
    sim.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return sim;
  }
};

// Simulate -> score -> diagnose -> report. Shared by run and replay. A split
// run's simulation is its workers' outcomes merged.
int execute(const TargetBackend& backend, const trace::Trace& tr, const TbConfig& cfg, const Workload* workload,
            const RunContext& ctx, const RunOptions& opt, std::ostream& console, RunFolder& folder,
            const SplitRun* split = nullptr) {
  WriteLog log;  // who wrote what when: the cycle of each mismatching element
  std::optional<SimOutcome> sim = split != nullptr ? split->outcome(backend, tr, log, console)
                                                   : simulate_run(backend, tr, cfg, ctx, opt, console, folder, log);
  if (!sim) return 1;
  if (opt.input_slice) {  // a split run's worker: its parent scores and reports the merged outcome
    write_slice_outcome(*sim, log, opt.out_dir);
    RunContext slice_ctx = ctx;
    slice_ctx.build = sim->build;
    json j = base_report(slice_ctx);
    j["status"] = "simulated";
    j["reason"] = "a slice of a split run (" + opt.input_slice->text() +
                  "): its outcome is in slice.json and slice.bin; the run's parent scores and reports it";
    j["cycles"] = sim->cycles;
    folder.finish(j);
    return 0;
  }
  FinishedRun run;
  run.context = ctx;
  run.sim = std::move(*sim);
  run.context.build = run.sim.build;  // the build the DUT ran (a target without a fast one: checked)

  run.scores = score_checks(run.sim.play, workload, opt.max_report, log);
  run.verdict = verdict(run.scores, run.sim.play, run.sim.dut_errors);

  run.divergence = first_divergence(backend, workload, tr, run.scores.first_mismatch);
  // Elements first; a run that failed only on its register reads opens at the first failing one.
  if (!run.divergence.found && run.scores.first_register_failure) {
    run.divergence = register_divergence(*run.scores.first_register_failure);
  }
  // Before the metrics: the waveform's counters are not the DUT's.
  if (!cfg.wave_file.empty()) {
    run.wave = wave_section(cfg, take_wave_counters(run.sim.perf), run.divergence, run.sim.cycles);
  }
  run.metrics = backend.metrics(workload, run.sim);

  const json npy_dumps = opt.dump ? write_npy_dumps(run.sim.play, workload, opt.out_dir) : json(nullptr);
  folder.finish(finished_report(run, npy_dumps));
  print_run_summary(console, run, cfg.wave_file, opt.out_dir);
  return run.verdict.pass ? 0 : 1;
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
  RunFolder folder(options.out_dir, {options.out_dir, options.program, options.dut_path});
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

// The backend's workload of `sc`, seen in the scenario's output format
// (checked against every output before anything runs).
Workload prepare_workload(const TargetBackend& backend, const scenario::Scenario& sc) {
  Workload w = backend.prepare(sc);
  w.output_format = sc.output_format;
  check_output_format(w);
  return w;
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
    return prepare_workload(backend, sc);
  } catch (const std::exception& e) {
    console << "cosim: note: the replay reports the trace alone, without its workload: " << e.what() << "\n";
    return std::nullopt;
  }
}

// The processes a run uses (RunOptions::jobs), said on the console: 0 when
// it does not split (its op replays no independent inputs, or something ties
// them together; a note when --jobs / --slurm asked for a split).
std::size_t split_jobs(const TargetBackend& backend, const scenario::Scenario& sc, const RunOptions& o,
                       bool in_memory_inputs, std::ostream& console) {
  if (o.input_slice) return 0;
  const bool asked = o.jobs > 1 || o.slurm;
  const std::size_t n = backend.independent_inputs(sc);
  if (n < 2) {
    if (asked) console << "cosim: note: " << sc.name << " runs in one process: it does not replay several "
                          "independent inputs (a network's `inputs: N`, N > 1, in mode delegate splits)\n";
    return 0;
  }
  std::string refused;
  if (o.executable.empty()) refused = "not run from the cosim program";
  if (!o.wave_file.empty()) refused = "a waveform is one simulation's";
  if (in_memory_inputs) refused = "its inputs are in memory";
  if (sc.testbench.stall_probability > 0) refused = "its seeded memory stalls run through all inputs";
  if (!refused.empty()) {
    if (asked) console << "cosim: note: inputs " << n << " in one process: " << refused << "\n";
    return 0;
  }
  // The cores not busy: a split pays only when its processes get a core each.
  const std::size_t all_cores = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t busy = busy_cores();
  const std::size_t cores = all_cores > busy ? all_cores - busy : 1;
  const std::size_t by_default =
      o.slurm ? (n + kInputsPerProcess - 1) / kInputsPerProcess : default_jobs(n, cores);
  const std::size_t jobs = std::min(n, o.jobs > 0 ? o.jobs : by_default);
  if (jobs < 2 && !o.slurm) {
    if (o.jobs == 0 && default_jobs(n, all_cores) > 1) {
      console << "inputs " << n << " in one process: the cores are busy (" << busy << " other running on "
              << all_cores << " cores; --jobs N splits anyway)\n";
    }
    return 0;
  }
  console << "inputs " << n << " split over " << jobs << (jobs == 1 ? " process" : " processes")
          << (o.slurm ? " (a SLURM job array)" : "") << (o.jobs > 0 ? " (--jobs " + std::to_string(o.jobs) + ")" : "")
          << "\n";
  console.flush();
  return jobs;
}

// The build a run takes: --fast / --no-fast as given, else the fast one
// for a whole-network run of more than kFastInputs inputs (said here, once;
// a split run's workers are told explicitly).
RunOptions with_build_chosen(const scenario::Scenario& sc, const RunOptions& options, std::ostream& console) {
  RunOptions o = options;
  if (!o.fast && sc.has("inputs") && sc["inputs"].as_int() > kFastInputs) {
    o.fast = true;
    console << "cosim: inputs " << sc["inputs"].as_int()
            << ": the fast build (no assertions) runs; --no-fast keeps assertions\n";
  }
  return o;
}

// What a worker runs: this run on one slice (--out and --input-slice are
// added per slice).
std::vector<std::string> worker_args(const std::string& file, const std::vector<std::string>& overrides,
                                     const scenario::Scenario& sc, const RunOptions& o) {
  std::vector<std::string> a = {"run", file, "--seed", std::to_string(sc.seed), "--jobs", "1"};
  for (const std::string& s : overrides) a.insert(a.end(), {"--set", s});
  if (o.dmi && !*o.dmi) a.push_back("--no-dmi");
  if (o.quantum_cycles) a.insert(a.end(), {"--quantum", std::to_string(*o.quantum_cycles)});
  if (!o.timeline) a.push_back("--no-timeline");
  if (o.fast) a.push_back(*o.fast ? "--fast" : "--no-fast");  // chosen once, by the parent
  a.insert(a.end(), {"--max-mismatches", std::to_string(o.max_report)});
  return a;
}

// The workers of a split run, local processes or a SLURM job array.
std::unique_ptr<SplitRun> start_split(const std::string& file, const std::vector<std::string>& overrides,
                                      const scenario::Scenario& sc, const RunOptions& o, std::size_t inputs,
                                      std::size_t jobs) {
  auto split = std::make_unique<SplitRun>();
  const std::vector<InputSlice> slices = split_inputs(inputs, jobs);
  const std::vector<std::string> args = worker_args(file, overrides, sc, o);
  std::shared_ptr<SliceRunner> runner;
  if (o.slurm) {
    runner = std::make_shared<SlurmSlices>(o.executable, args, o.out_dir, slices);
  } else {
    runner = std::make_shared<SliceWorkers>(o.executable, args, o.out_dir, slices);
  }
  split->wait = [runner](std::ostream& console) {
    runner->wait(console);
    return runner->dirs();
  };
  return split;
}

}  // namespace

int run_scenario(const BackendRegistry& registry, const std::string& file, const std::vector<std::string>& overrides,
                 std::optional<uint64_t> seed, const RunOptions& options, std::ostream& console,
                 const std::map<std::string, Tensor>& tensors) {
  json start = {{"scenario", fs::path(file).stem().string()}, {"scenario_file", file}};
  if (seed) start["seed"] = *seed;
  return in_run_folder(options, start, [&](RunFolder& folder) {
    scenario::Scenario sc = scenario::load_scenario(file, registry.schemas(), overrides, seed, tensors);
    const TargetBackend& backend = registry.get(sc.target);
    folder.running(base_report(RunContext{sc.name, sc.target, sc.op, sc.seed, "", ""}));
    if (options.input_slice) {
      const std::size_t n = backend.independent_inputs(sc);
      if (options.input_slice->first + options.input_slice->count > n) {
        throw InputError("--input-slice " + std::to_string(options.input_slice->first) + ":" +
                         std::to_string(options.input_slice->count) + ": the run has " + std::to_string(n) +
                         " independent inputs");
      }
      sc.input_slice = std::make_pair(static_cast<int64_t>(options.input_slice->first),
                                      static_cast<int64_t>(options.input_slice->count));
    }
    const RunOptions run_options = with_build_chosen(sc, options, console);
    std::unique_ptr<SplitRun> split;  // its workers simulate while this process prepares the whole run
    if (const std::size_t jobs = split_jobs(backend, sc, run_options, !tensors.empty(), console); jobs > 0) {
      split = start_split(file, overrides, sc, run_options, backend.independent_inputs(sc), jobs);
    }
    spdlog::debug("scenario {}: target {}, op {}, seed {}", sc.name, sc.target, sc.op, sc.seed);
    Workload w;
    try {
      w = prepare_workload(backend, sc);
    } catch (const ScenarioSkipped& e) {
      json j = base_report(RunContext{sc.name, sc.target, sc.op, sc.seed, "", ""});
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
    if (!options.input_slice) write_run_trace(tr, options.out_dir, console);  // a worker's is the run's, in <out>/trace
    RunContext ctx{sc.name, sc.target, sc.op, sc.seed, w.summary, ""};
    if (sc.has("fault") && sc["fault"].as_string() != "none") ctx.fault = sc["fault"].as_string();
    TbConfig run_cfg = apply_options(cfg, run_options);
    ctx.build = run_cfg.fast ? "fast" : "checked";
    ctx.clocks = backend.clocks();
    return execute(backend, tr, run_cfg, &w, ctx, run_options, console, folder, split.get());
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
    // (GTKWave, --wave-around-mismatch, another replay) work on it. Not
    // when it replays that very folder.
    std::error_code ec;
    if (!fs::equivalent(dir, fs::path(options.out_dir) / "trace", ec)) write_run_trace(tr, options.out_dir, console);
    const TbConfig cfg = TbConfig::from_map(tr.config);
    RunContext ctx;
    ctx.scenario = tr.config.count("scenario") ? tr.config.at("scenario") : fs::path(dir).filename().string();
    ctx.target = tr.target;
    ctx.op = tr.config.count("op") ? tr.config.at("op") : "trace";
    ctx.seed = cfg.seed;
    ctx.summary = "replay of " + dir;
    ctx.clocks = backend.clocks();
    folder.running(base_report(ctx));
    const std::optional<Workload> w = replayed_workload(registry, backend, dir, tr, console);
    const TbConfig run_cfg = apply_options(cfg, options);
    ctx.build = run_cfg.fast ? "fast" : "checked";
    return execute(backend, tr, run_cfg, w ? &*w : nullptr, ctx, options, console, folder);
  });
}

}  // namespace cosim::tb
