// Figures of the VTA core under the TLM testbench on scenarios/conv2d.yaml
// (or the scenario given as argv[1]):
//   - GEMM utilisation (GEMM uops / CYCLES), cycles, simulated kHz, wall s;
//   - the cost of the SystemC / TLM layer: the same program with the same
//     memory timing (tb::DramTiming, same seed) on BareDriver, a plain C++
//     clock loop over the same Verilated model, measured side by side. The
//     cycle counts must agree exactly; the wall times give the overhead.
// SystemC elaborates once per process, so each TLM run is a forked child;
// the best of `reps` runs of each side is compared (a loaded machine only
// ever makes a run slower).
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "support/child_run.hpp"
#include "tlm/dram_timing.hpp"
#include "trace/trace.hpp"
#include "vta/core/bare_driver.hpp"
#include "vta/core/trace_program.hpp"

namespace cosim::backends {
std::unique_ptr<tb::TargetBackend> make_vta();
}

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using nlohmann::json;

// `cosim run` in a child; returns report.json (empty on failure).
json tlm_run(const std::string& scenario, const std::string& out) {
  return cosim::bench::child_run(cosim::backends::make_vta, scenario, {}, out);
}

struct BareFigures {
  uint64_t cycles = 0;  // CYCLES register
  uint64_t total_cycles = 0;
  double wall = 0;
  bool bit_exact = false;
};

// The trace's program on BareDriver with the trace's memory timing.
BareFigures bare_run(const cosim::trace::Trace& tr) {
  auto [dram, insn_addr, insn_count, check] = cosim::tb::vta::program_of_trace(tr);
  const cosim::tb::TbConfig cfg = cosim::tb::TbConfig::from_map(tr.config);
  BareFigures f;
  const auto t0 = Clock::now();
  cosim::tb::DramTiming timing(cfg, 0);  // the DUT's timing stream at the DRAM target
  cosim::tb::vta::BareOptions opt;
  opt.access_cycles = [&timing](uint64_t a, std::size_t n, bool w) { return timing.access_cycles(a, n, w); };
  cosim::tb::vta::BareDriver drv(dram, opt);
  const cosim::tb::vta::RtlRunResult r = drv.run(insn_addr, insn_count, cfg.timeout_cycles);
  f.wall = std::chrono::duration<double>(Clock::now() - t0).count();
  f.cycles = r.cycles;
  f.total_cycles = drv.total_eval_cycles();
  f.bit_exact = r.status == cosim::tb::vta::RtlRunResult::Status::kDone && check != nullptr;
  if (f.bit_exact) {
    for (int64_t i = 0; i < check->tensor.numel(); ++i) {
      if (dram[check->addr + check->tensor.memory_offset(i)] != check->data[static_cast<std::size_t>(i)]) {
        f.bit_exact = false;
        break;
      }
    }
  }
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string scenario = argc > 1 ? argv[1] : std::string(COSIM_SOURCE_DIR) + "/scenarios/conv2d.yaml";
  const int reps = argc > 2 ? std::atoi(argv[2]) : 3;
  const std::string out = (fs::temp_directory_path() / ("bench_vta_tlm_" + std::to_string(::getpid()))).string();

  json best;
  double tlm_wall = 1e30, bare_wall = 1e30;
  BareFigures bare;
  for (int i = 0; i < reps; ++i) {  // interleaved, so both sides see the same machine load
    const json r = tlm_run(scenario, out);
    if (r.is_null() || !r.value("bit_exact", false)) {
      std::fprintf(stderr, "bench_vta_tlm: the TLM run of %s failed\n", scenario.c_str());
      return 1;
    }
    if (r["wall_seconds"].get<double>() < tlm_wall) {
      tlm_wall = r["wall_seconds"].get<double>();
      best = r;
    }
    const BareFigures b = bare_run(cosim::trace::read_trace(out + "/trace"));
    if (b.wall < bare_wall) bare_wall = b.wall;
    bare = b;
  }
  fs::remove_all(out);

  const uint64_t cycles = best["cycles"].get<uint64_t>();
  const uint64_t vta_cycles = best["perf_counters"]["vta_cycles"].get<uint64_t>();
  const double util = best["utilization"].get<double>();
  std::printf("bench_vta_tlm: %s (best of %d)\n", best["scenario"].get<std::string>().c_str(), reps);
  std::printf("  GEMM utilisation      %.1f %% (GEMM uops / CYCLES; target >= 70 %%, goal 90 %%)\n", util * 100.0);
  std::printf("  useful MACs           %llu (%.1f %% of 256 MACs x CYCLES)\n",
              static_cast<unsigned long long>(best["macs"].get<uint64_t>()),
              100.0 * best["metrics"]["useful_mac_fraction"].get<double>());
  const json& pc = best["perf_counters"];
  const auto pct = [&](const char* k) { return 100.0 * pc[k].get<double>() / static_cast<double>(vta_cycles); };
  std::printf("  COMPUTE engine        GEMM busy %.1f %%, ALU busy %.1f %% (requantization), own loads %.1f %%\n",
              pct("gemm_busy"), pct("alu_busy"), pct("compute_load_busy"));
  std::printf("  cycles                %llu DUT cycles, CYCLES register %llu\n",
              static_cast<unsigned long long>(cycles), static_cast<unsigned long long>(vta_cycles));
  std::printf("  TLM testbench         %.3f s wall, %.1f kHz simulated\n", tlm_wall, cycles / tlm_wall / 1e3);
  std::printf("  bare C++ loop         %.3f s wall, %.1f kHz simulated (BareDriver, same memory timing)\n", bare_wall,
              bare.total_cycles / bare_wall / 1e3);
  std::printf("  same cycles           %s (bare CYCLES %llu), bare output %s\n",
              bare.cycles == vta_cycles ? "yes" : "NO", static_cast<unsigned long long>(bare.cycles),
              bare.bit_exact ? "bit-exact" : "WRONG");
  const double overhead = (tlm_wall / static_cast<double>(cycles)) / (bare_wall / static_cast<double>(bare.total_cycles)) - 1.0;
  std::printf("  TLM layer overhead    %.1f %% per simulated cycle (target < 30 %%)\n", overhead * 100.0);
  return bare.cycles == vta_cycles && bare.bit_exact ? 0 : 1;
}
