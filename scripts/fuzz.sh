#!/usr/bin/env bash
# libFuzzer on every parser, and whole runs: builds the targets of tests/fuzz/ with clang in
# their own build folder (every library instrumented with
# -fsanitize=fuzzer-no-link,address,undefined) and runs them one after the
# other, each for SECONDS on one core, seeded with tests/fuzz/<target>/seeds
# (plus ../shared/models for tflite when present). The corpus grows in
# BUILD/corpus/<target>/, crashes, leaks, UBSan reports, OOMs and time-outs
# land in BUILD/artifacts/<target>/ and each target's log in
# BUILD/logs/<target>.log. One summary line per target; exit 1 when any
# target crashed.
#
# The target `runs` is not libFuzzer: tests/fuzz/runs/fuzz_runs.py mutates
# whole scenarios (keys, models, .npy inputs) and runs them through the
# regular build's cosim (make cosim), reaching the backends, compilers and
# simulations the parser targets stop short of; its findings (exit 4, a
# signal, a hang, a bad-input message that is not one line) land in
# BUILD/artifacts/runs/<n>/ with a repro.sh.
#
# usage: scripts/fuzz.sh [SECONDS] [TARGET...]     targets: npy trace vta_raw scenario tflite runs
# env:   FUZZ_BUILD_DIR (default build-fuzz), COSIM_MODELS_DIR, FUZZ_RSS_MB (2048),
#        FUZZ_COSIM (the cosim binary `runs` drives; default build/tb/cosim/cosim, built when absent)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
secs="${1:-600}"
shift || true
all=(npy trace vta_raw scenario tflite runs)
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=("${all[@]}")
build="${FUZZ_BUILD_DIR:-$root/build-fuzz}"
models="${COSIM_MODELS_DIR:-$root/../shared/models}"
rss="${FUZZ_RSS_MB:-2048}"

for t in "${targets[@]}"; do
  [[ " ${all[*]} " == *" $t "* ]] || { echo "fuzz.sh: unknown target '$t' (expected one of: ${all[*]})" >&2; exit 2; }
done
libfuzzer=()
for t in "${targets[@]}"; do [[ $t == runs ]] || libfuzzer+=("fuzz_$t"); done
if [[ ${#libfuzzer[@]} -gt 0 ]]; then
  command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ not found (apt-get install clang)" >&2; exit 2; }
  san="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
  CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCOSIM_FUZZ=ON \
    -DCOSIM_SANITIZE=OFF -DCMAKE_CXX_FLAGS="$san" -DCMAKE_C_FLAGS="$san" >/dev/null
  cmake --build "$build" -j "${JOBS:-2}" --target "${libfuzzer[@]}"
fi
cosim="${FUZZ_COSIM:-$root/build/tb/cosim/cosim}"
if [[ " ${targets[*]} " == *" runs "* && -z ${FUZZ_COSIM:-} ]]; then
  make --no-print-directory -C "$root" cosim >/dev/null
fi

# Scratch files of each input (rewritten thousands of times a second): in
# memory when /dev/shm exists.
if [[ -z ${COSIM_FUZZ_TMP:-} ]]; then
  if [[ -d /dev/shm && -w /dev/shm ]]; then COSIM_FUZZ_TMP=/dev/shm; else COSIM_FUZZ_TMP="$build/tmp"; fi
fi
export COSIM_FUZZ_TMP
mkdir -p "$COSIM_FUZZ_TMP" "$build/logs"
summary=()
failed=0
done_targets=0
for t in "${targets[@]}"; do
  corpus="$build/corpus/$t"
  artifacts="$build/artifacts/$t"
  log="$build/logs/$t.log"
  mkdir -p "$corpus" "$artifacts"
  seeds=("$root/tests/fuzz/$t/seeds")
  if [[ $t == tflite ]] && compgen -G "$models/*.tflite" >/dev/null; then seeds+=("$models"); fi
  before=$(find "$artifacts" -type f | wc -l)
  echo "== fuzz_$t for ${secs}s (log: $log)"
  ticker=
  if [ -t 1 ]; then  # a person watching: seconds gone, targets done (nothing in CI logs)
    ( s=0; while sleep 5; do s=$((s + 5)); printf '\r\033[K  fuzz_%s: %d of %d s, target %d of %d' \
        "$t" "$s" "$secs" "$((done_targets + 1))" "${#targets[@]}"; done ) &
    ticker=$!
  fi
  set +e
  if [[ $t == runs ]]; then
    before=$(find "$artifacts" -mindepth 1 -maxdepth 1 -type d | wc -l)
    python3 "$root/tests/fuzz/runs/fuzz_runs.py" --cosim "$cosim" --seconds "$secs" --artifacts "$artifacts" \
      --models "$models" --tmp "$COSIM_FUZZ_TMP" >"$log" 2>&1
  else
    # libFuzzer's own out-of-memory report walks every heap chunk with the
    # world stopped, which on a heap of millions of chunks does not end:
    # the whole target is bounded from outside (exit 124 = it hung).
    (cd "$build/logs" && rm -f fuzz-0.log &&
      timeout -k 10 $(( secs + 300 )) \
      "$build/tests/fuzz/fuzz_$t" -max_total_time="$secs" -jobs=1 -workers=1 -rss_limit_mb="$rss" \
        -timeout=25 -print_final_stats=1 -artifact_prefix="$artifacts/" "$corpus" "${seeds[@]}" >/dev/null 2>&1
      status=$?; mv -f fuzz-0.log "$log" 2>/dev/null; exit $status)
  fi
  status=$?
  set -e
  if [ -n "$ticker" ]; then kill "$ticker" 2>/dev/null; wait "$ticker" 2>/dev/null; printf '\r\033[K'; fi
  done_targets=$((done_targets + 1))
  if [[ $t == runs ]]; then
    execs=$(grep -oE 'runs [0-9]+' "$log" 2>/dev/null | tail -n1 | awk '{print $2}')
    crashes=$(( $(find "$artifacts" -mindepth 1 -maxdepth 1 -type d | wc -l) - before ))
  else
    execs=$(grep -E '^stat::number_of_executed_units:' "$log" 2>/dev/null | tail -n1 | awk '{print $2}')
    [[ -n $execs ]] || execs=$(grep -oE '^#[0-9]+' "$log" 2>/dev/null | tail -n1 | tr -d '#')
    crashes=$(( $(find "$artifacts" -type f | wc -l) - before ))
    if [[ $status -eq 124 || $status -eq 137 ]]; then
      echo "fuzz_$t: still running $(( secs + 300 )) s after it started: killed (an out-of-memory report that never ends?)" >&2
    fi
  fi
  files=$(find "$corpus" -type f | wc -l)
  line=$(printf 'fuzz %-9s %4ss  execs %-10s crashes %d  corpus %d  exit %d' "$t" "$secs" "${execs:-?}" "$crashes" "$files" "$status")
  if [[ $status -ne 0 || $crashes -ne 0 ]]; then
    failed=1
    grep -E 'ERROR|SUMMARY|runtime error|invariant|Test unit written|finding' "$log" | head -n 5 || true
  fi
  summary+=("$line")
done
echo "---- summary ----"
printf '%s\n' "${summary[@]}"
exit $failed
