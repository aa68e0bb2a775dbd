// Where the outputs diverge: report.json "first_divergence", per check the
// mismatch map (rows x channels, "mismatch_map") as an SVG heat map and the
// first mismatches, and the command that opens GTKWave at the divergence
// (the dumped waveform when it holds the cycle, else a replay of the trace
// with a window around it).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace cosim::tb::report_html {

struct WaveCommand {
  std::string out_dir;   // the run's output folder (its trace/ is replayed)
  std::string program;   // the cosim binary to name in the command
  std::string dut_path;  // COSIM_DUT_PATH the command sets (a plugin's target); empty: none
};

// Empty when nothing mismatched.
std::string divergence_section(const nlohmann::json& report, const WaveCommand& wave);

// The shell command that shows the first divergence in GTKWave; empty when
// report.json names no write cycle.
std::string gtkwave_command(const nlohmann::json& report, const WaveCommand& wave);

}  // namespace cosim::tb::report_html
