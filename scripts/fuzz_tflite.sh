#!/usr/bin/env bash
# The .tflite target of scripts/fuzz.sh (kept for `make fuzz-tflite`).
# usage: scripts/fuzz_tflite.sh [SECONDS]
exec bash "$(dirname "$0")/fuzz.sh" "${1:-60}" tflite
