// What a run that played to its end is made of, step by step (runner.cpp
// execute): simulated, scored, diagnosed; report.json (run_report.hpp) and
// the console summary (run_console.hpp) are written from it.
#pragma once

#include <nlohmann/json.hpp>

#include "cosim/backend.hpp"
#include "cosim/divergence.hpp"
#include "cosim/run_context.hpp"
#include "cosim/scoring.hpp"

namespace cosim::tb {

struct FinishedRun {
  RunContext context;
  SimOutcome sim;  // its perf counters without the waveform's (wave_section.hpp)
  Scores scores;
  Verdict verdict;
  Divergence divergence;
  nlohmann::json wave = nullptr;  // report.json "wave", null without a waveform
  Metrics metrics;
};

// DUT cycles per wall-clock millisecond: report.json "simulated_khz" and the console's wall line.
inline double simulated_khz(const SimOutcome& sim) {
  return sim.wall_seconds > 0 ? static_cast<double>(sim.cycles) / sim.wall_seconds / 1e3 : 0.0;
}

}  // namespace cosim::tb
