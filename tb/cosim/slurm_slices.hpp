// `cosim run --slurm`: the workers of a split run (input_slices.hpp) as one
// SLURM job array, a task per slice, submitted with `sbatch --wait` from the
// run's folder (which every node must see: a shared file system, as for
// `scripts/regress --slurm`). Task k runs the same worker command line as a
// local worker (<out>/slices/tasks.txt, line k + 1: its slice and folder),
// its console in <out>/slices/NN/console.txt; the merge is the local one.
#pragma once

#include <sys/types.h>

#include <ostream>
#include <string>
#include <vector>

#include "cosim/input_slices.hpp"

namespace cosim::tb {

class SlurmSlices final : public SliceRunner {
 public:
  // Submits the array (sbatch from PATH; InputError when there is none).
  SlurmSlices(const std::string& program, const std::vector<std::string>& args, const std::string& out_dir,
              std::vector<InputSlice> slices);
  // Cancels the array (scancel) if it has not finished.
  ~SlurmSlices() override;
  void wait(std::ostream& console) override;

 private:
  std::string job_id() const;
  std::string submit_out_;  // sbatch's output: the job id
  pid_t sbatch_ = 0;        // `sbatch --wait`, until it returns
  bool done_ = false;
};

}  // namespace cosim::tb
