#!/usr/bin/env bash
# Installs the Debian packages the project needs, when they are missing.
# Runs apt-get as root (sudo otherwise); when neither works it prints the exact
# command to run and fails.
set -euo pipefail

PACKAGES=(
  build-essential g++ cmake ninja-build ccache pkg-config
  verilator libsystemc-dev
  libspdlog-dev libfmt-dev libyaml-cpp-dev libgtest-dev libgmock-dev libbenchmark-dev
  libcli11-dev nlohmann-json3-dev libflatbuffers-dev flatbuffers-compiler
  gtkwave xvfb imagemagick lcov python3 python3-yaml clang
  pybind11-dev python3-numpy python3-pytest
  chromium  # headless, renders report.html in tests/report_html (skipped without it)
)

missing=()
# Node runs the TFLite WebAssembly referee; a machine that already has node
# (from any source) keeps it, otherwise Debian's is installed.
if ! command -v node >/dev/null 2>&1; then
  PACKAGES+=(nodejs npm)
fi
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "bootstrap: installing missing Debian packages: ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO="sudo"
else
  echo "bootstrap: cannot install as $(id -un); run this, then retry:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
if ! { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"; }; then
  echo "bootstrap: apt-get failed; run this by hand, then retry:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
