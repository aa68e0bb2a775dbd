// Report: a run's summary on the console, one screen. The details behind
// each line are in report.json (run_report.hpp).
#pragma once

#include <ostream>
#include <string>

#include "cosim/finished_run.hpp"
#include "cosim/run_context.hpp"
#include "rtl_assert/rtl_assertion_error.hpp"

namespace cosim::tb {

// `wave_file` and `out_dir` are where the commands it prints point.
void print_run_summary(std::ostream& console, const FinishedRun& run, const std::string& wave_file,
                       const std::string& out_dir);

// A run an RTL assertion stopped: FAIL with the property named.
void print_assertion_summary(std::ostream& console, const RunContext& ctx, const RtlAssertionError& e,
                             const std::string& out_dir);

}  // namespace cosim::tb
