#!/usr/bin/env bash
# `make coverage`: code and functional coverage of every accelerator whose
# manifest (rtl/<dut>/<dut>.yaml, key coverage) names coverage tests.
#
#  1. configures $BUILD (default build-cov) with -DCOSIM_RTL_COVERAGE=ON: every
#     Verilated library gets --coverage (line, toggle, branch, user cover
#     points) and the cover modules its manifest binds in (coverage.bind_sources);
#  2. builds the manifests' coverage.targets and runs them (ctest, the
#     manifests' coverage.labels) with COSIM_COVERAGE_DIR set, so every harness writes its
#     model's counters when it is destroyed (tb/coverage/rtl_coverage.hpp);
#  3. merges the counters per DUT with verilator_coverage, writes lcov info and
#     an HTML report (genhtml) under $OUT (default out/coverage);
#  4. prints line / toggle / branch figures per DUT and the functional bins
#     against their goals (scripts/coverage_report.py).
#
#   bash scripts/coverage.sh            BUILD=... OUT=... JOBS=... to override
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-cov}
OUT=${OUT:-out/coverage}
JOBS=${JOBS:-$(nproc)}
start=$(date +%s)

for tool in verilator_coverage genhtml; do
  command -v "$tool" >/dev/null || { echo "coverage: $tool not found (apt-get install verilator lcov)" >&2; exit 2; }
done

cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCOSIM_RTL_COVERAGE=ON >/dev/null

# The RTL suites, from the manifests: each executable owns Verilated models and
# writes their counters (<dut>-*.dat).
read -r -a targets <<< "$(python3 scripts/dutgen.py query coverage-targets)"
labels=$(python3 scripts/dutgen.py query coverage-labels)
mapfile -t duts < <(python3 scripts/dutgen.py query coverage-names)
echo "coverage: building ${targets[*]}"
cmake --build "$BUILD" -j "$JOBS" --target "${targets[@]}"
built=$(date +%s)

rm -rf "$OUT"
mkdir -p "$OUT/dat"
export COSIM_COVERAGE_DIR=$PWD/$OUT/dat
status=0
# Scenario tests drive the cosim binary (TLM wrappers), not built here.
ctest --test-dir "$BUILD" -j "$JOBS" --output-on-failure --timeout 900 \
  -L "$labels" -E '_NOT_BUILT$|_scenario_' || status=$?
ran=$(date +%s)
[ $status -eq 0 ] || echo "coverage: some tests failed (status $status); the report covers what ran" >&2

infos=()
for dut in "${duts[@]}"; do
  shopt -s nullglob
  files=("$OUT"/dat/"$dut"-*.dat)
  shopt -u nullglob
  if [ ${#files[@]} -eq 0 ]; then
    echo "coverage: no coverage data for $dut" >&2
    continue
  fi
  # Merge in chunks: a test suite writes one file per model instance.
  merged="$OUT/$dut.dat"
  printf '%s\n' "${files[@]}" | xargs -n 200 sh -c 'if [ -f "$0" ]; then verilator_coverage --write "$0" "$0" "$@"; else verilator_coverage --write "$0" "$@"; fi' "$merged"
  rm -f "${files[@]}"
  verilator_coverage --write-info "$OUT/$dut.info" "$merged"
  infos+=("$OUT/$dut.info")
done
rmdir "$OUT/dat" 2>/dev/null || true

if [ ${#infos[@]} -gt 0 ]; then
  genhtml --quiet --output-directory "$OUT/html" --title "cosim RTL coverage" "${infos[@]}" >/dev/null
  echo "coverage: HTML report in $OUT/html/index.html"
fi

# A missed functional goal fails the run (after the report is printed).
report_status=0
python3 scripts/coverage_report.py "$OUT" > "$OUT/summary.txt" || report_status=$?
cat "$OUT/summary.txt"
if [ $report_status -ne 0 ]; then
  echo "coverage: functional coverage goals not met (or no data); see $OUT/summary.txt" >&2
  [ $status -ne 0 ] || status=$report_status
fi
end=$(date +%s)
echo "coverage: build $((built - start)) s, tests $((ran - built)) s, report $((end - ran)) s"
exit $status
