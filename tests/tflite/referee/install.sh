#!/usr/bin/env bash
# Installs the referee runtime (@tensorflow/tfjs-tflite, pinned in
# package.json) into tests/tflite/referee/node_modules, ignored by git.
# Needs node and npm (Debian: nodejs npm). Safe to run again.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if ! command -v npm >/dev/null 2>&1; then
  echo "install.sh: npm not found (apt-get install nodejs npm)" >&2
  exit 1
fi
if [[ -f "$here/node_modules/@tensorflow/tfjs-tflite/wasm/tflite_web_api_cc.js" ]]; then
  echo "referee runtime already installed in $here/node_modules"
  exit 0
fi
npm install --prefix "$here" --no-package-lock --no-audit --no-fund --loglevel=error
test -f "$here/node_modules/@tensorflow/tfjs-tflite/wasm/tflite_web_api_cc.js"
echo "referee runtime installed in $here/node_modules"
