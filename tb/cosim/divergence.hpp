// Diagnose: the first divergence of a run (scoring.hpp FirstMismatch) with
// the unit of work that produced it, as the backend names it (an
// instruction, a layer and pixel, ...).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "cosim/backend.hpp"
#include "cosim/scoring.hpp"

namespace cosim::tb {

struct Divergence {
  bool found = false;
  nlohmann::json report = nullptr;  // report.json "first_divergence"
  // "output[n=0,h=0,w=19,c=18] written at cycle 1062 by instruction 25: ...":
  // the console's "first diff" and the waveform marker's label.
  std::string line;
  // The cycle to look at: the DUT's last write of the element, or the failing register read.
  std::optional<uint64_t> cycle;
};

// `workload` is null on a replay without its scenario.
Divergence first_divergence(const TargetBackend& backend, const Workload* workload, const trace::Trace& tr,
                            const std::optional<FirstMismatch>& first);

// A run whose elements all matched but a register check failed: that read (report.json
// "first_divergence" with "register" and "cycle", the read's).
Divergence register_divergence(const RegCheck& failed);

}  // namespace cosim::tb
