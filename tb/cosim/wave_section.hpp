// Diagnose: the waveform of a run in report.json "wave": the window the
// wrapper dumped, the prepared GTKWave view, and in it a marker on the first
// divergence.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "cosim/divergence.hpp"
#include "tlm/dut_wrapper.hpp"

namespace cosim::tb {

// The wrapper reports the dumped window as perf counters wave_first_cycle,
// wave_last_cycle, wave_truncated, ...: they are moved out of `perf` (they
// are not the DUT's counters) into {first_cycle, last_cycle, truncated, ...}.
nlohmann::json take_wave_counters(std::map<std::string, uint64_t>& perf);

// report.json "wave" of a finished run with cfg.wave_file set; `window` from
// take_wave_counters. Sets the GTKWave marker when the divergence was written
// inside the window; warns when nothing was dumped.
nlohmann::json wave_section(const TbConfig& cfg, const nlohmann::json& window, const Divergence& divergence,
                            uint64_t cycles);

// A run that hung or broke an assertion: the waveform the wrapper closed on
// the way out, {file, gtkw}; null when there is none.
nlohmann::json wave_files(const TbConfig& cfg);

}  // namespace cosim::tb
