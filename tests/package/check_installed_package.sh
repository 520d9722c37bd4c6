#!/usr/bin/env bash
# ctest installed_package: the project used as an installed library, the way an
# outside user would. Installs BUILD into a temporary prefix (and moves it), then
#   1. checks every header include of the installed headers resolves inside it;
#   2. imports the installed Python package (its op count is list_ops' oracle);
#   3. configures and builds examples/cpp as an outside CMake project
#      (find_package(pypto CONFIG REQUIRED) with only the prefix on the path)
#      and runs its three programs;
#   4. builds the same programs with pkg-config (examples/cpp/Makefile), runs them;
#   5. runs the installed pypto-opt.
# Each program checks its own result (the ring-exchange oracle, a full op
# registry); this script checks exit codes and the exact OK lines.
# Usage: SCRIPT SRC BUILD
set -euo pipefail
SRC=$(cd "$1" && pwd)
BUILD=$(cd "$2" && pwd)
PY=${PYPTO_PYTHON:-/usr/bin/python3}
T=$(mktemp -d "${TMPDIR:-/tmp}/pypto-installed.XXXXXX")
trap 'rm -rf "$T"' EXIT
PREFIX=$T/prefix
fail() { echo "installed_package: FAIL: $*" >&2; exit 1; }
OK_LINE="OK: y[r] == x[r-1] on all 4 ranks (4096 elements)"
for tool in cmake ninja pkg-config make; do
  command -v "$tool" >/dev/null || fail "'$tool' not found (.ci/setup.sh installs cmake, ninja-build, pkgconf, make)"
done

# Installed to one directory and used from another: the CMake package, pypto.pc
# and the Python package must be relocatable (nothing may remember the prefix).
echo "== cmake --install $BUILD --prefix $T/staging; mv $T/staging $PREFIX"
cmake --install "$BUILD" --prefix "$T/staging" >"$T/install.log" || { cat "$T/install.log"; fail "install failed"; }
mv "$T/staging" "$PREFIX"
stale=$(grep -rIl "$T/staging" "$PREFIX" || true)
[ -z "$stale" ] || fail "installed files name the install-time prefix: $stale"
for f in lib/libpypto_core.a lib/libpypto_ir.a lib/libpypto_ops.a lib/libpypto_passes.a \
         lib/libpypto_codegen.a lib/libpypto_sim.a bin/pypto-opt bin/pypto-run \
         lib/cmake/pypto/pyptoConfig.cmake lib/cmake/pypto/pyptoConfigVersion.cmake \
         lib/pkgconfig/pypto.pc include/pypto/ir/builder.h include/pypto/sim/run.h; do
  [ -e "$PREFIX/$f" ] || fail "$f was not installed"
done

echo "== installed headers include only installed headers"
missing=$(cd "$PREFIX/include" && grep -rhoE '#include "pypto/[^"]+"' pypto | sort -u |
          sed -E 's/#include "(.*)"/\1/' | while read -r h; do [ -e "$h" ] || echo "$h"; done)
[ -z "$missing" ] || fail "installed headers include files that are not installed: $missing"

run_examples() {  # DIR LABEL
  for ex in build_and_run parse_and_run; do
    args=(); [ "$ex" = parse_and_run ] && args=("$SRC/examples/ring_exchange.pir")
    out=$("$1/$ex" "${args[@]}" 2>&1) || { echo "$out"; fail "$2 $ex exited nonzero"; }
    grep -qxF "$OK_LINE" <<<"$out" || { echo "$out"; fail "$2 $ex did not print '$OK_LINE'"; }
    grep -qE '^pto module ring_kernel: [0-9]+ bytes$' <<<"$out" || { echo "$out"; fail "$2 $ex emitted no PTO"; }
    echo "$2 $ex: $OK_LINE"
  done
  # The registry of a program that calls the IR layer only is full (whole-archive
  # link of pypto_ops), with as many ops as the installed Python module reports.
  out=$("$1/list_ops" 2>&1) || { echo "$out" | tail -3; fail "$2 list_ops exited nonzero"; }
  grep -qxF "OK: $NOPS ops registered" <<<"$out" || { echo "$out" | tail -3; fail "$2 list_ops did not print 'OK: $NOPS ops registered'"; }
  echo "$2 list_ops: OK: $NOPS ops registered"
}

echo "== installed Python package"
pyout=$(cd "$T" && env -u PYPTO_CORE_DIR PYTHONPATH="$PREFIX/lib/python3/dist-packages" "$PY" -c '
import pypto, pypto.ir, pypto._core
print(pypto._core.__file__)
print(len(pypto._core.op_names()))
') || fail "import pypto from the prefix failed"
core=$(sed -n 1p <<<"$pyout")
NOPS=$(sed -n 2p <<<"$pyout")
case "$core" in
  "$PREFIX/lib/python3/dist-packages/pypto/_core."*) echo "python: $core ($NOPS ops)" ;;
  *) fail "pypto._core was not loaded from the prefix: $core" ;;
esac

echo "== outside CMake project: find_package(pypto CONFIG REQUIRED)"
cmake -S "$SRC/examples/cpp" -B "$T/cmake-build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$PREFIX" >"$T/configure.log" 2>&1 || { cat "$T/configure.log"; fail "configure failed"; }
grep -qxF "pypto_DIR:PATH=$PREFIX/lib/cmake/pypto" "$T/cmake-build/CMakeCache.txt" ||
  fail "find_package(pypto) did not pick the installed package: $(grep pypto_DIR "$T/cmake-build/CMakeCache.txt")"
cmake --build "$T/cmake-build" -j2 >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "CMake build failed"; }
run_examples "$T/cmake-build" cmake

echo "== pkg-config: pkg-config --cflags --libs pypto"
mkdir -p "$T/pc-build"
PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig" make -s -C "$SRC/examples/cpp" OUT="$T/pc-build" \
  >"$T/make.log" 2>&1 || { cat "$T/make.log"; fail "pkg-config build failed"; }
run_examples "$T/pc-build" pkg-config

echo "== installed tools"
"$PREFIX/bin/pypto-opt" "$SRC/examples/ring_exchange.pir" --pipeline=default --emit=pto \
  -o "$T/pto" >/dev/null || fail "installed pypto-opt failed"
[ -s "$T/pto/ring_kernel.pto" ] || fail "installed pypto-opt wrote no ring_kernel.pto"
echo "installed_package: OK"
