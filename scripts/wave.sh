#!/usr/bin/env bash
# make wave SCENARIO=name [SEED=n FROM=c TO=c DEPTH=n AROUND=n MAXMB=n]
#
# Runs scenarios/<name>.yaml with an FST waveform (out/<name>/wave.fst and
# its prepared GTKWave view out/<name>/wave.gtkw, tb/wave), then opens
# GTKWave when $DISPLAY is set, or prints the exact command to run.
# A mismatch (exit 1) still shows the waveform: the view has a marker at the
# first diverging write; AROUND=n also dumps n cycles on each side of it
# (out/<name>/wave_mismatch.fst).
#
#   scripts/wave.sh [--cosim BIN] NAME [cosim run options ...]
set -u
cosim=build/tb/cosim/cosim
if [ "${1:-}" = "--cosim" ]; then cosim=$2; shift 2; fi
name=${1:?usage: scripts/wave.sh [--cosim BIN] SCENARIO [cosim run options]}
shift
out=out/$name
fst=$out/wave.fst
gtkw=$out/wave.gtkw
rm -f "$fst" "$gtkw"
"$cosim" run "scenarios/$name.yaml" --out "$out" --wave "$fst" "$@"
status=$?
if [ "$status" -gt 1 ]; then exit "$status"; fi
if [ ! -f "$fst" ]; then
  echo "wave: no waveform written (see the warning above)" >&2
  exit 1
fi
views=("$gtkw")
[ -f "$out/wave_mismatch.gtkw" ] && [ "$out/wave_mismatch.gtkw" -nt "$fst" ] && views=("$out/wave_mismatch.gtkw" "$gtkw")
for v in "${views[@]}"; do
  f=${v%.gtkw}.fst
  if [ -n "${DISPLAY:-}" ] && command -v gtkwave > /dev/null; then
    echo "wave: opening $v"
    nohup gtkwave -a "$v" "$f" > /dev/null 2>&1 &
  else
    echo "wave: to view, run:  gtkwave -a $v $f"
  fi
done
exit "$status"
