#!/usr/bin/env bash
# The Vitis-style template (vitisdut, the build's instance of templates/vitis)
# through `cosim`, as a user would run it:
#   - the poll and interrupt scenarios PASS bit-exact, with their register
#     checks held and each AXI4 master's own counters in report.json;
#   - with ap_start never written, the poll and the interrupt wait end with
#     exit 3 within their bound and a diagnosis naming the kernel's state;
#   - a replay whose register check expects a wrong LENGTH fails with exit 1
#     naming register, value, expected value and mask;
#   - --trace writes an FST and a view with the AXI groups of both masters.
#
#   vitis_template_test.sh COSIM SCENARIO_DIR OUT_DIR
set -euo pipefail
cosim=$1 scen=$2 out=$3
rm -rf "$out"
mkdir -p "$out"
fail() { echo "vitis_template_test: $*" >&2; exit 1; }

for w in poll irq; do
  "$cosim" run "$scen/vitisdut_$w.yaml" --out "$out/$w" > "$out/$w.log" 2>&1 || fail "$w: exit $? ($(tail -3 "$out/$w.log"))"
  python3 - "$out/$w/report.json" "$w" <<'PY' || fail "$w: report.json"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["status"] == "pass" and r["bit_exact"], r["status"]
rc = r["register_checks"]
assert rc["failed"] == 0 and rc["count"] >= (6 if sys.argv[2] == "irq" else 3), rc
p = r["perf_counters"]
assert p["gmem0.read_beats"] == 1024 and p["gmem1.read_beats"] == 1024, p   # 4096 int32 = 1024 16-byte beats each
assert p["gmem0.write_beats"] == 1024 and p["gmem1.write_beats"] == 0, p
PY
done

for w in poll irq; do
  sed -e "s/^wait: $w/wait: $w\nfault: no_start/" -e 's/timeout_cycles: .*/timeout_cycles: 3000/' \
    "$scen/vitisdut_$w.yaml" > "$out/nostart_$w.yaml"
  set +e
  timeout 120 "$cosim" run "$out/nostart_$w.yaml" --out "$out/nostart_$w" > "$out/nostart_$w.log" 2>&1
  rc=$?
  set -e
  [ "$rc" -eq 3 ] || fail "no_start ($w): exit $rc, expected 3"
  grep -q "within 3000 cycles" "$out/nostart_$w.log" || fail "no_start ($w): no bound in $(cat "$out/nostart_$w.log")"
  grep -q "vitisdut in state StIdle" "$out/nostart_$w.log" || fail "no_start ($w): no diagnosis"
done

cp -r "$out/poll/trace" "$out/badcheck"
sed -i 's/^reg_check 0x28 0x\([0-9a-f]*\) /reg_check 0x28 0x1 /' "$out/badcheck/trace.txt"
grep -q "^reg_check 0x28 0x1 " "$out/badcheck/trace.txt" || fail "no LENGTH check in the poll trace"
set +e
"$cosim" replay "$out/badcheck" --out "$out/badcheck_run" > "$out/badcheck.log" 2>&1
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "wrong register check: exit $rc, expected 1"
grep -q "register LENGTH (0x28): read 0x00004000, expected 0x00000001 under mask 0xffffffff" "$out/badcheck.log" ||
  fail "wrong register check: message $(cat "$out/badcheck.log")"

"$cosim" run "$scen/vitisdut_irq.yaml" --out "$out/wave" --trace > "$out/wave.log" 2>&1 || fail "--trace: exit $?"
[ -s "$out/wave/wave.fst" ] || fail "no wave.fst"
for m in gmem0 gmem1; do grep -q "AXI read address ($m)" "$out/wave/wave.gtkw" || fail "view lacks $m's AXI groups"; done
grep -q "m_axi_gmem1_ARVALID" "$out/wave/wave.gtkw" || fail "view lacks m_axi_gmem1_ARVALID"
echo "vitis_template_test: ok"
