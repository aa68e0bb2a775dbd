// Report: report.json of a run, the finished one and the ones a hang or an
// RTL assertion cut short (RunFolder::finish writes it).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "timeline/timeline.hpp"
#include "cosim/finished_run.hpp"
#include "cosim/run_context.hpp"
#include "rtl_assert/rtl_assertion_error.hpp"

namespace cosim::tb {

// The fields every report.json carries, from "running" on.
nlohmann::json base_report(const RunContext& ctx);

// A run that did not finish in its timeout_cycles; `timeline` up to the hang.
nlohmann::json timeout_report(const RunContext& ctx, const std::string& diagnosis,
                              const std::optional<timeline::Timeline>& timeline, const TbConfig& cfg,
                              double wall_seconds);

// A run stopped by a property of the design that broke: a failure of the DUT.
nlohmann::json assertion_report(const RunContext& ctx, const RtlAssertionError& e,
                                const std::optional<timeline::Timeline>& timeline, const TbConfig& cfg,
                                double wall_seconds);

// --dump: every check's expected and actual tensor, and the workload's
// inputs, as .npy files in `out_dir`; report.json "npy_dumps", the files
// written: {expected|actual|inputs: {name: file}}.
nlohmann::json write_npy_dumps(const PlayResult& play, const Workload* workload, const std::string& out_dir);

// `npy_dumps`: from write_npy_dumps, null without --dump.
nlohmann::json finished_report(const FinishedRun& run, const nlohmann::json& npy_dumps);

}  // namespace cosim::tb
