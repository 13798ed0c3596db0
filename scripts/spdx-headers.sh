#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Put the SPDX licence line at the top of every source file git tracks that
# lacks one (below a #! line): C, CUDA, OpenCL and .gs sources, CMake files,
# shell scripts; empty files (test fixtures) are left empty. Idempotent: run it again after adding or merging files.
#
#   scripts/spdx-headers.sh           add the line where it is missing
#   scripts/spdx-headers.sh --check   list files without it; exit 1 if any
set -euo pipefail
cd "$(dirname "$0")/.."
id="SPDX-License-Identifier: MIT"
check=0
[ "${1:-}" = "--check" ] && check=1
missing=0
while IFS= read -r -d '' f; do
  head -n 3 "$f" | grep -q "SPDX-License-Identifier:" && continue
  # An empty file holds nothing to license (tests/hostile/empty.gs must be
  # empty: it is the empty-file case of check's hostile suite).
  [ -s "$f" ] || continue
  case "$f" in
    *.c | *.h | *.cu | *.cuh | *.cl | *.gs) line="/* $id */" ;;
    *) line="# $id" ;;
  esac
  missing=1
  if [ "$check" -eq 1 ]; then
    echo "$f"
    continue
  fi
  tmp=$(mktemp)
  if head -n 1 "$f" | grep -q '^#!'; then
    { head -n 1 "$f"; echo "$line"; tail -n +2 "$f"; } > "$tmp"
  else
    { echo "$line"; cat "$f"; } > "$tmp"
  fi
  cat "$tmp" > "$f" # in place: the file keeps its mode
  rm -f "$tmp"
done < <(git ls-files -z -- '*.c' '*.h' '*.cu' '*.cuh' '*.cl' '*.gs' '*.cmake' \
           '*CMakeLists.txt' '*.sh' '.ci/run')
[ "$check" -eq 1 ] && exit $missing
exit 0
