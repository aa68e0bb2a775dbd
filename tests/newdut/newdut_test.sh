#!/usr/bin/env bash
# NewDut.scaffold_build_run (tests/newdut/CMakeLists.txt):
#   newdut_test.sh <source dir> <work dir> [name]
# Copies the git-tracked files of <source dir> to <work dir>/tree, commits
# them there, runs scripts/new-dut <name>, configures and builds `cosim` and
# the new test, runs them, and checks that only the new DUT's folders appeared.
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

step "scripts/lint.sh (verilator --lint-only -Wall on every DUT, $name included)"
bash scripts/lint.sh >build-lint.log 2>&1 || { cat build-lint.log; fail "scripts/lint.sh reports warnings"; }
grep -qx "lint: $name clean" build-lint.log || { cat build-lint.log; fail "scripts/lint.sh did not lint $name"; }
rm -f build-lint.log

export CCACHE_BASEDIR=$tree CCACHE_NOHASHDIR=1
step "configure"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >build-configure.log 2>&1 \
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
step "pass"
[ "${NEWDUT_KEEP:-0}" = 1 ] || rm -rf "$tree"
