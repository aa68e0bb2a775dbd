#!/usr/bin/env bash
# verilator --lint-only -Wall on each accelerator's RTL: for every manifest
# rtl/<dut>/<dut>.yaml, rtl/common/*.sv, the register package generated from
# the manifest, then the manifest's sources in order (scripts/dutgen.py);
# rtl/common and the DUT's own folder are on the include path.
set -euo pipefail
cd "$(dirname "$0")/.."
gen=$(mktemp -d)
trap 'rm -rf "$gen"' EXIT
python3 scripts/dutgen.py check >/dev/null
status=0
for name in $(python3 scripts/dutgen.py query names); do
  mapfile -t files < <(python3 scripts/dutgen.py query lint-files "$name" "$gen")
  if verilator --lint-only -Wall -Wno-MULTITOP -Irtl/common "-Irtl/$name" "${files[@]}"; then
    echo "lint: $name clean"
  else
    echo "lint: $name has warnings" >&2; status=1
  fi
done
exit $status
