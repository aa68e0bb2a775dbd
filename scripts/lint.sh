#!/usr/bin/env bash
# verilator --lint-only -Wall on each accelerator's RTL: for every manifest
# (rtl/<dut>/<dut>.yaml, plus those given as arguments, e.g. the build's
# template instances), rtl/common/*.sv, the register package generated from
# the manifest, then the manifest's sources in order (scripts/dutgen.py), with
# the manifest's waiver files and flags (waivers, the -W/-D/-G part of
# verilator_args, lint_args) as the build passes them; rtl/common and the
# DUT's own folder are on the include path.
#
#   scripts/lint.sh [--only NAME[,NAME...]] [MANIFEST...]
# --only lints just the named accelerators (a new one, say) instead of all.
set -euo pipefail
only=""
if [ "${1:-}" = "--only" ]; then
  [ -n "${2:-}" ] || { echo "lint.sh: --only needs a comma-separated list of accelerator names" >&2; exit 2; }
  only=",$2,"; only_arg=$2; shift 2
fi
cd "$(dirname "$0")/.."
gen=$(mktemp -d)
trap 'rm -rf "$gen"' EXIT
python3 scripts/dutgen.py check >/dev/null
status=0
mapfile -t duts < <(python3 scripts/dutgen.py query names)
if [ -n "$only" ]; then
  picked=()
  for dut in "${duts[@]}"; do
    case "$only" in *",$dut,"*) picked+=("$dut") ;; esac
  done
  [ "${#picked[@]}" -gt 0 ] || { echo "lint.sh: no accelerator named by --only $only_arg (known: ${duts[*]})" >&2; exit 2; }
  duts=("${picked[@]}")
fi
for dut in "${duts[@]}" "$@"; do
  mapfile -t files < <(python3 scripts/dutgen.py query lint-files "$dut" "$gen")
  mapfile -t extra < <(python3 scripts/dutgen.py query lint-args "$dut")
  dir=$(dirname "${files[-1]}")
  name=$(basename "${dut%.yaml}")
  if verilator --lint-only -Wall -Wno-MULTITOP --timescale 1ps/1ps -Irtl/common "-I$dir" "${extra[@]}" "${files[@]}"; then
    echo "lint: $name clean"
  else
    echo "lint: $name has warnings" >&2; status=1
  fi
done
exit $status
