#!/usr/bin/env bash
# check_format.sh SRC_DIR: `clang-format --dry-run --Werror` over every git-tracked
# *.cc / *.h (src, include, bindings, tests, benchmarks), with the repo's
# .clang-format. Exit 0 formatted, 1 not (clang-format names the files/lines),
# 77 when clang-format is not installed (ctest reports the test as skipped).
set -euo pipefail
cd "$1"
CF="${CLANG_FORMAT:-$(command -v clang-format || command -v clang-format-14 || true)}"
if [ -z "$CF" ]; then
  echo "skipped: clang-format not found (Debian package 'clang-format'; .ci/setup.sh installs it)"
  exit 77
fi
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  files=$(git ls-files -- '*.cc' '*.h')
else  # a source tree without .git: the same directories
  files=$(find src include bindings tests benchmarks -name '*.cc' -o -name '*.h' | sort)
fi
echo "$("$CF" --version): checking $(echo "$files" | wc -l) files"
if ! echo "$files" | xargs -P 2 -n 40 "$CF" --dry-run --Werror; then
  echo "FAILED: the files above are not clang-formatted; run: clang-format -i FILE..."
  exit 1
fi
