#!/usr/bin/env bash
# verilator --lint-only -Wall on each accelerator's RTL (package files first).
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
for blk in rtl/*/; do
  name=$(basename "$blk")
  [ "$name" = common ] && continue
  files=$(printf "%s\n" rtl/common/*.sv "$blk"*pkg*.sv "$blk"*.sv | grep -v "\*" | awk '!seen[$0]++')
  [ -n "$files" ] || continue
  if verilator --lint-only -Wall -Wno-MULTITOP $files; then
    echo "lint: $name clean"
  else
    echo "lint: $name has warnings" >&2; status=1
  fi
done
exit $status
