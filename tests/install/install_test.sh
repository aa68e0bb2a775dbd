#!/usr/bin/env bash
# An accelerator in its own repository, end to end, as a user would go:
#   1. cmake --install the build into a scratch prefix;
#   2. `cosim new-dut NAME --style S --out DIR` (the installed cosim) into a
#      scratch folder outside the source tree;
#   3. build DIR against the installation (find_package(cosim), a plugin) and
#      run its golden-model test (googletest, cosim::golden);
#   4. every scenario of DIR bit-exact with the installed `cosim --dut-path DIR`,
#      `cosim list` naming the plugin, a waveform with the generated view;
#   5. `cosim new-dut --refresh` rewrites a stale wrapper and nothing of the
#      project's; the same run from the installed Python module
#      (COSIM_DUT_PATH), its output compared with NumPy's own sum;
#   6. vitis: the kernel's FSM renamed (a kernel without the signals the
#      template's diagnosis reads, as a vendor's is): it still builds and
#      runs bit-exact with no wrapper edit, busy_cycles is left out, and a
#      hang is diagnosed by the pins;
#   7. vitis: a streaming kernel in the template's place (stream_kernel/: an
#      AXI4-Lite control port and two 32-bit streams without TLAST, no AXI4
#      master), the manifest's interfaces edited and an op added: bit-exact
#      with stalls on both streams and no wrapper edit; a word sent beyond
#      LENGTH is reported, a word short hangs with the streams in the diagnosis;
#      without ap_done polled, the check waits for the words; the op call
#      runs it from register names and .npy streams;
#   8. vitis: a free-running kernel (no control port, `control: none`, as
#      Vitis's ap_ctrl_none; two input streams joined beat by beat, one of
#      128 bits with TKEEP and TLAST, one of 64; an input tied by the
#      manifest): its words sent and checked, a short last beat among
#      them, bit-exact, also with half the cycles stalled; the op call runs
#      it with streams only (wait none);
#   9. vitis: the same sums made in a second clock domain (ap_clk_2 and
#      ap_rst_n_2 under the manifest's ports.clocks, two xpm_fifo_async
#      stand-ins between the domains): bit-exact with the second clock faster
#      (3/2) and slower (2/5) than ap_clk, with and without stalls;
#  10. vitis: the kernel described from ap_clk_2, its streams on ap_clk;
#  11. vitis: the template's kernel as HLS hands a kernel over (one Verilog
#      file, flattened by `verilator -E`, with the control port's Address
#      Info table): `cosim new-dut --from-hls` imports it, the project builds
#      with no file edited, and the op `call` runs it from a scenario and
#      .npy files written here: bit-exact, and one wrong expected element
#      fails naming it;
#  12. vitis: a kernel whose memory ports are native (three `sram`
#      interfaces, byte addresses) called with the op call: bit-exact, its
#      reads and writes counted, its pins in the waveform's view, a write
#      past the DRAM one error;
#  13. vitis: a kernel with block-level control on pins, a 96-bit scalar
#      argument port, a returned value and an ap_fifo output, as HLS writes
#      a top function without an AXI4-Lite interface (stream_kernel/NAME_blk.v):
#      imported by --from-hls (an ap_ctrl port, KEY_0..KEY_2 on its pin,
#      AP_RETURN read back, the FIFO port a stream by `signals`, ap_ce tied
#      high), built, and called 300 times from one scenario
#      (calls: 300), a stream word a call, the last call's return checked
#      (results): bit-exact with stalls; one key word wrong fails; then
#      as a batch (per_call: a key and a returned value a call, rows of
#      .npy files): bit-exact, its 300 calls and their latency counted, and
#      one wrong return fails naming call 150; its array split into two
#      streams as Vivado HLS 2020 splits one (res_V_data_0_V, _1_V) gets
#      lower-case names and is checked as res_v_data_*_v, a file's columns,
#      one wrong half failing naming it; the batch with overlap: true
#      (no wait for ap_done between calls) bit-exact in fewer cycles;
#  14. `git status` of the source tree unchanged.
#  (8b, vitis: the free-running kernel of step 8 as hand-written RTL in a
#      folder of its own, imported with --from-rtl: its streams found by
#      their names, STEP named as tied; bit-exact once STEP is set to 1;
#      s0 sent as packets and s1 checked as packets (TLAST after each row),
#      and checked against other packets, the first misplaced TLAST named.)
#
#   install_test.sh SOURCE_DIR BUILD_DIR STYLE [PYTHON]   (STYLE: reg or vitis;
#                    PYTHON: the interpreter the module was built for)
set -euo pipefail
src=$1 build=$2 style=$3 python=${4:-python3}
name=my${style}npu
fail() { echo "install_test ($style): $*" >&2; exit 1; }
before=$(git -C "$src" status --porcelain --untracked-files=all)
# The scratch folder lives under the build tree at a fixed place, and ccache
# sees paths below it as relative ones: a second run of the test hits the
# cache for every plugin source instead of compiling it again (a random
# folder in /tmp made every compile a miss: about 25 s a run).
scratch=$build/install-test/$style
rm -rf "$scratch"
mkdir -p "$scratch"
export CCACHE_BASEDIR=$scratch CCACHE_NOHASHDIR=1
trap 'rc=$?; [ -n "${COSIM_KEEP_SCRATCH:-}" ] || [ "$rc" -ne 0 ] || rm -rf "$scratch"' EXIT
prefix=$scratch/prefix dir=$scratch/$name

cmake --install "$build" --prefix "$prefix" > "$scratch/install.log" || fail "cmake --install failed"
cosim=$prefix/bin/cosim
[ -x "$cosim" ] || fail "no $cosim"
# What a plugin resolves against the program: the stream models' explicit
# instantiations (64-bit beats) are exported even where no built-in target
# calls them out of line (an unoptimised plugin of a 64-bit stream did not load).
if command -v nm > /dev/null; then
  nm -DC "$cosim" > "$scratch/cosim.syms"
  grep -q "cosim::tb::axis::BasicSource<8ul, 8ul>::update" "$scratch/cosim.syms" ||
    fail "the installed cosim does not export BasicSource<8>::update"
fi
"$cosim" new-dut "$name" --style "$style" --out "$dir" > "$scratch/newdut.log" 2>&1 || fail "new-dut: $(cat "$scratch/newdut.log")"
launcher=()
command -v ccache > /dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$dir" -B "$dir/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" "${launcher[@]}" \
  > "$scratch/configure.log" 2>&1 || fail "configure: $(tail -20 "$scratch/configure.log")"
# One job: CTest gives this test one core; the other runs other tests.
cmake --build "$dir/build" -j 1 > "$scratch/build.log" 2>&1 || fail "build: $(grep -m5 -E 'error|Error' "$scratch/build.log")"
[ -f "$dir/build/$name.cosim-plugin.so" ] || fail "no plugin $dir/build/$name.cosim-plugin.so"
ctest --test-dir "$dir/build" > "$scratch/ctest.log" 2>&1 || fail "model test: $(tail -20 "$scratch/ctest.log")"
grep -q "100% tests passed, 0 tests failed out of [1-9]" "$scratch/ctest.log" || fail "model test: $(cat "$scratch/ctest.log")"

"$cosim" --dut-path "$dir" list --dir "$dir/scenarios" > "$scratch/list.log" 2>&1 || fail "list: $(cat "$scratch/list.log")"
grep -q "^  $name .*\[plugin $dir/build/$name.cosim-plugin.so\]" "$scratch/list.log" || fail "list: $(cat "$scratch/list.log")"
# Without the path the installed cosim does not know the target: one line, exit 2.
set +e
"$cosim" run "$(ls "$dir"/scenarios/*.yaml | head -1)" --out "$scratch/nopath" > "$scratch/nopath.log" 2>&1
rc=$?
set -e
[ "$rc" -eq 2 ] && grep -q "'target': expected one of .*, got '$name'" "$scratch/nopath.log" || fail "without --dut-path: exit $rc: $(cat "$scratch/nopath.log")"

n=0
for sc in "$dir"/scenarios/*.yaml; do
  s=$(basename "$sc" .yaml)
  "$cosim" --dut-path "$dir" run "$sc" --out "$scratch/out/$s" --trace > "$scratch/$s.log" 2>&1 ||
    fail "$s: exit $? ($(tail -5 "$scratch/$s.log"))"
  grep -q "PASS bit-exact" "$scratch/$s.log" || fail "$s: $(cat "$scratch/$s.log")"
  [ -s "$scratch/out/$s/wave.fst" ] && [ -s "$scratch/out/$s/wave.gtkw" ] || fail "$s: no waveform"
  # The generated view of the plugin's manifest (its AXI groups), not the bare port list.
  grep -q "AXI read address" "$scratch/out/$s/wave.gtkw" || fail "$s: the .gtkw lacks the view's AXI groups"
  n=$((n + 1))
done
[ "$n" -ge 1 ] || fail "no scenario in $dir/scenarios"

# A project follows an upgraded cosim: --refresh rewrites the wrapper it
# does not own (here made stale by hand), and leaves the project's own files.
echo "// stale" >> "$dir/tb/$name/${name}_wrapper.cpp"
echo "// the project's" >> "$dir/tb/$name/${name}_backend.cpp"
"$cosim" new-dut "$name" --out "$dir" --refresh > "$scratch/refresh.log" 2>&1 || fail "refresh: $(cat "$scratch/refresh.log")"
grep -q "refreshed tb/$name/${name}_wrapper.cpp" "$scratch/refresh.log" && grep -q "1 file(s) refreshed" "$scratch/refresh.log" ||
  fail "refresh: $(cat "$scratch/refresh.log")"
! grep -q "// stale" "$dir/tb/$name/${name}_wrapper.cpp" && grep -q "// the project's" "$dir/tb/$name/${name}_backend.cpp" ||
  fail "refresh: rewrote the wrong files"
"$cosim" new-dut "$name" --out "$dir" --refresh | grep -q "the wrapper is this installation's already" || fail "refresh twice"
set +e
"$cosim" new-dut "$name" --out "$scratch" --refresh > "$scratch/refresh_bad.log" 2>&1
rc=$?
set -e
[ "$rc" -eq 2 ] && grep -q "is not a project of $name" "$scratch/refresh_bad.log" || fail "refresh elsewhere: exit $rc: $(cat "$scratch/refresh_bad.log")"

first=$(ls "$dir"/scenarios/*.yaml | head -1)
PYTHONPATH=$prefix/lib/cosim/python COSIM_DUT_PATH=$dir "$python" - "$first" "$scratch/py" "$style" <<'PY' || fail "Python"
import sys
import numpy as np
import cosim
scenario, out, style = sys.argv[1:]
assert any(t["name"].startswith("my") and t["origin"] for t in cosim.list()["targets"]), cosim.list()["targets"]
r = cosim.run(scenario, out=out)
assert r.passed and r.exit_status == 0, r.console
a, b = r.inputs["a"], r.inputs["b"]
if style == "vitis":   # int32, wrapping
    want = (a.astype(np.int64) + b).astype(np.uint32).astype(np.int32)
else:                  # int8, saturating
    want = np.clip(a.astype(np.int16) + b, -128, 127).astype(np.int8)
(name,) = r.outputs
np.testing.assert_array_equal(r.outputs[name].reshape(-1), want.reshape(-1))
print("python: ok", name, r.outputs[name].size)
PY

if [ "$style" == vitis ]; then
  # The RTL's state register under another name: the .vlt's public_flat_rd
  # lines then name nothing, and the wrapper does not see state_q.
  sed -i 's/\bstate_q\b/phase_q/g' "$dir/rtl/$name/$name.sv" "$dir/rtl/$name/$name.yaml"
  cmake --build "$dir/build" -j 1 > "$scratch/build2.log" 2>&1 ||
    fail "renamed FSM: build: $(grep -m5 -E 'error|Error' "$scratch/build2.log")"
  poll=$dir/scenarios/${name}_poll.yaml
  "$cosim" --dut-path "$dir" run "$poll" --out "$scratch/out/renamed" > "$scratch/renamed.log" 2>&1 ||
    fail "renamed FSM: exit $? ($(tail -5 "$scratch/renamed.log"))"
  grep -q "PASS bit-exact" "$scratch/renamed.log" || fail "renamed FSM: $(cat "$scratch/renamed.log")"
  "$python" -c 'import json, sys; p = json.load(open(sys.argv[1]))["perf_counters"]; assert "busy_cycles" not in p, p' \
    "$scratch/out/renamed/report.json" || fail "renamed FSM: busy_cycles reported"
  sed -e "s/^wait: poll/wait: poll\nfault: no_start/" -e 's/timeout_cycles: .*/timeout_cycles: 3000/' "$poll" \
    > "$scratch/nostart.yaml"
  set +e
  "$cosim" --dut-path "$dir" run "$scratch/nostart.yaml" --out "$scratch/out/nostart" > "$scratch/nostart.log" 2>&1
  rc=$?
  set -e
  [ "$rc" -eq 3 ] && grep -q "within 3000 cycles.*: $name: interrupt=0; gmem0: AXI slave" "$scratch/nostart.log" ||
    fail "renamed FSM, no start: exit $rc: $(cat "$scratch/nostart.log")"
fi

if [ "$style" == vitis ]; then
  kit=$src/tests/install/stream_kernel
  sed "s/@NAME@/$name/g" "$kit/@NAME@.sv" > "$dir/rtl/$name/$name.sv"
  sed "s/@NAME@/$name/g" "$kit/@NAME@_addc_op.cpp" > "$dir/tb/$name/${name}_addc_op.cpp"
  sed "s/@NAME@/$name/g" "$kit/@NAME@_addc.yaml" > "$dir/scenarios/${name}_addc.yaml"
  echo "COSIM_OPERATOR(addc)" >> "$dir/tb/$name/${name}_ops.def"
  # The manifest as a user edits it: the two AXI4 masters become the two
  # streams; the waveform's kernel group names the new kernel's registers
  # (the streams get their groups from the interfaces).
  "$python" - "$dir/rtl/$name/$name.yaml" "$name" <<'PY' || fail "stream kernel: manifest edit"
import re, sys
path, name = sys.argv[1:]
text = open(path).read()
gmem = re.compile(r"^    - \{name: gmem0, .*\n    - \{name: gmem1, .*\n", re.M)
assert gmem.search(text), "no gmem interfaces"
text = gmem.sub("    - {name: p0, kind: axis_in, prefix: p0_, case: upper}\n"
                "    - {name: p1, kind: axis_out, prefix: p1_, case: upper}\n", text)
kernel = re.compile(r"signals: \[" + name + r"\.phase_q dec.*?\]", re.S)
assert kernel.search(text), "no kernel wave group"
text = kernel.sub(f"signals: [{name}.run_q, {name}.in_left_q dec, {name}.out_left_q dec]", text)
open(path, "w").write(text)
PY
  cmake --build "$dir/build" -j 1 > "$scratch/build3.log" 2>&1 ||
    fail "stream kernel: build: $(grep -m5 -E 'error|Error' "$scratch/build3.log")"
  addc=$dir/scenarios/${name}_addc.yaml
  "$cosim" --dut-path "$dir" run "$addc" --out "$scratch/out/addc" --trace > "$scratch/addc.log" 2>&1 ||
    fail "stream kernel: exit $? ($(tail -5 "$scratch/addc.log"))"
  grep -q "PASS bit-exact" "$scratch/addc.log" || fail "stream kernel: $(cat "$scratch/addc.log")"
  [ -s "$scratch/out/addc/wave.fst" ] || fail "stream kernel: no waveform"
  # The view's stream groups, from the manifest's axis interfaces.
  grep -q "^-AXI-Stream in (p0)" "$scratch/out/addc/wave.gtkw" && grep -q "^-AXI-Stream out (p1)" "$scratch/out/addc/wave.gtkw" ||
    fail "stream kernel: the .gtkw lacks the stream groups: $(grep '^-' "$scratch/out/addc/wave.gtkw")"
  set +e
  "$cosim" --dut-path "$dir" run "$addc" --set fault=long --out "$scratch/out/long" > "$scratch/long.log" 2>&1
  rc_long=$?
  "$cosim" --dut-path "$dir" run "$addc" --set fault=short --set testbench.timeout_cycles=20000 \
    --out "$scratch/out/short" > "$scratch/short.log" 2>&1
  rc_short=$?
  # Without ap_done: the check clocks the kernel until its words are there, or times out.
  "$cosim" --dut-path "$dir" run "$addc" --set wait=none --out "$scratch/out/nodone" > "$scratch/nodone.log" 2>&1
  rc_nodone=$?
  "$cosim" --dut-path "$dir" run "$addc" --set wait=none --set fault=short --set testbench.timeout_cycles=20000 \
    --out "$scratch/out/nodone_short" > "$scratch/nodone_short.log" 2>&1
  rc_nodone_short=$?
  "$cosim" --dut-path "$dir" run "$addc" --set fault=increment --out "$scratch/out/wrong" > "$scratch/wrong.log" 2>&1
  rc_wrong=$?
  set -e
  # A stream's element has no address: its cycle is the one it was handed over, and the
  # report's GTKWave command opens the waveform there.
  [ "$rc_wrong" -eq 1 ] && grep -q "3000 mismatching" "$scratch/wrong.log" &&
    grep -Eq "first diff  out\[i0=0\] written at cycle [0-9]+$" "$scratch/wrong.log" &&
    grep -q "id=\"gtkwave-command\">COSIM_DUT_PATH=$dir " "$scratch/out/wrong/report.html" &&
    ! grep -q "never written" "$scratch/wrong.log" "$scratch/out/wrong/report.html" ||
    fail "stream kernel, a wrong increment: exit $rc_wrong: $(cat "$scratch/wrong.log")"
  # The page's command, as a user pastes it into a new shell: the replay finds the plugin's target
  # and writes the window's waveform and view.
  cmd=$("$python" -c 'import html, re, sys; print(html.unescape(re.search(r"id=\"gtkwave-command\">([^<]*)", open(sys.argv[1]).read()).group(1)).split("; test -f")[0])' \
    "$scratch/out/wrong/report.html")
  (unset COSIM_DUT_PATH; eval "$cmd") > "$scratch/wrong_replay.log" 2>&1 || true
  grep -q "3000 mismatching" "$scratch/wrong_replay.log" && [ -s "$scratch/out/wrong/divergence/wave.gtkw" ] ||
    fail "stream kernel, the page's replay command: $cmd: $(cat "$scratch/wrong_replay.log")"
  [ "$rc_nodone" -eq 0 ] && grep -q "PASS bit-exact" "$scratch/nodone.log" ||
    fail "stream kernel without ap_done: exit $rc_nodone: $(cat "$scratch/nodone.log")"
  [ "$rc_nodone_short" -eq 3 ] &&
    grep -q "stream p1 did not give the 12000 bytes of check 'out' within 20000 cycles.*p1: 2999 beats taken" \
      "$scratch/nodone_short.log" || fail "stream kernel without ap_done, a word short: exit $rc_nodone_short: $(cat "$scratch/nodone_short.log")"
  [ "$rc_long" -eq 1 ] && grep -q "stream p0: 4 bytes sent that the DUT never took" "$scratch/long.log" ||
    fail "stream kernel, a word too many: exit $rc_long: $(cat "$scratch/long.log")"
  [ "$rc_short" -eq 3 ] && grep -q "within 20000 cycles.*p0: 0 bytes to send, TVALID=0 TREADY=1; p1: 2999 beats taken" \
    "$scratch/short.log" || fail "stream kernel, a word short: exit $rc_short: $(cat "$scratch/short.log")"
  # The same kernel through the op call: its arguments by register name, the streams from .npy files.
  call_npy() {  # DIR: in.npy (3000 words), out.npy (in - 5, wrapping); in_free, add, out_free.npy for step 8
    "$python" - "$1" <<'PY'
import sys
import numpy as np
d = sys.argv[1]
rng = np.random.default_rng(5)
x = rng.integers(-2**31, 2**31, 3000, dtype=np.int64)
np.save(f"{d}/in.npy", x.astype(np.int32))
np.save(f"{d}/out.npy", ((x - 5) % 2**32).astype(np.uint32).astype(np.int32))
y = x[:2001]
add = rng.integers(-2**31, 2**31, (2001 + 3) // 4 * 2, dtype=np.int64)
w = np.arange(2001)
np.save(f"{d}/in_free.npy", y.astype(np.int32))
np.save(f"{d}/add.npy", add.astype(np.int32))
np.save(f"{d}/out_free.npy", ((y + add[w // 4 * 2 + w % 2] + 1) % 2**32).astype(np.uint32).astype(np.int32))
PY
  }
  call_npy "$dir/scenarios" || fail "stream kernel, call: the .npy files"
  cat > "$dir/scenarios/call_streams.yaml" <<YAML
target: $name
op: call
testbench: {stall_probability: 0.3}
args: {A_LO: 0xfffffffb, LENGTH: 12000}
streams:
  - {name: p0, dtype: int32, shape: [3000], data: {npy: in.npy}}
  - {name: p1, dtype: int32, shape: [3000], expect: {npy: out.npy}}
YAML
  "$cosim" --dut-path "$dir" run "$dir/scenarios/call_streams.yaml" --out "$scratch/out/call_streams" \
    > "$scratch/call_streams.log" 2>&1 && grep -q "PASS bit-exact (1 check, 3000 elements)" "$scratch/call_streams.log" ||
    fail "stream kernel, call: $(cat "$scratch/call_streams.log")"

  # 8. A free-running kernel: no control port, no interrupt, two 128-bit streams.
  sed "s/@NAME@/$name/g" "$kit/@NAME@_free.sv" > "$dir/rtl/$name/$name.sv"
  sed "s/@NAME@/$name/g" "$kit/@NAME@_joined_ports.svh" > "$dir/rtl/$name/${name}_joined_ports.svh"
  rm "$dir/rtl/$name/${name}_control_s_axi.sv" "$dir/tb/$name/${name}_vadd_op.cpp" "$dir/tb/$name/${name}_addc_op.cpp"
  sed "s/@NAME@/$name/g" "$kit/@NAME@_inc_op.cpp" > "$dir/tb/$name/${name}_inc_op.cpp"
  sed "s/@NAME@/$name/g" "$kit/@NAME@_inc.yaml" > "$dir/scenarios/${name}_inc.yaml"
  printf 'COSIM_OPERATOR(inc)\nCOSIM_OPERATOR(call)\n' > "$dir/tb/$name/${name}_ops.def"
  "$python" - "$dir/rtl/$name/$name.yaml" "$name" <<'PY' || fail "free-running kernel: manifest edit"
import re, sys
path, name = sys.argv[1:]
text = open(path).read()
text = re.sub(r"^sources:\n(  - .*\n)+", f"sources: [{name}.sv]\n", text, flags=re.M)
iface = re.compile(r"^  interfaces:\n(    - .*\n)+", re.M)
assert iface.search(text), "no interfaces"
text = iface.sub("  interfaces:\n    - {name: s0, kind: axis_in, prefix: s0_, case: upper}\n"
                 "    - {name: s1, kind: axis_out, prefix: s1_, case: upper}\n"
                 "    - {name: s2, kind: axis_in, prefix: s2_, case: upper}\n", text)
text = re.sub(r"^control: .*$", "control: none", text, flags=re.M)
text = re.sub(r"^(  reset: .*\n)", r"\1  tie: {STEP: 1}\n", text, flags=re.M)
text = re.sub(r"^registers:\n(  .*\n|\n)+?(?=^variants:)", "registers: []\n\n", text, flags=re.M)
text = re.sub(r"^wave:\n(  .*\n)+", "", text, flags=re.M)
open(path, "w").write(text)
PY
  # Files left the manifest: configure again (Verilator's CMake rules depend on every file it read).
  cmake "$dir/build" > "$scratch/configure4.log" 2>&1 || fail "free-running kernel: configure: $(tail -20 "$scratch/configure4.log")"
  cmake --build "$dir/build" -j 1 > "$scratch/build4.log" 2>&1 ||
    fail "free-running kernel: build: $(grep -m5 -E 'error|Error' "$scratch/build4.log") ($(cat "$dir/rtl/$name/$name.yaml"))"
  inc=$dir/scenarios/${name}_inc.yaml
  "$cosim" --dut-path "$dir" run "$inc" --out "$scratch/out/inc" > "$scratch/inc.log" 2>&1 ||
    fail "free-running kernel: exit $? ($(tail -5 "$scratch/inc.log"))"
  grep -q "PASS bit-exact" "$scratch/inc.log" || fail "free-running kernel: $(cat "$scratch/inc.log")"
  # The op call without a control map: no register, no start, wait none by default.
  cat > "$dir/scenarios/call_free.yaml" <<YAML
target: $name
op: call
testbench: {stall_probability: 0.25, timeout_cycles: 50000}
streams:
  - {name: s0, dtype: int32, shape: [2001], data: {npy: in_free.npy}}
  - {name: s2, dtype: int32, shape: [1002], data: {npy: add.npy}}
  - {name: s1, dtype: int32, shape: [2001], expect: {npy: out_free.npy}}
YAML
  "$cosim" --dut-path "$dir" run "$dir/scenarios/call_free.yaml" --out "$scratch/out/call_free" \
    > "$scratch/call_free.log" 2>&1 && grep -q "PASS bit-exact (1 check, 2001 elements)" "$scratch/call_free.log" &&
    grep -q "streams, wait none" "$scratch/call_free.log" || fail "free-running kernel, call: $(cat "$scratch/call_free.log")"
  set +e
  "$cosim" --dut-path "$dir" run "$dir/scenarios/call_free.yaml" --set wait=poll --out "$scratch/out/call_free_poll" \
    > "$scratch/call_free_poll.log" 2>&1
  rc=$?
  set -e
  [ "$rc" -eq 2 ] && grep -q "the kernel has no control map (control: none): only wait: none" "$scratch/call_free_poll.log" ||
    fail "free-running kernel, call with wait poll: exit $rc: $(cat "$scratch/call_free_poll.log")"
  # Two input streams joined beat by beat, each with its own stalls: more of them.
  for seed in 1 2 3; do
    "$cosim" --dut-path "$dir" run "$inc" --seed $seed --set testbench.stall_probability=0.5 --out "$scratch/out/inc$seed" \
      > "$scratch/inc$seed.log" 2>&1 && grep -q "PASS bit-exact" "$scratch/inc$seed.log" ||
      fail "free-running kernel, seed $seed, stalls 0.5: $(cat "$scratch/inc$seed.log")"
  done
  # 8b. The same kernel as hand-written RTL kept in a repository of its own, imported with
  # --from-rtl: the manifest names it there and sorts its ports by their names; STEP, which the
  # import ties at 0 and names to check, set to 1 as a user would; the call above passes on it.
  fk=freek frepo=$scratch/free-repo fdir=$scratch/freek
  mkdir -p "$frepo"
  sed "s/@NAME@/$fk/g" "$kit/@NAME@_free.sv" > "$frepo/$fk.sv"
  sed "s/@NAME@/$fk/g" "$kit/@NAME@_joined_ports.svh" > "$frepo/${fk}_joined_ports.svh"
  "$cosim" new-dut "$fk" --out "$fdir" --from-rtl "$frepo/$fk.sv" > "$scratch/import-free.log" 2>&1 &&
    grep -q "^new-dut: interfaces: s0 (axis_in, prefix s0_), s2 (axis_in, prefix s2_), s1 (axis_out, prefix s1_)$" \
      "$scratch/import-free.log" &&
    grep -q "^new-dut: tied at 0 (check): STEP$" "$scratch/import-free.log" &&
    grep -q "^  - ../../../free-repo/$fk.sv$" "$fdir/rtl/$fk/$fk.yaml" ||
    fail "hand-written kernel: import: $(cat "$scratch/import-free.log")"
  sed -i 's/^  tie: {STEP: 0}$/  tie: {STEP: 1}/' "$fdir/rtl/$fk/$fk.yaml"
  # What --from-rtl refuses, one line each, leaving no folder behind.
  for bad in "--from-rtl $frepo/nope.sv|no such file" "--style reg --from-rtl $frepo/$fk.sv|does not go with them" \
             "--from-hls $frepo --from-rtl $frepo/$fk.sv|not both"; do
    set +e
    # shellcheck disable=SC2086  # the options are words
    "$cosim" new-dut badk --out "$scratch/badk" ${bad%%|*} > "$scratch/import-bad.log" 2>&1
    rc=$?
    set -e
    [ "$rc" -eq 2 ] && grep -q "${bad#*|}" "$scratch/import-bad.log" && [ "$(wc -l < "$scratch/import-bad.log")" -eq 1 ] &&
      [ ! -e "$scratch/badk" ] || fail "hand-written kernel: new-dut ${bad%%|*}: exit $rc: $(cat "$scratch/import-bad.log")"
  done
  # Configured as new-dut's next steps say, without a build type: the project builds optimized.
  cmake -S "$fdir" -B "$fdir/build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
    "${launcher[@]}" > "$scratch/configure-free.log" 2>&1 || fail "hand-written kernel: configure: $(tail -20 "$scratch/configure-free.log")"
  grep -q "^CMAKE_BUILD_TYPE:STRING=Release$" "$fdir/build/CMakeCache.txt" ||
    fail "hand-written kernel: a project configured without a build type is not built optimized"
  cmake --build "$fdir/build" -j 1 > "$scratch/build-free.log" 2>&1 ||
    fail "hand-written kernel: build: $(grep -m5 -E 'error|Error' "$scratch/build-free.log")"
  sed "s/^target: $name$/target: $fk/" "$dir/scenarios/call_free.yaml" > "$dir/scenarios/call_free_imported.yaml"
  "$cosim" --dut-path "$fdir" run "$dir/scenarios/call_free_imported.yaml" --out "$scratch/out/call_free_imported" \
    > "$scratch/call_free_imported.log" 2>&1 && grep -q "PASS bit-exact (1 check, 2001 elements)" "$scratch/call_free_imported.log" ||
    fail "hand-written kernel, call: $(cat "$scratch/call_free_imported.log")"
  # Packets (packets: true): s0 sent as 667 packets of 3 words, a short beat each, TLAST on it; the
  # kernel passes TLAST through, so s1 must end a packet after every 3 words. Checked against
  # packets of 23 words instead, the first TLAST is named.
  "$python" - "$dir/scenarios" "$fk" <<'PY' || fail "hand-written kernel: packet files"
import sys
import numpy as np
d, k = sys.argv[1:]
rng = np.random.default_rng(8)
x = rng.integers(0, 2**32, 2001, dtype=np.uint64)
add = rng.integers(0, 2**32, 1334, dtype=np.uint64)   # an s2 beat (two words) a packet
w = np.arange(2001)
y = (x + add[2 * (w // 3) + (w % 3) % 2] + 1) % 2**32  # lane l of a beat adds s2's word l % 2, STEP 1
np.save(f"{d}/x_pk.npy", x.astype(np.uint32).reshape(667, 3))
np.save(f"{d}/add_pk.npy", add.astype(np.uint32))
np.save(f"{d}/y_pk.npy", y.astype(np.uint32).reshape(667, 3))
np.save(f"{d}/y_pk23.npy", y.astype(np.uint32).reshape(87, 23))
for name, out in (("call_packets", "{name: s1, dtype: uint32, shape: [667, 3], expect: {npy: y_pk.npy}, packets: true}"),
                  ("call_packets_wrong", "{name: s1, dtype: uint32, shape: [87, 23], expect: {npy: y_pk23.npy}, packets: true}")):
    with open(f"{d}/{name}.yaml", "w") as f:
        f.write(f"target: {k}\nop: call\ntestbench: {{stall_probability: 0.25}}\nstreams:\n"
                "  - {name: s0, dtype: uint32, shape: [667, 3], data: {npy: x_pk.npy}, packets: true}\n"
                "  - {name: s2, dtype: uint32, shape: [1334], data: {npy: add_pk.npy}}\n"
                f"  - {out}\n")
PY
  "$cosim" --dut-path "$fdir" run "$dir/scenarios/call_packets.yaml" --out "$scratch/out/call_packets" \
    > "$scratch/call_packets.log" 2>&1 && grep -q "PASS bit-exact (1 check, 2001 elements)" "$scratch/call_packets.log" ||
    fail "hand-written kernel, packets: $(cat "$scratch/call_packets.log")"
  set +e
  "$cosim" --dut-path "$fdir" run "$dir/scenarios/call_packets_wrong.yaml" --out "$scratch/out/call_packets_wrong" \
    > "$scratch/call_packets_wrong.log" 2>&1
  rc=$?
  set -e
  [ "$rc" -eq 1 ] && grep -q "DUT error   stream s1 (check 's1', packets of 92 bytes): TLAST after byte 12, inside packet 0, which ends after byte 92" \
    "$scratch/call_packets_wrong.log" || fail "hand-written kernel, packets of 23: exit $rc: $(cat "$scratch/call_packets_wrong.log")"

  # 9. The sums made in a second clock domain: ap_clk_2 at 3/2, then at 2/5, of ap_clk.
  sed "s/@NAME@/$name/g" "$kit/@NAME@_twoclk.sv" > "$dir/rtl/$name/$name.sv"
  for ratio in 3/2 2/5; do
    "$python" - "$dir/rtl/$name/$name.yaml" "$ratio" <<'PY' || fail "two-clock kernel: manifest edit"
import re, sys
path, ratio = sys.argv[1:]
text = re.sub(r"^  clocks: .*\n", "", open(path).read(), flags=re.M)
text = re.sub(r"^(  reset: .*\n)", rf"\1  clocks: {{ap_clk_2: {{ratio: {ratio}, reset: ap_rst_n_2}}}}\n", text, flags=re.M)
if not re.search(r"^vendor:", text, flags=re.M):
    text = re.sub(r"^(waivers: .*\n)", r"\1vendor: [xpm_fifo_async]\n", text, flags=re.M)
open(path, "w").write(text)
PY
    grep -q "ratio: $ratio" "$dir/rtl/$name/$name.yaml" || fail "two-clock kernel: no ratio in $(cat "$dir/rtl/$name/$name.yaml")"
    cmake "$dir/build" > "$scratch/configure5.log" 2>&1 ||
      fail "two-clock kernel: configure: $(tail -20 "$scratch/configure5.log")"
    cmake --build "$dir/build" -j 1 > "$scratch/build5.log" 2>&1 ||
      fail "two-clock kernel: build: $(grep -m5 -E 'error|Error' "$scratch/build5.log")"
    for stalls in 0 0.5; do
      log=$scratch/twoclk-${ratio/\//_}-$stalls.log
      "$cosim" --dut-path "$dir" run "$inc" --seed 2 --set testbench.stall_probability=$stalls \
        --out "$scratch/out/twoclk-${ratio/\//_}-$stalls" > "$log" 2>&1 && grep -q "PASS bit-exact" "$log" &&
        grep -q "^  clocks      ap_clk (the cycles); ap_clk_2 at $ratio$" "$log" &&
        grep -q "\"clocks\": \"ap_clk (the cycles); ap_clk_2 at $ratio\"" "$scratch/out/twoclk-${ratio/\//_}-$stalls/report.json" ||
        fail "two-clock kernel, ap_clk_2 at $ratio, stalls $stalls: $(cat "$log")"
    done
  done

  # 10. The same kernel described from ap_clk_2 (at 2/5 of ap_clk, as last): ap_clk, with every
  # stream on it, at 5/2 of the primary clock. Its streams' binders run on ap_clk's edges: the
  # result is the same, in 2/5 of the cycles, now ap_clk_2's.
  "$python" - "$dir/rtl/$name/$name.yaml" <<'PY' || fail "streams on a further clock: manifest edit"
import re, sys
path = sys.argv[1]
text = open(path).read()
for old, new in (("  clock: ap_clk\n", "  clock: ap_clk_2\n"), ("port: ap_rst_n,", "port: ap_rst_n_2,"),
                 ("  clocks: {ap_clk_2: {ratio: 2/5, reset: ap_rst_n_2}}", "  clocks: {ap_clk: {ratio: 5/2, reset: ap_rst_n}}")):
    assert text.count(old) == 1, (old, text)
    text = text.replace(old, new)
assert text.count("case: upper}") == 3, text
text = text.replace("case: upper}", "case: upper, clock: ap_clk}")
open(path, "w").write(text)
PY
  cmake "$dir/build" > "$scratch/configure6.log" 2>&1 ||
    fail "streams on a further clock: configure: $(tail -20 "$scratch/configure6.log")"
  cmake --build "$dir/build" -j 1 > "$scratch/build6.log" 2>&1 ||
    fail "streams on a further clock: build: $(grep -m5 -E 'error|Error' "$scratch/build6.log")"
  for stalls in 0 0.5; do
    log=$scratch/swapped-$stalls.log
    "$cosim" --dut-path "$dir" run "$inc" --seed 2 --set testbench.stall_probability=$stalls \
      --out "$scratch/out/swapped-$stalls" > "$log" 2>&1 && grep -q "PASS bit-exact" "$log" &&
      grep -q "^  clocks      ap_clk_2 (the cycles); ap_clk at 5/2: s0, s1, s2$" "$log" ||
      fail "streams on a further clock, stalls $stalls: $(cat "$log")"
  done
  cycles_of() { sed -n 's/^  cycles      \([0-9]*\) .*/\1/p' "$1"; }
  primary=$(cycles_of "$scratch/twoclk-2_5-0.log") swapped=$(cycles_of "$scratch/swapped-0.log")
  # 2/5 of the cycles, but for the few the reset and the first and last beats fall on.
  [ -n "$primary" ] && [ -n "$swapped" ] && [ $((5 * swapped)) -ge $((2 * primary - 50)) ] &&
    [ $((5 * swapped)) -le $((2 * primary + 50)) ] ||
    fail "streams on a further clock: $swapped cycles of ap_clk_2, against $primary of ap_clk at ratio 2/5"
fi

if [ "$style" == vitis ]; then
  # 11. The template's kernel as HLS would hand it over, imported and called from a scenario.
  hls=$scratch/hls k=hlskrnl imported=$scratch/imported
  mkdir -p "$hls/src"
  for f in "$prefix"/share/cosim/templates/vitis/rtl/@NAME@/*; do
    base=$(basename "$f")
    sed "s/@NAME@/$k/g" "$f" > "$hls/src/${base//@NAME@/$k}"
  done
  verilator -E -P -I"$hls/src" "$hls/src/${k}_control_s_axi.sv" "$hls/src/$k.sv" > "$hls/$k.v" 2> "$scratch/flatten.log" ||
    fail "HLS import: verilator -E: $(cat "$scratch/flatten.log")"
  "$python" - "$hls/$k.v" <<'PY' || fail "HLS import: the Address Info table"
import sys
rows = ["0x00 : Control signals", "       bit 0  - ap_start (Read/Write/COH)", "0x04 : Global Interrupt Enable Register",
        "0x08 : IP Interrupt Enable Register (Read/Write)", "0x0c : IP Interrupt Status Register (Read/TOW)"]
for i, arg in enumerate("abc"):
    for half, bits in enumerate(("31:0", "63:32")):
        rows += [f"0x{0x10 + 8 * i + 4 * half:02x} : Data signal of {arg}", f"       bit 31~0 - {arg}[{bits}] (Read/Write)"]
rows += ["0x28 : Data signal of length", "       bit 31~0 - length[31:0] (Read/Write)",
         "(SC = Self Clear, COR = Clear on Read, TOW = Toggle on Write, COH = Clear on Handshake)"]
with open(sys.argv[1], "a") as f:
    f.write("//------------------------Address Info-------------------\n" + "".join(f"// {r}\n" for r in rows))
PY
  # A ROM as HLS writes one (its image read from the folder the run starts in), here unused by the
  # kernel: the import copies its image and makes the path absolute in the copy.
  printf 'module %s_w_rom (input clk);\nreg [7:0] ram[0:3];\ninitial begin\n  $readmemh("./%s_w_rom.dat", ram);\nend\nendmodule\n' \
    "$k" "$k" > "$hls/${k}_w_rom.v"
  printf '01\n02\n03\n04\n' > "$hls/${k}_w_rom.dat"
  "$cosim" new-dut imported --out "$imported" --from-hls "$hls" > "$scratch/import.log" 2>&1 &&
    grep -q "^new-dut: ROM images: 1 copied beside the Verilog" "$scratch/import.log" &&
    grep -q "readmemh(\"$imported/rtl/imported/${k}_w_rom.dat\", ram)" "$imported/rtl/imported/${k}_w_rom.v" &&
    cmp -s "$hls/${k}_w_rom.dat" "$imported/rtl/imported/${k}_w_rom.dat" &&
    grep -q "^new-dut: interfaces: control (axi4lite), gmem0 (axi4), gmem1 (axi4), interrupt (irq)$" "$scratch/import.log" &&
    grep -q "^new-dut: registers: 7 argument words$" "$scratch/import.log" || fail "HLS import: $(cat "$scratch/import.log")"
  cmake -S "$imported" -B "$imported/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
    "${launcher[@]}" > "$scratch/configure-imported.log" 2>&1 ||
    fail "HLS import: configure: $(tail -20 "$scratch/configure-imported.log")"
  cmake --build "$imported/build" -j 1 > "$scratch/build-imported.log" 2>&1 ||
    fail "HLS import: build: $(grep -m5 -E 'error|Error' "$scratch/build-imported.log")"
  "$python" - "$imported/scenarios" <<'PY' || fail "HLS import: the .npy files"
import sys
import numpy as np
d = sys.argv[1]
rng = np.random.default_rng(3)
a, b = (rng.integers(-2**31, 2**31, 1000, dtype=np.int64).astype(np.int32) for _ in range(2))
np.save(f"{d}/a.npy", a)
np.save(f"{d}/b.npy", b)
c = (a.astype(np.int64) + b).astype(np.uint32).astype(np.int32)   # wrapping, as the kernel adds
np.save(f"{d}/c.npy", c)
c[617] += 1
np.save(f"{d}/c_wrong.npy", c)
with open(f"{d}/call.yaml", "w") as f:
    f.write("target: imported\nop: call\n"
            "args: {A_LO: a, A_HI: a.hi, B_LO: b, B_HI: b.hi, C_LO: c, C_HI: c.hi, LENGTH: 4000}\n"
            "buffers:\n"
            "  - {name: a, at: 0x1000, dtype: int32, shape: [1000], data: {npy: a.npy}}\n"
            "  - {name: b, at: 0x8000, dtype: int32, shape: [1000], data: {npy: b.npy}}\n"
            "  - {name: c, at: 0x10000, dtype: int32, shape: [1000], expect: {npy: c.npy}}\n")
PY
  for wait in poll irq; do
    log=$scratch/imported-$wait.log
    "$cosim" --dut-path "$imported" run "$imported/scenarios/call.yaml" --set wait=$wait \
      --out "$scratch/out/imported-$wait" > "$log" 2>&1 && grep -q "PASS bit-exact (1 check, 1000 elements)" "$log" ||
      fail "HLS import: the call ($wait): $(cat "$log")"
  done
  sed -i 's/c.npy/c_wrong.npy/' "$imported/scenarios/call.yaml"
  set +e
  "$cosim" --dut-path "$imported" run "$imported/scenarios/call.yaml" --out "$scratch/out/imported-wrong" \
    > "$scratch/imported-wrong.log" 2>&1
  rc=$?
  set -e
  [ "$rc" -eq 1 ] && grep -q "c\[i0=617\]" "$scratch/imported-wrong.log" ||
    fail "HLS import: a wrong expected element: exit $rc: $(cat "$scratch/imported-wrong.log")"
fi

if [ "$style" == vitis ]; then
  # 12. A kernel whose memory ports are native (sram interfaces: address, enable, byte enables, data),
  #     its arguments in the template's control map, called with step 11's .npy files.
  sk=sramk sdir=$scratch/sramk
  "$cosim" new-dut "$sk" --style vitis --out "$sdir" > "$scratch/newdut-sram.log" 2>&1 ||
    fail "sram kernel: new-dut: $(cat "$scratch/newdut-sram.log")"
  sed "s/@NAME@/$sk/g" "$src/tests/install/stream_kernel/@NAME@_sram.sv" > "$sdir/rtl/$sk/$sk.sv"
  "$python" - "$sdir/rtl/$sk/$sk.yaml" <<'PY' || fail "sram kernel: manifest edit"
import re, sys
path = sys.argv[1]
text = open(path).read()
gmem = re.compile(r"^    - \{name: gmem0, .*\n    - \{name: gmem1, .*\n", re.M)
assert gmem.search(text), "no gmem interfaces"
text = gmem.sub("".join(f"    - {{name: {p}, kind: sram, prefix: {p}_, addressing: byte}}\n" for p in "abc"), text)
open(path, "w").write(text)
PY
  cmake -S "$sdir" -B "$sdir/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
    "${launcher[@]}" > "$scratch/configure-sram.log" 2>&1 || fail "sram kernel: configure: $(tail -20 "$scratch/configure-sram.log")"
  cmake --build "$sdir/build" -j 1 > "$scratch/build-sram.log" 2>&1 ||
    fail "sram kernel: build: $(grep -m5 -E 'error|Error' "$scratch/build-sram.log")"
  npy=$imported/scenarios
  cat > "$sdir/scenarios/call.yaml" <<YAML
target: $sk
op: call
args: {A_LO: a, B_LO: b, C_LO: c, LENGTH: 4000}
buffers:
  - {name: a, at: 0x1000, dtype: int32, shape: [1000], data: {npy: $npy/a.npy}}
  - {name: b, at: 0x8004, dtype: int32, shape: [1000], data: {npy: $npy/b.npy}}
  - {name: c, at: 0x10008, dtype: int32, shape: [1000], expect: {npy: $npy/c.npy}}
YAML
  "$cosim" --dut-path "$sdir" run "$sdir/scenarios/call.yaml" --out "$scratch/out/sram" --trace > "$scratch/sram.log" 2>&1 &&
    grep -q "PASS bit-exact (1 check, 1000 elements)" "$scratch/sram.log" &&
    grep -q "^-Memory port (c)" "$scratch/out/sram/wave.gtkw" && grep -q "c_wdata" "$scratch/out/sram/wave.gtkw" &&
    "$python" -c 'import json, sys; p = json.load(open(sys.argv[1]))["perf_counters"]; assert (p["a.reads"], p["b.reads"], p["c.writes"]) == (1000, 1000, 1000), p' \
      "$scratch/out/sram/report.json" || fail "sram kernel: $(cat "$scratch/sram.log")"
  # C past the DRAM's end: the refused write is one error naming the interface.
  set +e
  "$cosim" --dut-path "$sdir" run "$sdir/scenarios/call.yaml" --set args.C_LO=0x3fffff0 --out "$scratch/out/sram_far" \
    > "$scratch/sram_far.log" 2>&1
  rc=$?
  set -e
  [ "$rc" -ne 0 ] && grep -q "sram c: write of address 0x4000000" "$scratch/sram_far.log" ||
    fail "sram kernel, C past the DRAM: exit $rc: $(cat "$scratch/sram_far.log")"
fi

if [ "$style" == vitis ]; then
  # 13. Block-level control on pins (no AXI4-Lite port): the testbench is its control adapter.
  bk=blkk bhls=$scratch/blk-hls bdir=$scratch/blkk
  mkdir -p "$bhls"
  sed "s/@NAME@/$bk/g" "$src/tests/install/stream_kernel/@NAME@_blk.v" > "$bhls/$bk.v"
  "$cosim" new-dut "$bk" --out "$bdir" --from-hls "$bhls" > "$scratch/import-blk.log" 2>&1 &&
    grep -q "^new-dut: interfaces: control (ap_ctrl), in_r (axis_in), res_v_data_0_v (axis_out), res_v_data_1_v (axis_out), out_r (axis_out)$" \
      "$scratch/import-blk.log" &&
    grep -q "^new-dut: registers: 4 argument words$" "$scratch/import-blk.log" &&
    grep -q "{name: AP_RETURN, offset: 0x1c, access: ro, pin: ap_return, word: 0" "$bdir/rtl/$bk/$bk.yaml" &&
    grep -q "{name: out_r, kind: axis_out, signals: {tdata: out_r_din, tvalid: out_r_write, tready: out_r_full_n}}" \
      "$bdir/rtl/$bk/$bk.yaml" &&
    grep -q "^new-dut: tied: ap_ce=1$" "$scratch/import-blk.log" &&
    grep -q "{name: KEY_2, offset: 0x18, access: rw, pin: key, word: 2" "$bdir/rtl/$bk/$bk.yaml" ||
    fail "block-level kernel: import: $(cat "$scratch/import-blk.log")"
  cmake -S "$bdir" -B "$bdir/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
    "${launcher[@]}" > "$scratch/configure-blk.log" 2>&1 || fail "block-level kernel: configure: $(tail -20 "$scratch/configure-blk.log")"
  cmake --build "$bdir/build" -j 1 > "$scratch/build-blk.log" 2>&1 ||
    fail "block-level kernel: build: $(grep -m5 -E 'error|Error' "$scratch/build-blk.log")"
  "$python" - "$bdir/scenarios" "$bk" <<'PY' || fail "block-level kernel: the .npy files"
import sys
import numpy as np
d, k = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(5)
key = [int(w) for w in rng.integers(0, 2**32, 3, dtype=np.uint64)]
x = rng.integers(0, 2**64, 300, dtype=np.uint64)
lo = np.uint64(key[0] | key[1] << 32)
y = (x ^ lo) + np.uint64(key[2])   # wrapping, as the kernel adds
np.save(f"{d}/x.npy", x.view(np.uint32))
np.save(f"{d}/y.npy", y.view(np.uint32))
np.save(f"{d}/y_res.npy", y.view(np.uint32).reshape(300, 2))  # the split array: y's low half, high half a call
for name, k2 in (("call", key[2]), ("call_wrong", key[2] ^ 1)):
    with open(f"{d}/{name}.yaml", "w") as f:
        f.write(f"target: {k}\nop: call\ncalls: 300\n"
                f"args: {{KEY_0: {key[0]}, KEY_1: {key[1]}, KEY_2: {k2}}}\n"
                f"results: {{AP_RETURN: {int(y[-1]) >> 32}}}\n"
                "streams:\n"
                "  - {name: in_r, dtype: uint32, shape: [600], data: {npy: x.npy}}\n"
                "  - {name: out_r, dtype: uint32, shape: [600], expect: {npy: y.npy}}\n"
                "  - {name: res_v_data_*_v, dtype: uint32, shape: [300, 2], expect: {npy: y_res.npy}}\n")
# A batch: each call its own key (a row of keys.npy) and its own returned value (rets.npy).
keys = rng.integers(0, 2**32, (300, 3), dtype=np.uint64)
lo = keys[:, 0] | keys[:, 1] << np.uint64(32)
yb = (x ^ lo) + keys[:, 2]
np.save(f"{d}/keys.npy", keys.astype(np.uint32))
np.save(f"{d}/yb.npy", yb.view(np.uint32))
for name, flip, halves in (("batch", 0, 0), ("batch_wrong", 1, 0), ("batch_halves_wrong", 0, 1)):
    rets = (yb >> np.uint64(32)).astype(np.uint32)
    rets[150] ^= flip  # the return of call 150 only
    np.save(f"{d}/{name}_rets.npy", rets)
    res = yb.view(np.uint32).reshape(300, 2)  # the split array: y's low half, high half a call
    res[77, 1] ^= halves  # the high half of call 77 only
    np.save(f"{d}/{name}_res.npy", res)
    with open(f"{d}/{name}.yaml", "w") as f:
        f.write(f"target: {k}\nop: call\ncalls: 300\n"
                "args: {KEY: {npy: keys.npy, per_call: true}}\n"
                f"results: {{AP_RETURN: {{npy: {name}_rets.npy, per_call: true}}}}\n"
                "streams:\n"
                "  - {name: in_r, dtype: uint32, shape: [600], data: {npy: x.npy}}\n"
                "  - {name: out_r, dtype: uint32, shape: [600], expect: {npy: yb.npy}}\n"
                f"  - {{name: res_v_data_*_v, dtype: uint32, shape: [300, 2], expect: {{npy: {name}_res.npy}}}}\n")
# The batch with overlap: each ap_start once the last is taken, its key first; the streams checked.
with open(f"{d}/batch_overlap.yaml", "w") as f:
    f.write(f"target: {k}\nop: call\ncalls: 300\noverlap: true\n"
            "args: {KEY: {npy: keys.npy, per_call: true}}\n"
            "streams:\n"
            "  - {name: in_r, dtype: uint32, shape: [600], data: {npy: x.npy}}\n"
            "  - {name: out_r, dtype: uint32, shape: [600], expect: {npy: yb.npy}}\n"
            "  - {name: res_v_data_*_v, dtype: uint32, shape: [300, 2], expect: {npy: batch_res.npy}}\n")
PY
  "$cosim" --dut-path "$bdir" run "$bdir/scenarios/call.yaml" --set testbench.stall_probability=0.3 \
    --out "$scratch/out/blk" > "$scratch/blk.log" 2>&1 && grep -q "PASS bit-exact (3 checks, 1200 elements; 1 register check)" "$scratch/blk.log" ||
    fail "block-level kernel: the calls: $(cat "$scratch/blk.log")"
  set +e
  "$cosim" --dut-path "$bdir" run "$bdir/scenarios/call_wrong.yaml" --out "$scratch/out/blk-wrong" > "$scratch/blk-wrong.log" 2>&1
  rc=$?
  set -e
  [ "$rc" -eq 1 ] && grep -q "FAIL" "$scratch/blk-wrong.log" ||
    fail "block-level kernel: a wrong key word: exit $rc: $(cat "$scratch/blk-wrong.log")"
  # per_call: a key and a returned value a call, from the rows of .npy files.
  "$cosim" --dut-path "$bdir" run "$bdir/scenarios/batch.yaml" --out "$scratch/out/blk-batch" > "$scratch/blk-batch.log" 2>&1 &&
    grep -q "PASS bit-exact (3 checks, 1200 elements; 300 register checks)" "$scratch/blk-batch.log" &&
    grep -q "^  calls       300 (control), latency [0-9.]* cycles from ap_start to ap_done, one taken every [0-9.]* cycles$" \
      "$scratch/blk-batch.log" ||
    fail "block-level kernel: a key a call: $(cat "$scratch/blk-batch.log")"
  set +e
  "$cosim" --dut-path "$bdir" run "$bdir/scenarios/batch_wrong.yaml" --out "$scratch/out/blk-batch-wrong" > "$scratch/blk-batch-wrong.log" 2>&1
  rc=$?
  set -e
  [ "$rc" -eq 1 ] && grep -q "300 register checks, 1 failing" "$scratch/blk-batch-wrong.log" &&
    grep -q "register AP_RETURN.call150 " "$scratch/blk-batch-wrong.log" ||
    fail "block-level kernel: a wrong return of call 150: exit $rc: $(cat "$scratch/blk-batch-wrong.log")"
  # The split array (res_v_data_*_v, a file's columns): the high half of call 77 off by one bit.
  set +e
  "$cosim" --dut-path "$bdir" run "$bdir/scenarios/batch_halves_wrong.yaml" --out "$scratch/out/blk-halves-wrong" \
    > "$scratch/blk-halves-wrong.log" 2>&1
  rc=$?
  set -e
  [ "$rc" -eq 1 ] && grep -q "FAIL (3 checks, 1200 elements, 1 mismatching" "$scratch/blk-halves-wrong.log" &&
    grep -q "res_v_data_1_v\[i0=77\]" "$scratch/blk-halves-wrong.log" ||
    fail "block-level kernel: a wrong high half of call 77: exit $rc: $(cat "$scratch/blk-halves-wrong.log")"
  # overlap: true: no poll for ap_done between calls, so the batch takes fewer cycles; this kernel
  # takes a start only when idle, so none overlaps another.
  "$cosim" --dut-path "$bdir" run "$bdir/scenarios/batch_overlap.yaml" --out "$scratch/out/blk-overlap" \
    > "$scratch/blk-overlap.log" 2>&1 &&
    grep -q "PASS bit-exact (3 checks, 1200 elements)" "$scratch/blk-overlap.log" &&
    grep -q "^  calls       300 (control), latency [0-9.]* cycles from ap_start to ap_done, one taken every [0-9.]* cycles$" \
      "$scratch/blk-overlap.log" ||
    fail "block-level kernel: overlapping calls: $(cat "$scratch/blk-overlap.log")"
  cycles_of() { sed -n 's/^  cycles      \([0-9]*\) .*/\1/p' "$1"; }
  [ "$(cycles_of "$scratch/blk-overlap.log")" -lt "$(cycles_of "$scratch/blk-batch.log")" ] ||
    fail "block-level kernel: overlapping calls took no fewer cycles:" \
      "$(cycles_of "$scratch/blk-overlap.log") against $(cycles_of "$scratch/blk-batch.log")"
fi

after=$(git -C "$src" status --porcelain --untracked-files=all)
[ "$before" == "$after" ] || fail "the source tree changed: $(diff <(echo "$before") <(echo "$after") | head)"
echo "install_test ($style): ok (model test; $n scenarios with the installed cosim, Python, waveforms; source tree untouched)"
