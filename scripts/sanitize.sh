#!/usr/bin/env bash
# AddressSanitizer + UndefinedBehaviorSanitizer run of the C++ unit tests.
#
# Configures $BUILD (default build-asan) with -DCOSIM_SANITIZE=ON, builds the
# test executables that do not link a Verilated accelerator (the golden
# models, compilers, trace, scenario, tflite import and the TLM testbench
# parts; the small test DUT is allowed) and runs them with ctest. The
# Verilated accelerator tests (and the CLI tests driving the cosim binary)
# are left out to keep the run short on two cores: instrumenting the large
# generated models multiplies their build and run time. Any sanitizer report
# fails the run. Compiled with g++ (the main build uses clang: see below).
#
#   bash scripts/sanitize.sh            BUILD=... JOBS=... to override
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-asan}
JOBS=${JOBS:-$(nproc)}
start=$(date +%s)

# -O1 -g1: the optimisation ASan recommends, and line tables (not full debug
# info) for the reports: cheaper to compile than RelWithDebInfo (-O2 -g).
#
# g++ (CC/CXX override it): the main build (make test, make ci) compiles with
# clang when it is installed (issue 35, it simulates faster), so CI's second
# compiler is here, where it is cheapest: these are our own sources (the
# golden models, testbench, tests) without the large Verilated accelerators,
# which is what a g++-only error or warning would be in. The fuzz build
# (scripts/fuzz.sh) stays clang: libFuzzer is clang's.
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
  -DCMAKE_C_FLAGS_DEBUG="-O1 -g1" -DCOSIM_SANITIZE=ON \
  -DCMAKE_C_COMPILER="${CC:-gcc}" -DCMAKE_CXX_COMPILER="${CXX:-g++}" >/dev/null

# Test executables from build.ninja, minus those whose build runs Verilator
# on an accelerator (directly or through a binary they drive, like cosim);
# the small test DUT is allowed.
mapfile -t targets < <(python3 - "$BUILD" <<'EOF'
import subprocess, sys
build = sys.argv[1]
candidates = []
with open(f"{build}/build.ninja") as f:
    for line in f:
        if line.startswith("build tests/") and "CXX_EXECUTABLE_LINKER" in line:
            candidates.append(line.split(":", 1)[0][len("build "):].strip())
keep = []
for out in sorted(set(candidates)):
    cmds = subprocess.run(["ninja", "-C", build, "-t", "commands", out], capture_output=True, text=True).stdout
    verilates = [c for c in cmds.splitlines() if "verilator" in c and "--prefix" in c]
    if all("--prefix Vtestdut " in c for c in verilates):
        keep.append(out.rsplit("/", 1)[-1])
print("\n".join(keep))
EOF
)
if [ ${#targets[@]} -eq 0 ]; then
  echo "sanitize: no test executables found in $BUILD/build.ninja" >&2
  exit 2
fi
echo "sanitize: building ${#targets[@]} test executables: ${targets[*]}"
cmake --build "$BUILD" -j "$JOBS" --target "${targets[@]}"
built=$(date +%s)

# halt_on_error: a UBSan finding must fail the test, not just print.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
status=0
# Executables not built above show up as <name>_NOT_BUILT; scenario tests,
# the regress labels and the browser test drive the cosim binary or long
# sweeps. The newdut and install tests configure and build a whole second
# tree of their own (Release, not instrumented): nothing of theirs is
# sanitized, and on a cold compiler cache they alone cost CI half an hour.
# The docs tests and input_slices (cosim run --jobs) drive the cosim binary
# (not built here) and run in make test.
ctest --test-dir "$BUILD" -j "$JOBS" --output-on-failure --timeout 600 \
  -E '_NOT_BUILT$|_scenario_|^input_slices_' -LE '^(regress|regress_tool|browser|newdut|install|mutation_tool|docs)$' || status=$?
end=$(date +%s)
echo "sanitize: build $((built - start)) s, tests $((end - built)) s, total $((end - start)) s; status $status"
exit $status
