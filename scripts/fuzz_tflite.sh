#!/usr/bin/env bash
# Builds the libFuzzer target of the .tflite reader (clang, ASan, COSIM_FUZZ=ON)
# in its own build folder and runs it on one core for SECONDS (default 60),
# seeded with the shared models. Crashes land in BUILD/fuzz_artifacts/.
#
# usage: scripts/fuzz_tflite.sh [SECONDS]
# env:   FUZZ_BUILD_DIR (default build-tflite-fuzz), COSIM_MODELS_DIR
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
secs="${1:-60}"
build="${FUZZ_BUILD_DIR:-$root/build-tflite-fuzz}"
models="${COSIM_MODELS_DIR:-$root/../shared/models}"

command -v clang++ >/dev/null || { echo "fuzz_tflite.sh: clang++ not found (apt-get install clang)" >&2; exit 2; }
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCOSIM_FUZZ=ON >/dev/null
cmake --build "$build" --target tflite_fuzz -j2

fuzzer="$build/cpp_model/tflite/tools/fuzz/tflite_fuzz"
corpus="$build/fuzz_corpus"
seeds="$build/fuzz_seeds"
artifacts="$build/fuzz_artifacts"
mkdir -p "$corpus" "$seeds" "$artifacts"
if compgen -G "$models/*.tflite" >/dev/null; then
  cp -f "$models"/*.tflite "$seeds"/
else
  echo "fuzz_tflite.sh: no models in $models; fuzzing from an empty seed corpus" >&2
fi

cd "$build"  # libFuzzer writes fuzz-0.log here in -jobs mode
rm -f fuzz-0.log
set +e
"$fuzzer" -max_total_time="$secs" -jobs=1 -workers=1 -print_final_stats=1 \
  -artifact_prefix="$artifacts/" "$corpus" "$seeds"
status=$?
set -e
if [[ -f fuzz-0.log ]]; then
  echo "---- last lines of $build/fuzz-0.log ----"
  grep -E '^#[0-9]+' fuzz-0.log | tail -n 3
  grep -E '^stat::|ERROR|SUMMARY|Test unit written' fuzz-0.log || true
fi
crashes=$(find "$artifacts" -type f | wc -l)
echo "fuzz_tflite.sh: exit $status, $crashes crash/leak/timeout artifacts in $artifacts"
[[ $status -eq 0 && $crashes -eq 0 ]]
