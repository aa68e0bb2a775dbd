// One testbench run: builds the DRAM target, the DUT (from a factory) and the
// host player, binds them, runs sc_start() and collects what the scoreboard
// and the report need. SystemC allows one elaboration per process, so this
// is called at most once per process (std::logic_error otherwise).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "scoreboard/write_log.hpp"
#include "tlm/dram_target.hpp"
#include "tlm/dut_wrapper.hpp"
#include "tlm/host_player.hpp"
#include "trace/trace.hpp"

namespace cosim::tb {

using DutFactory = std::function<std::unique_ptr<DutWrapper>(const char* name, const TbConfig& cfg)>;

struct SimOutcome {
  PlayResult play;
  uint64_t cycles = 0;  // DUT cycles since reset at the end
  std::map<std::string, uint64_t> perf;
  std::optional<timeline::Timeline> timeline;  // DutWrapper::timeline()
  std::vector<std::string> dut_errors;  // DutWrapper::errors()
  DramTarget::Stats dram;
  TlmMemoryPort::Stats memory;
  uint64_t memory_wait_cycles = 0;  // cycles in which some memory access waited (DutWrapper)
  double sim_time_ns = 0;
  double wall_seconds = 0;
  // The played trace's config (its `config` lines): what a target recorded
  // of the workload (e.g. MACs), the only account of it on a replay.
  std::map<std::string, std::string> trace_config;
  std::string build = "checked";  // DutWrapper::build(): "checked" or "fast"
};

// Plays `trace` on the DUT. DUT memory writes are recorded in `log` when
// given. TimeoutError / InputError from the run are rethrown here, after
// the engine timeline up to that point is copied to `timeline_on_error`
// when given (a hang's page shows who waited on what).
SimOutcome simulate(const trace::Trace& trace, const TbConfig& cfg, const DutFactory& make_dut,
                    const std::string& out_dir, WriteLog* log = nullptr,
                    std::optional<timeline::Timeline>* timeline_on_error = nullptr);

}  // namespace cosim::tb
