#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# CONTRIBUTING.md's walk, followed on a copy of the source tree: copy the
# template backend (tests/stub_backend/) to backend_demo/, rename it, add the
# one add_subdirectory() line, build, and run the new backend through
# `gridstride --list`, the table, `bandwidth --spread` and the conformance
# body, with its three ctest entries made. If the guide or the kit drifts,
# this fails.
#
#   tests/walkthrough.sh SOURCE_DIR WORK_DIR
set -euo pipefail
# A step that fails says which, so that a failure is never a bare exit code.
trap 'echo "walkthrough: failed at line $LINENO: $BASH_COMMAND" >&2' ERR
src=${1:?usage: walkthrough.sh SOURCE_DIR WORK_DIR}
work=${2:?usage: walkthrough.sh SOURCE_DIR WORK_DIR}
rm -rf "$work"
mkdir -p "$work/src"
# The source as it is now: git's files where it is a checkout, else the
# tree without build folders (a copy that is not a checkout, as CI machines
# and GPU machines may have).
if git -C "$src" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
  # Files deleted in the working tree are not part of it: only those that
  # exist travel (a copy of a checkout may lack some of the index's files).
  (cd "$src" && git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
    tar cf - --null -T -) | tar xf - -C "$work/src"
else
  (cd "$src" && tar cf - --exclude='./build*' --exclude=./.device --exclude=./.whl --exclude=./.git \
    --exclude=__pycache__ .) | \
    tar xf - -C "$work/src"
fi
cd "$work/src"
# The copy builds the host and demo backends only: a GRIDSTRIDE_REQUIRE for
# this machine's backends (CI's opencl) is not a requirement on it.
unset GRIDSTRIDE_REQUIRE

echo "== step 1: copy the template and rename it"
cp -r tests/stub_backend backend_demo
for f in backend_demo/*; do
  sed -i -e 's/gs_backend_stub/gs_backend_demo/g' -e 's/GS_STUB/GS_DEMO/g' \
         -e 's/"stub"/"demo"/g' -e 's/gs_add_backend(stub /gs_add_backend(demo /' \
         -e 's/gs_backend_option(stub /gs_backend_option(demo /' "$f"
done

echo "== step 2: one line in the top-level CMakeLists.txt"
sed -i 's|^add_subdirectory(backend_cuda)$|&\nadd_subdirectory(backend_demo)|' CMakeLists.txt
grep -q '^add_subdirectory(backend_demo)$' CMakeLists.txt

echo "== step 3: build, and run the new backend"
# Only what the walk runs: the stub-derived backend and the host (the
# reference, always built), no GPU API probed, and of the tests only the
# conformance body. The registration makes the backend's three ctest
# entries (listed below); the pitfalls and trace bodies on this same code
# run in every ctest as pitfalls_stub and trace_stub. Unoptimized and without
# debug information (Debug, -O0; -pipe: the compiler hands the assembler its
# output through a pipe, not a file, for 5% less CPU): it compiles in less
# than half the time of Release, and the walk proves that the guide's steps
# build a backend that passes the body, not how fast the build's code runs.
# Ninja where it is installed, else Makefiles without their per-file progress
# lines (each one a cmake process): the guide's steps do not depend on the
# generator, and the walk takes a fifth less CPU.
generator=()
if command -v ninja > /dev/null 2>&1; then
  generator=(-G Ninja)
else
  generator=(-DCMAKE_RULE_MESSAGES=OFF)
fi
# The Python the parent build found (ctest's GS_PYTHON), given, so that the
# copy's FindPython3 asks that interpreter and not a launcher in front of it
# (a pyenv shim costs 0.15 s a start, and FindPython3 starts it seven times).
python=()
if [ -n "${GS_PYTHON:-}" ] && [ -x "$GS_PYTHON" ]; then
  python=(-DPython3_EXECUTABLE="$GS_PYTHON")
fi
cmake -S . -B build "${generator[@]}" "${python[@]}" -DCMAKE_BUILD_TYPE=Debug \
  "-DCMAKE_C_FLAGS_DEBUG=-O0 -pipe" -DGS_CUDA=OFF -DGS_OPENCL=OFF -DGS_OPENMP=OFF > configure.log
cmake --build build -j "$(nproc 2>/dev/null || echo 2)" --target gridstride test_conformance \
  > build.log
./build/gridstride --list --backend demo
./build/gridstride --backend demo --sizes 0,611,4097 --grid 4 > table.txt
grep -q "cases held their prediction" table.txt
# The template's optional timeline member, on its pretend
# per-unit clock: `bandwidth --spread` end to end, its files whole.
GRIDSTRIDE_STUB=timeline ./build/gridstride bandwidth --spread --backend demo --bytes 1MiB \
  --quiet --svg spread.svg --json spread.json > spread.txt
# (the report wraps at 80 columns in a file: its words, joined again)
tr -s ' \n' ' ' < spread.txt | grep -q "equal shares of the work"
grep -q '"mode": "bandwidth-spread"' spread.json
grep -q '</svg>' spread.svg
ctest --test-dir build -N -R '_demo$' > entries.log
for t in conformance_demo pitfalls_demo trace_demo; do
  grep -q ": $t\$" entries.log || { cat entries.log; echo "walkthrough: no ctest entry $t"; exit 1; }
done
ctest --test-dir build -R '^conformance_demo$' --output-on-failure > ctest.log 2>&1 ||
  { cat ctest.log; exit 1; }
cat ctest.log
grep -Eq "100% tests passed(, 0 tests failed)? out of 1" ctest.log # CMake 3.25 and newer word it apart
echo "== the walk holds: backend_demo built from the template and passed the conformance body"
