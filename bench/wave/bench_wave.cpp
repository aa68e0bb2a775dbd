// What FST tracing costs (`make bench`). For conv2d.yaml (VTA), tf2_conv3x3
// and tinydnn_fwd, best-of-N wall time (report.json wall_seconds: the
// simulation alone) of:
//   notrace  cosim_notrace: the same backends over models Verilated without tracing
//   default  the product cosim without --wave (VTA, TF2: their only,
//            trace-capable build; tiny-dnn: its non-tracing build)
//   idle     the product cosim on its trace-capable build, a trace asked for
//            but never opened (--wave-from beyond the run): tracing compiled
//            in, not dumping
//   full     the product cosim with --wave over the whole run (size guard raised)
// and the dump size. Exits 1 when a run fails.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

namespace fs = std::filesystem;

namespace {

struct Run {
  double wall = 0;  // best of the repetitions
  uint64_t cycles = 0;
  uint64_t fst_bytes = 0;
  bool truncated = false;
};

bool run_once(const std::string& bin, const std::string& scen, const std::string& out, const std::string& extra,
              Run& r) {
  const std::string cmd = bin + " run " + std::string(COSIM_SOURCE_DIR) + "/scenarios/" + scen + ".yaml --out " + out +
                          " " + extra + " > " + out + ".log 2>&1";
  const int st = std::system(cmd.c_str());
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    std::cerr << "bench_wave: failed (" << cmd << "), see " << out << ".log\n";
    return false;
  }
  std::ifstream f(out + "/report.json");
  nlohmann::json j;
  f >> j;
  const double wall = j["wall_seconds"];
  r.wall = r.wall == 0 ? wall : std::min(r.wall, wall);
  r.cycles = j["cycles"];
  const nlohmann::json& w = j["wave"];
  if (w.is_object() && w.contains("bytes") && w["bytes"].is_number()) r.fst_bytes = w["bytes"];
  if (w.is_object() && w.contains("truncated") && w["truncated"].is_boolean()) r.truncated = w["truncated"];
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  const fs::path tmp = fs::temp_directory_path() / ("bench_wave_" + std::to_string(::getpid()));
  fs::create_directories(tmp);
  std::printf("FST tracing cost, best of %d runs (wall = simulation only, from report.json)\n", reps);
  std::printf("%-12s %8s %10s %10s %7s %10s %7s %10s %7s %8s %8s\n", "scenario", "cycles", "notrace s", "default s",
              "%", "idle s", "%", "full s", "%", "FST MB", "B/cycle");
  bool ok = true;
  for (const char* scen : {"conv2d", "tf2_conv3x3", "tinydnn_fwd"}) {
    Run notrace, capable, idle, full;
    const std::string base = (tmp / scen).string();
    // Interleaved, so machine load drifts hit every variant alike.
    for (int i = 0; i < reps && ok; ++i) {
      ok = run_once(COSIM_NOTRACE_BIN, scen, base + "_n", "", notrace) &&
           run_once(COSIM_BIN, scen, base + "_c", "", capable) &&
           run_once(COSIM_BIN, scen, base + "_i", "--wave " + base + "_i/w.fst --wave-from 1000000000000", idle);
    }
    for (int i = 0; i < std::max(1, reps / 2) && ok; ++i) {
      ok = run_once(COSIM_BIN, scen, base + "_f", "--wave " + base + "_f/w.fst --wave-max-mb 8192", full);
    }
    if (!ok) break;
    const auto pct = [&](const Run& r) { return 100.0 * (r.wall / notrace.wall - 1.0); };
    std::printf("%-12s %8llu %10.4f %10.4f %+6.1f%% %10.4f %+6.1f%% %10.4f %+6.0f%% %8.2f %8.1f%s\n", scen,
                static_cast<unsigned long long>(capable.cycles), notrace.wall, capable.wall, pct(capable), idle.wall,
                pct(idle), full.wall, pct(full), static_cast<double>(full.fst_bytes) / (1 << 20),
                static_cast<double>(full.fst_bytes) / static_cast<double>(std::max<uint64_t>(1, full.cycles)),
                full.truncated ? " (truncated)" : "");
  }
  std::printf("%%: wall time vs the non-tracing build. default = no --wave; idle = the trace-capable model, no "
              "dump open; full = --wave over the whole run.\n");
  fs::remove_all(tmp);
  return ok ? 0 : 1;
}
