#!/usr/bin/env bash
# One task of the regression job array (submitted by `scripts/regress --slurm`):
# runs manifest entry $SLURM_ARRAY_TASK_ID, which leaves report.json,
# result.json and a JUnit fragment in that run's seed folder.
#   sbatch --array=0-K-1 regress_array.sh /path/to/scripts/regress /path/to/manifest.json
# sbatch copies this file to the node's spool, so the runner's own path comes
# in as an argument rather than from $0.
#SBATCH --job-name=cosim-regress
set -euo pipefail
regress=${1:?usage: regress_array.sh REGRESS MANIFEST}
manifest=${2:?usage: regress_array.sh REGRESS MANIFEST}
: "${SLURM_ARRAY_TASK_ID:?submit with sbatch --array}"
echo "task ${SLURM_ARRAY_JOB_ID:-?}_${SLURM_ARRAY_TASK_ID} on $(hostname)"
exec python3 "$regress" --slurm-task "$manifest" "$SLURM_ARRAY_TASK_ID"
