#!/usr/bin/env bash
# Installs every dependency from Debian packages (no other network), configures
# and builds pypto-dist into ./build. Idempotent; safe to run on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."
# libllvm22: the run-time library of ptoas (../shared/tools/ptoas), which the ptoas_tier test runs.
# pkgconf, make: the installed_package test builds examples/cpp with pkg-config (its Makefile).
PKGS="cmake ninja-build g++ libfmt-dev libabsl-dev catch2 pybind11-dev python3-dev
      python3-numpy python3-pytest llvm-14-tools libopenmpi-dev openmpi-bin clang-format
      libllvm22 pkgconf make"
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

# Make `import pypto` work for the interpreter the bindings were built for
# (Debian's /usr/bin/python3, which has numpy and pytest) without PYTHONPATH:
# a .pth file pointing at bindings/ in its site-packages. Other python3s on PATH
# with the same major.minor (same extension ABI) get one too.
PTH_DIR="$(pwd)/bindings"
for py in /usr/bin/python3 "$(command -v python3 || true)"; do
  [ -x "$py" ] || continue
  [ "$("$py" -c 'import sys; print(sys.version_info[:2])')" = \
    "$(/usr/bin/python3 -c 'import sys; print(sys.version_info[:2])')" ] || continue
  site="$("$py" -c 'import site, sys; print((site.getsitepackages() if hasattr(site, "getsitepackages") else [site.getusersitepackages()])[0])')"
  if [ -w "$site" ] || [ "$(id -u)" -eq 0 ]; then
    mkdir -p "$site" && echo "$PTH_DIR" > "$site/pypto-dist.pth"
  fi
done
