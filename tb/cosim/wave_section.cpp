#include "cosim/wave_section.hpp"

#include <spdlog/spdlog.h>

#include <filesystem>

#include "wave/gtkw.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace cosim::tb {

namespace {

bool written_inside(const json& wave, uint64_t cycle) {
  return wave.contains("first_cycle") && cycle >= wave["first_cycle"].get<uint64_t>() &&
         cycle <= wave["last_cycle"].get<uint64_t>();
}

}  // namespace

json take_wave_counters(std::map<std::string, uint64_t>& perf) {
  json window = json::object();
  for (auto it = perf.begin(); it != perf.end();) {
    if (it->first.rfind("wave_", 0) == 0) {
      window[it->first.substr(5)] = it->first == "wave_truncated" ? json(it->second != 0) : json(it->second);
      it = perf.erase(it);
    } else {
      ++it;
    }
  }
  return window;
}

json wave_section(const TbConfig& cfg, const json& window, const Divergence& divergence, uint64_t cycles) {
  json wave = {{"file", cfg.wave_file}, {"requested_from", cfg.wave_from},
               {"requested_to", cfg.wave_to == UINT64_MAX ? json(nullptr) : json(cfg.wave_to)},
               {"max_mb", cfg.wave_max_bytes >> 20}, {"fst_time_per_cycle", wave::kFstTicksPerCycle}};
  for (const auto& [key, value] : window.items()) wave[key] = value;
  std::error_code ec;
  const auto bytes = fs::file_size(cfg.wave_file, ec);
  wave["bytes"] = ec ? json(nullptr) : json(static_cast<uint64_t>(bytes));
  const std::string gtkw = wave::gtkw_path_for(cfg.wave_file);
  if (fs::exists(gtkw)) {
    wave["gtkw"] = gtkw;
    if (divergence.cycle && written_inside(wave, *divergence.cycle)) {
      const uint64_t time = wave::fst_time(*divergence.cycle);
      wave::set_gtkw_marker(gtkw, time, "first mismatch " + divergence.line);
      wave["marker_time"] = time;
    }
  }
  if (!wave.contains("first_cycle")) {
    spdlog::warn("waveform {}: nothing dumped (the window starts after the run's last cycle {}, or this target "
                 "has no waveform support)",
                 cfg.wave_file, cycles);
  }
  return wave;
}

json wave_files(const TbConfig& cfg) {
  if (cfg.wave_file.empty() || !fs::exists(cfg.wave_file)) return nullptr;
  return {{"file", cfg.wave_file}, {"gtkw", wave::gtkw_path_for(cfg.wave_file)}};
}

}  // namespace cosim::tb
