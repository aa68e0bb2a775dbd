// `cosim run` of one scenario in a forked child, for the TLM benchmarks:
// SystemC elaborates once per process, so every run gets its own. Returns
// the run's report.json, or null when the run failed or did not end in
// exit 0.
#pragma once

#include <spdlog/spdlog.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cosim/runner.hpp"

namespace cosim::bench {

inline nlohmann::json child_run(std::unique_ptr<tb::TargetBackend> (*make_backend)(), const std::string& scenario,
                                const std::vector<std::string>& sets, const std::string& out) {
  std::fflush(nullptr);  // the child must not print the parent's buffered output again
  const pid_t pid = fork();
  if (pid == 0) {
    spdlog::set_level(spdlog::level::warn);
    tb::BackendRegistry reg;
    reg.add(make_backend());
    tb::RunOptions opt;
    opt.out_dir = out;
    std::ostringstream console;
    int rc = 4;
    try {
      rc = tb::run_scenario(reg, scenario, sets, std::nullopt, opt, console);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s: %s\n", scenario.c_str(), e.what());
    }
    std::fflush(nullptr);
    _exit(rc);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) return nlohmann::json();
  std::ifstream f(out + "/report.json");
  return nlohmann::json::parse(f);
}

}  // namespace cosim::bench
