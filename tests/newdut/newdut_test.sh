#!/usr/bin/env bash
# NewDut.scaffold_build_run (tests/newdut/CMakeLists.txt):
#   newdut_test.sh <source dir> <work dir> [name]
# Copies the git-tracked files of <source dir> to <work dir>/tree, commits
# them there, runs scripts/new-dut <name>, configures a build of that
# accelerator alone (COSIM_ONLY_DUTS) and builds `cosim` and the new test,
# runs them, and checks that only the new DUT's folders appeared.
# Then adds a toy operator `copy` (the adder with a zero second operand) to
# the new accelerator as an operator is meant to be added: one new file,
# tb/<name>/<name>_copy_op.cpp, and one line in tb/<name>/<name>_ops.def;
# rebuilds, runs it bit-exact, and checks again that nothing else changed.
# Environment: NEWDUT_JOBS (build jobs, default 2), NEWDUT_KEEP=1 keeps the tree.
set -euo pipefail
src=$(cd "$1" && pwd)
mkdir -p "$2"; work=$(cd "$2" && pwd)
name=${3:-vaddnpu}
jobs=${NEWDUT_JOBS:-2}
t0=$(date +%s)
step() { echo "[NewDut +$(( $(date +%s) - t0 ))s] $*"; }
fail() { echo "NewDut: FAIL: $*" >&2; exit 1; }

git -C "$src" rev-parse --git-dir >/dev/null 2>&1 || fail "$src is not a git checkout (the test copies its tracked files)"
tree=$work/tree
rm -rf "$tree"
mkdir -p "$tree"
step "copying the tracked files of $src to $tree"
(cd "$src" && git ls-files -z --cached | tar --null --ignore-failed-read -T - -cf -) | tar -xf - -C "$tree"
cd "$tree"
git init -q .
git add -A
git -c user.name=newdut -c user.email=newdut@localhost -c commit.gpgsign=false commit -qm "scratch copy" --no-verify
[ -z "$(git status --porcelain)" ] || fail "the scratch copy is not clean before the script ran"

step "name validation"
for bad in testdut Bad-Name 9lives int "a b"; do
  if out=$(python3 scripts/new-dut "$bad" 2>&1); then fail "scripts/new-dut accepted the name '$bad'"; fi
  [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || fail "expected one error line for '$bad', got: $out"
  case "$out" in new-dut:*"'$bad'"*) ;; *) fail "unclear error for '$bad': $out" ;; esac
done
[ -z "$(git status --porcelain)" ] || fail "a rejected name left files behind: $(git status --porcelain)"

step "make new-dut NAME=$name"
make --no-print-directory new-dut NAME="$name" >/dev/null
if make --no-print-directory new-dut NAME="$name" >/dev/null 2>&1; then fail "a second new-dut $name was accepted"; fi

check_status() {
  local line path bad="" seen=""
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    path=${line:3}
    case "$line" in '?? '*) ;; *) bad+=" [$line]"; continue ;; esac
    case "$path" in
      rtl/$name/*|tb/$name/*|cpp_model/$name/*|tests/$name/*|scenarios/${name}_vadd.yaml)
        seen+=" ${path%%/*}" ;;
      *) bad+=" [$line]" ;;
    esac
  done < <(git status --porcelain --untracked-files=all)
  [ -z "$bad" ] || fail "$1: changes outside the new DUT's folders:$bad"
  for d in rtl tb cpp_model tests scenarios; do
    case " $seen " in *" $d "*) ;; *) fail "$1: nothing new under $d/" ;; esac
  done
  [ -f "rtl/$name/$name.yaml" ] || fail "$1: no manifest rtl/$name/$name.yaml"
}
check_status "after new-dut"

# The other accelerators are linted by the lint test; only the new one here.
step "scripts/lint.sh --only $name (verilator --lint-only -Wall)"
bash scripts/lint.sh --only "$name" >build-lint.log 2>&1 || { cat build-lint.log; fail "scripts/lint.sh reports warnings"; }
grep -qx "lint: $name clean" build-lint.log || { cat build-lint.log; fail "scripts/lint.sh did not lint $name"; }
rm -f build-lint.log

export CCACHE_BASEDIR=$tree CCACHE_NOHASHDIR=1
step "configure"
# NEWDUT_CACHE_FROM (the build running this test): the scratch build takes
# its compilers and the results of its compiler checks (Verilator's,
# FindThreads', pybind11's, the -march probe: about 20 try_compile runs, a
# third of a configure), as a second configure of that build would.
preload=()
cache=${NEWDUT_CACHE_FROM:+$NEWDUT_CACHE_FROM/CMakeCache.txt}
if [ -n "$cache" ] && [ -f "$cache" ]; then
  {
    sed -nE 's/^(_[A-Za-z0-9][A-Za-z0-9_]*|CMAKE_HAVE_LIBC_PTHREAD|HAS_FLTO[A-Z_]*|COSIM_CXX_HAS_MARCH_[A-Za-z0-9_-]+):INTERNAL=(.*)$/set(\1 "\2" CACHE INTERNAL "")/p' \
      "$cache" | grep -v '^set(_Python'
    # CMakeLists.txt sets the compilers as plain variables; the build records them here.
    sed -nE 's/^set\((CMAKE_C_COMPILER|CMAKE_CXX_COMPILER) (".+")\)$/set(\1 \2 CACHE FILEPATH "")/p' \
      "$NEWDUT_CACHE_FROM"/CMakeFiles/*/CMakeCCompiler.cmake "$NEWDUT_CACHE_FROM"/CMakeFiles/*/CMakeCXXCompiler.cmake
  } >"$work/preload.cmake"
  preload=(-C "$work/preload.cmake")
fi
# Only the new accelerator is built (COSIM_ONLY_DUTS): what it needs, not
# every accelerator again.
cmake "${preload[@]}" -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCOSIM_ONLY_DUTS="$name" >build-configure.log 2>&1 \
  || { tail -30 build-configure.log; fail "configure failed"; }
step "build cosim test_${name}_model"
cmake --build build -j "$jobs" --target cosim "test_${name}_model" >build.log 2>&1 \
  || { grep -B2 -A12 -m3 'error\|FAILED' build.log; fail "build failed"; }
rm -f build-configure.log build.log

step "test_${name}_model"
"build/tests/$name/test_${name}_model" --gtest_brief=1 || fail "test_${name}_model failed"

cosim=build/tb/cosim/cosim
step "cosim list"
"$cosim" list >build/list.txt || fail "cosim list failed"
grep -Eq "^ +$name +ops: vadd( |$)" build/list.txt || { cat build/list.txt; fail "cosim list does not show target $name"; }
# The build left the other accelerators out (COSIM_ONLY_DUTS).
if grep -Eq "^ +(vta|tf2|tinydnn) +ops:" build/list.txt; then cat build/list.txt; fail "the build includes another accelerator"; fi
grep -Eq "^ +${name}_vadd +$name +vadd( |$)" build/list.txt || { cat build/list.txt; fail "cosim list does not show scenario ${name}_vadd"; }

step "cosim run scenarios/${name}_vadd.yaml --trace"
out=build/out/${name}_vadd
"$cosim" run "scenarios/${name}_vadd.yaml" --out "$out" --trace "$out/wave.fst" || fail "cosim run exited with $?"
python3 - "$out/report.json" <<'PY' || fail "report.json is not a bit-exact pass"
import json, sys
r = json.load(open(sys.argv[1]))
st, el, mm = r.get("status"), r["mismatch"]["elements"], r["mismatch"]["count"]
print(f"report: status={st} elements={el} mismatches={mm} cycles={r.get('cycles')}")
sys.exit(0 if st == "pass" and el > 0 and mm == 0 else 1)
PY
[ -s "$out/wave.fst" ] || fail "no waveform $out/wave.fst"
[ -s "$out/wave.gtkw" ] || fail "no view $out/wave.gtkw next to the waveform"
for sig in "$name.done_o" "$name.state_o" "$name.reg_req_valid_i" "$name.m_axi_arvalid_o" "$name.m_axi_wdata_o"; do
  grep -q -F "$sig" "$out/wave.gtkw" || fail "the view $out/wave.gtkw does not name $sig"
done

step "a scenario that never starts the adder must fail"
sed 's/^seed: 1$/seed: 1\nfault: no_start/; s/timeout_cycles: .*/timeout_cycles: 2000/' "scenarios/${name}_vadd.yaml" \
  >"build/${name}_hang.yaml"
rc=0
"$cosim" run "build/${name}_hang.yaml" --out build/out/hang >build/out/hang.log 2>&1 || rc=$?
[ "$rc" -eq 3 ] || { cat build/out/hang.log; fail "a never-started adder gave exit $rc, expected 3 (timeout)"; }

step "the check must see a broken adder: saturation removed from rtl/$name/${name}_pkg.sv"
pkg=rtl/$name/${name}_pkg.sv
cp "$pkg" build/pkg.orig
sed -i '/if (sum > 9.sd127) return 8.h7f;/d' "$pkg"
cmp -s "$pkg" build/pkg.orig && fail "could not remove the saturation from $pkg"
cmake --build build -j "$jobs" --target cosim >build/mutant.log 2>&1 || { tail -20 build/mutant.log; fail "mutant build failed"; }
rc=0
"$cosim" run "scenarios/${name}_vadd.yaml" --out build/out/mutant >build/out/mutant.log 2>&1 || rc=$?
cp build/pkg.orig "$pkg"
[ "$rc" -eq 1 ] || { cat build/out/mutant.log; fail "the adder without saturation gave exit $rc, expected 1 (mismatch)"; }
grep -m1 "mismatching" build/out/mutant.log

check_status "after the build and runs"

step "a toy operator: tb/$name/${name}_copy_op.cpp and one line in tb/$name/${name}_ops.def"
rm -rf build/tb_before && cp -r "tb/$name" build/tb_before
cat >"tb/$name/${name}_copy_op.cpp" <<EOF
// A toy operator (tests/newdut/newdut_test.sh): \`copy\` moves an int8 vector
// through the adder with a zero second operand (a + 0 saturates to a).
#include <memory>
#include <vector>

#include "cosim/operator.hpp"
#include "dut/${name}_regs.hpp"

namespace cosim::tb::${name} {

namespace {

namespace regs = cosim::${name}::regs;

struct CopyState {
  uint64_t src = 0x1000, zeros = 0x40000, dst = 0x100000;
};

class CopyOp : public tb::TypedOperator<CopyState> {
 public:
  std::string name() const override { return "copy"; }
  scenario::Schema schema() const override { return scenario::schemas::input_tensors({"a"}); }
  CopyState prepare(const scenario::Scenario& sc, tb::Workload& w) const override {
    const std::vector<int64_t> shape = sc["shapes"]["input"].as_ints();
    Tensor a = scenario::make_tensor(sc, sc["data"]["a"], DType::kInt8, shape, Layout::kAny, "a");
    if (a.nbytes() % 8 != 0) sc["shapes"]["input"].fail("expected a multiple of 8 bytes");
    w.summary = "copy " + std::to_string(a.nbytes()) + " int8";
    w.expected["output"] = a;
    w.inputs["a"] = std::move(a);
    return CopyState{};
  }
  trace::Trace compile(const scenario::Scenario& sc, const tb::Workload& w, const CopyState& st) const override {
    const Tensor& a = w.inputs.at("a");
    trace::Trace t;
    t.mem_load(st.src, a.bytes(), "a");
    t.mem_load(st.zeros, std::vector<uint8_t>(a.bytes().size(), 0), "zeros");
    t.reg_write(regs::kLength, static_cast<uint32_t>(a.nbytes()));
    t.reg_write(regs::kSrcA, static_cast<uint32_t>(st.src));
    t.reg_write(regs::kSrcB, static_cast<uint32_t>(st.zeros));
    t.reg_write(regs::kDst, static_cast<uint32_t>(st.dst));
    t.reg_write(regs::kControl, regs::control::kStartMask);
    t.wait_done(sc.testbench.timeout_cycles);
    t.mem_check(st.dst, w.expected.at("output"), "output");
    return t;
  }
};

}  // namespace

std::unique_ptr<tb::Operator> make_copy_op() { return std::make_unique<CopyOp>(); }

}  // namespace cosim::tb::${name}
EOF
echo 'COSIM_OPERATOR(copy)' >>"tb/$name/${name}_ops.def"
changes=$(diff -r build/tb_before "tb/$name" | grep -E '^(Only in|[<>] )' || true)
expected_changes="Only in tb/$name: ${name}_copy_op.cpp
> COSIM_OPERATOR(copy)"
[ "$changes" = "$expected_changes" ] || fail "adding the operator changed more than its file and one line: $changes"
rm -rf build/tb_before
step "build cosim with the operator"
cmake --build build -j "$jobs" --target cosim >build/toy.log 2>&1 \
  || { grep -B2 -A12 -m3 'error\|FAILED' build/toy.log; fail "build with the toy operator failed"; }
"$cosim" list >build/list.txt || fail "cosim list failed"
grep -Eq "^ +$name +ops: vadd, copy( |$)" build/list.txt || { cat build/list.txt; fail "cosim list does not show ops vadd copy of $name"; }
sed 's/^name: .*/name: '"$name"'_copy/; s/^op: vadd/op: copy/; /^  b: random/d; /^addresses:/,$d' \
  "scenarios/${name}_vadd.yaml" >"build/${name}_copy.yaml"
step "cosim run build/${name}_copy.yaml"
rc=0
"$cosim" run "build/${name}_copy.yaml" --out build/out/copy >build/out/copy.log 2>&1 || rc=$?
[ "$rc" -eq 0 ] || { cat build/out/copy.log; fail "the toy operator's run exited with $rc"; }
python3 - build/out/copy/report.json <<'PY' || fail "the toy operator's report.json is not a bit-exact pass"
import json, sys
r = json.load(open(sys.argv[1]))
st, el, mm = r.get("status"), r["mismatch"]["elements"], r["mismatch"]["count"]
print(f"report: op={r.get('op')} status={st} elements={el} mismatches={mm} cycles={r.get('cycles')}")
sys.exit(0 if r.get("op") == "copy" and st == "pass" and el > 0 and mm == 0 else 1)
PY
check_status "after the toy operator"
step "pass"
[ "${NEWDUT_KEEP:-0}" = 1 ] || rm -rf "$tree"
