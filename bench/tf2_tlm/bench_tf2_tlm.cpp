// Figures of the TF2 engine under the TLM testbench (issue 14: filter and
// feature loading hidden under the PE array's work), on
// scenarios/tf2_conv3x3.yaml as it is and as the 28x28x64 -> 64 layer:
// cycles, PE utilisation (ideal MAC cycles / cycles), the PEs' busy share,
// the cycles they wait for filters or for the writer, and the memory's wait
// states. Every run must be bit-exact; each is a forked child
// (support/child_run.hpp).
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/child_run.hpp"

namespace cosim::backends {
std::unique_ptr<tb::TargetBackend> make_tf2();
}

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct Layer {
  const char* name;
  std::vector<std::string> sets;
};

}  // namespace

int main() {
  const std::string scenario = std::string(COSIM_SOURCE_DIR) + "/scenarios/tf2_conv3x3.yaml";
  const std::string out = (fs::temp_directory_path() / ("bench_tf2_tlm_" + std::to_string(::getpid()))).string();
  // The issue-14 layer, with extra --set keys.
  const auto layer28 = [](const char* name, std::vector<std::string> extra) {
    std::vector<std::string> sets = {"shapes.input=[1,28,28,64]", "params.c_out=64"};
    sets.insert(sets.end(), extra.begin(), extra.end());
    return Layer{name, sets};
  };
  const Layer layers[] = {
      {"tf2_conv3x3 (16x16x24 -> 32)", {}},
      layer28("28x28x64 -> 64, k3 (issue 14: >= 80 % wanted)", {}),
      // The same layer under other memory behaviour: how much of the gap to
      // 80 % the stalls make, and how much the stall seed moves it.
      layer28("28x28x64 -> 64, k3, no stalls", {"testbench.stall_probability=0"}),
      layer28("28x28x64 -> 64, k3, 2 % stalls", {"testbench.stall_probability=0.02"}),
      layer28("28x28x64 -> 64, k3, seed 2", {"seed=2"}),
      layer28("28x28x64 -> 64, k3, seed 3", {"seed=3"}),
      layer28("28x28x64 -> 64, k3, seed 4", {"seed=4"}),
      layer28("28x28x64 -> 64, k3, seed 5", {"seed=5"}),
  };
  int rc = 0;
  std::printf("bench_tf2_tlm: %s, its testbench timing (dram_latency 20, 5 %% stalls, seed 1) unless named\n",
              scenario.c_str());
  for (const Layer& l : layers) {
    const json r = cosim::bench::child_run(cosim::backends::make_tf2, scenario, l.sets, out);
    if (r.is_null() || !r.value("bit_exact", false)) {
      std::fprintf(stderr, "bench_tf2_tlm: the run of %s failed\n", l.name);
      rc = 1;
      continue;
    }
    const double cycles = r["cycles"].get<double>();
    const json& pc = r["perf_counters"];
    const auto pct = [&](const char* k) { return 100.0 * pc[k].get<double>() / cycles; };
    std::printf("  %s\n", l.name);
    std::printf("    PE utilisation      %.1f %% (ideal %.0f MAC cycles / %.0f cycles)\n",
                100.0 * r["utilization"].get<double>(), r["metrics"]["ideal_cycles"].get<double>(), cycles);
    std::printf("    PEs busy            %.1f %%, waiting for filters %.1f %%, for the writer %.1f %%\n",
                pct("pe_busy_cycles"), pct("filter_wait_cycles"), pct("output_wait_cycles"));
    std::printf("    memory wait states  %.1f %% of the cycles (memory delay %llu cycles)\n",
                pct("memory_wait_cycles"), static_cast<unsigned long long>(r["memory"]["delay_cycles"].get<uint64_t>()));
  }
  fs::remove_all(out);
  return rc;
}
