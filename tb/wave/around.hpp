// `cosim run ... --wave-around-mismatch N`: after a run that mismatched,
// replay its trace (<out>/trace) in a child process with the waveform window
// [c - N, c + N] around the cycle c at which the DUT wrote the first
// diverging element (report.json "first_divergence"), into
// <out>/wave_mismatch.fst + .gtkw (marker at c). The child's report and
// console go to <out>/around_mismatch/. SystemC elaborates once per process,
// hence the child.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

namespace cosim::wave {

struct AroundOptions {
  std::string out_dir;             // of the run that mismatched
  uint64_t cycles = 0;             // N
  int depth = 0;                   // --wave-depth for the re-run
  uint64_t max_bytes = 256ull << 20;
  std::string program = "/proc/self/exe";  // the cosim binary to re-run
};

struct AroundResult {
  std::string fst, gtkw;
  uint64_t from = 0, to = 0, cycle = 0;
  int exit_status = 0;  // of the replay (1 = the mismatch again)
};

// The window around cycle c: [c - n, c + n], clipped at 0.
inline std::pair<uint64_t, uint64_t> window_around(uint64_t c, uint64_t n) { return {c > n ? c - n : 0, c + n}; }

// nullopt (with a console note) when report.json names no write cycle.
// Adds "wave_around_mismatch" to <out>/report.json.
std::optional<AroundResult> trace_around_mismatch(const AroundOptions& o, std::ostream& console);

}  // namespace cosim::wave
