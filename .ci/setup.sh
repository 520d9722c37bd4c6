#!/usr/bin/env bash
# Installs every dependency from Debian packages (no other network), configures
# and builds pypto-dist into ./build. Idempotent; safe to run on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."
PKGS="cmake ninja-build g++ libfmt-dev libabsl-dev catch2 pybind11-dev python3-dev
      python3-numpy python3-pytest llvm-14-tools libopenmpi-dev openmpi-bin"
missing=""
for p in $PKGS; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
if [ -n "$missing" ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPYPTO_WERROR=ON \
  -DPYPTO_PYTHON_EXECUTABLE=/usr/bin/python3 >/dev/null
ninja -C build -j"$(nproc)"
