// What `cosim run` and `cosim replay` do, as library functions so tests can
// call them: scenario -> workload -> trace, then the run itself: simulate ->
// score (scoring.hpp) -> diagnose (divergence.hpp, wave_section.hpp) ->
// report (report.json: run_report.hpp, with report.html from tb/report_html;
// the console summary: run_console.hpp). Both return the exit status for a
// finished run (0 bit-exact, 1 mismatch) and let InputError (2) and
// TimeoutError (3) propagate, after writing report.json with status
// "timeout" for the latter.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cosim/backend.hpp"
#include "cosim/input_slices.hpp"

namespace cosim::tb {

struct RunOptions {
  std::string out_dir;           // report.json, trace/, dumps; created
  std::string wave_file;         // FST path, empty = none
  uint64_t wave_from = 0;
  uint64_t wave_to = UINT64_MAX;
  int wave_depth = 0;                     // --wave-depth (0 = all levels)
  uint64_t wave_max_bytes = 256ull << 20;  // --wave-max-mb
  bool dump = false;             // write expected / actual .npy
  std::size_t max_report = 10;   // mismatches listed per check
  std::optional<bool> dmi;       // override TbConfig::dmi
  std::optional<uint64_t> quantum_cycles;
  bool timeline = true;          // sample the engine timeline (--no-timeline: off)
  // The DUT's fast build (no assertions): --fast true, --no-fast false; unset:
  // fast for a whole-network run of more than kFastInputs inputs, else checked.
  std::optional<bool> fast;
  std::string program = "cosim";  // how report.html names the cosim binary in its commands
  std::string dut_path;           // and the COSIM_DUT_PATH they need for a plugin's target
  // A run over independent inputs split over processes (input_slices.hpp):
  // `jobs` workers (0: default_jobs(), 1: one process), started from
  // `executable` (the cosim program; empty: no split, e.g. the Python
  // module); with `slurm`, as a SLURM job array instead of local processes.
  std::size_t jobs = 0;
  std::string executable;
  bool slurm = false;
  // This process is a worker: it runs the inputs of this slice and writes
  // its simulation's outcome beside its report (write_slice_outcome).
  std::optional<InputSlice> input_slice;
};

// out/<scenario stem> for run; out/<name>_replay for replay, where a trace
// directory called "trace" is named after its parent (out/x/trace -> x).
std::string default_out_dir(const std::string& path, bool replay);

// `cosim run FILE.yaml`: overrides are "key.path=value"; `tensors` are
// in-memory inputs by data key (scenario::load_scenario).
int run_scenario(const BackendRegistry& registry, const std::string& file, const std::vector<std::string>& overrides,
                 std::optional<uint64_t> seed, const RunOptions& options, std::ostream& console,
                 const std::map<std::string, Tensor>& tensors = {});

// `cosim replay DIR`: a trace directory or a raw VTA program (insn.bin + dram.bin).
int replay_trace(const BackendRegistry& registry, const std::string& dir, const RunOptions& options,
                 std::ostream& console);

// A whole-network run (`inputs: N`) with more inputs than this runs the fast
// build unless --no-fast: its assertions cost more than a long run is worth.
constexpr int64_t kFastInputs = 16;

// TbConfig of a scenario's testbench knobs.
TbConfig tb_config(const scenario::Scenario& sc);

}  // namespace cosim::tb
