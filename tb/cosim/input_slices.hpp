// A run over many independent inputs (Operator::independent_inputs, e.g. a
// whole network in mode delegate with `inputs: N`) split over processes:
// `cosim run --jobs J` starts J workers, each the same `cosim run` on a
// contiguous slice of the inputs (the hidden option --input-slice
// FIRST:COUNT) in its own run folder <out>/slices/NN, simulating only its
// slice. A worker writes its simulation's outcome there (slice.json +
// slice.bin: what the DUT wrote for each check, the write log, the engine
// timeline's changes, counters); the parent prepares the whole workload
// meanwhile, then merges the outcomes in input order, each slice's cycles
// offset by the cycles of the slices before it, into the one SimOutcome a
// single simulation would have given, and scores and reports it as such.
// `cosim run --slurm` runs the same workers as a SLURM job array
// (scripts/slurm/cosim_slices.sh) and merges the same way.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cosim/backend.hpp"
#include "scoreboard/write_log.hpp"

namespace cosim::tb {

struct InputSlice {
  std::size_t first = 0, count = 0;
  // "inputs 0-49"
  std::string text() const;
};

// "FIRST:COUNT" (--input-slice); InputError naming the option otherwise.
InputSlice parse_input_slice(const std::string& text);
// `inputs` in `jobs` contiguous slices of sizes differing by at most one.
std::vector<InputSlice> split_inputs(std::size_t inputs, std::size_t jobs);
// Below this many inputs per process a split does not pay for the
// processes' start (loading the model, the golden chain, elaboration).
constexpr std::size_t kInputsPerProcess = 8;
// The processes a run of `inputs` independent inputs uses when --jobs is not
// given: one per kInputsPerProcess inputs, at most `cores` (the runner passes
// the cores not busy: the core count minus busy_cores()).
std::size_t default_jobs(std::size_t inputs, std::size_t cores);

// How many cores other processes keep busy now: the fewest runnable tasks
// besides the caller over a few samples 10 ms apart (/proc/stat
// procs_running). Not the 1-minute load average, which still counts a run
// that ended seconds ago and so kept the next run from splitting. Where
// /proc/stat cannot be read, the load average rounded.
std::size_t busy_cores();

// A worker that failed (exit status other than 0 / 1, a signal, no outcome):
// the one line naming its slice, and the exit status the run ends with.
class WorkerError : public std::runtime_error {
 public:
  WorkerError(const std::string& what, int status) : std::runtime_error(what), status_(status) {}
  int status() const { return status_; }

 private:
  int status_;
};

// Worker side: the slice's simulation outcome into `dir` (slice.bin, then
// slice.json, both written whole under a temporary name).
void write_slice_outcome(const SimOutcome& sim, const WriteLog& log, const std::string& dir);

// The slices' outcomes from their folders, in input order, merged into one
// simulation's: checks matched by order and name against the full `trace`
// (the whole run's, which says where each check is and what it expects),
// cycles offset, `log` filled with every slice's writes at its offset,
// counters merged by the backend (TargetBackend::merge_perf_counters).
SimOutcome merge_slice_outcomes(const TargetBackend& backend, const trace::Trace& trace,
                                const std::vector<std::string>& dirs, WriteLog& log);

// Parent side: where the workers of a split run go, each running `program
// run ... --input-slice F:C --out DIR` for its slice, its console in
// DIR/console.txt, DIR = slice_dir(out_dir, k). Local
// processes (SliceWorkers) or a SLURM job array (SlurmSlices,
// slurm_slices.hpp); the merge is the same.
class SliceRunner {
 public:
  virtual ~SliceRunner() = default;
  SliceRunner(const SliceRunner&) = delete;
  SliceRunner& operator=(const SliceRunner&) = delete;

  // Waits for every slice, a line on `console` as each finishes; WorkerError
  // names the first slice that failed or left no outcome.
  virtual void wait(std::ostream& console) = 0;
  // The slices' folders, in order.
  const std::vector<std::string>& dirs() const { return dirs_; }

 protected:
  // `absolute`: the folders as absolute paths (for workers that start elsewhere).
  SliceRunner(const std::string& out_dir, std::vector<InputSlice> slices, bool absolute);
  std::vector<InputSlice> slices_;
  std::vector<std::string> dirs_;
};

// Local worker processes. Killed on SIGINT / SIGTERM (the run folder's
// handler) and when this object goes before they finished; on the first
// failure wait() kills the others.
class SliceWorkers final : public SliceRunner {
 public:
  // `args`: the worker's command line after the program, without --out and
  // --input-slice (appended per slice). `out_dir`: the run's folder.
  SliceWorkers(const std::string& program, const std::vector<std::string>& args, const std::string& out_dir,
               std::vector<InputSlice> slices);
  ~SliceWorkers() override;
  void wait(std::ostream& console) override;

 private:
  std::vector<pid_t> pids_;  // 0 once reaped
};

// The folder of slice k of a run in `out_dir`: <out>/slices/NN.
std::string slice_dir(const std::string& out_dir, std::size_t k);
// A worker's failure as one line: "inputs 50-99 (slice 2 of 2): ..." with
// the last line of its console, and its exit status for the run.
WorkerError slice_failure(const InputSlice& s, std::size_t k, std::size_t n, const std::string& dir,
                          const std::string& how, int status);

}  // namespace cosim::tb
