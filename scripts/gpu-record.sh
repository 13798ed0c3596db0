#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every H200 record of docs/results that the code's last changes touch, in two
# parts that each take a few minutes on one NVIDIA H200, so that a machine lent
# for a short while records them all:
#
#   scripts/gpu-record.sh suite  OUTDIR [BUILD_DIR]   the test suite (-j 4 and -j $(nproc)),
#                                                     big n, the lecture deck, the tables,
#                                                     bandwidth, sweep and spread
#   scripts/gpu-record.sh checks OUTDIR [BUILD_DIR [OPENMP_BUNDLE]]
#                                                     check on every example (speed, counters,
#                                                     phases), the pitfalls with the literal
#                                                     rows, check --sizes traps, the barrier,
#                                                     and with a bundle the OpenMP rows
#
# Each part configures and builds BUILD_DIR (default build-gpu: Release, CUDA
# and OpenCL), then runs the scripts/gpu-*.sh it names, each under its own
# timeout, and writes OUTDIR/record-PART.log: the commit, each step's start,
# exit code and end. With GS_RECORD_TGZ=FILE it packs OUTDIR into FILE after
# every step, so that a run cut off keeps what it recorded. GS_RECORD_COMMIT
# names the commit in the log where the copy's git metadata cannot (a copy of
# a working tree without its .git, or with an older one). The files then go
# into docs/results (docs/results/README.md says which commit each is from);
# the lecture's PNGs are rendered where Chromium is:
#   python3 tests/lecture_browser.py --deck docs/results/h200-lecture.html docs/results/h200-lecture
set -uo pipefail
usage="usage: scripts/gpu-record.sh suite|checks OUTDIR [BUILD_DIR [OPENMP_BUNDLE]]"
part=${1:?$usage}
out=${2:?$usage}
build=${3:-build-gpu}
bundle=${4:-}
case $part in suite | checks) ;; *) echo "$usage" >&2; exit 2 ;; esac
cd "$(dirname "$0")/.."
mkdir -p "$out"
out=$(cd "$out" && pwd)
export PATH="$PATH:/usr/local/cuda/bin"
log="$out/record-$part.log"
: > "$log"
note() { echo "$(date -u +%H:%M:%S) $*" >> "$log"; }
pack() {
  [ -n "${GS_RECORD_TGZ:-}" ] && tar czf "$GS_RECORD_TGZ" -C "$(dirname "$out")" "$(basename "$out")"
  return 0
}
# step SECONDS NAME CMD...: one step in a session of its own, noted and packed.
# At SECONDS the whole session is killed: the scripts' own timeouts run their
# commands in process groups of their own, which a plain outer timeout would
# leave running beside the next step (a ctest still on the GPU while big n is
# timed). Whatever the step left behind is killed after it too.
status=0
step() {
  local limit=$1 name=$2 pid watcher rc
  shift 2
  note "$name: start"
  setsid "$@" > "$out/$name.out" 2>&1 < /dev/null &
  pid=$!
  (sleep "$limit" && note "$name: past ${limit} s, its session killed" &&
     pkill -KILL -s "$pid") > /dev/null 2>&1 &
  watcher=$!
  wait "$pid"
  rc=$?
  kill "$watcher" 2> /dev/null
  wait "$watcher" 2> /dev/null
  pkill -KILL -s "$pid" 2> /dev/null
  note "$name: exit $rc"
  [ $rc -eq 0 ] || status=1
  pack
}
note "commit ${GS_RECORD_COMMIT:-$(git rev-parse HEAD 2> /dev/null || echo unknown)}"
note "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1)"
note "build: start"
if ! { timeout 150 cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DGS_CUDA=ON -DGS_OPENCL=ON \
         -DGS_OPENMP=OFF && timeout 300 cmake --build "$build" -j "$(nproc)"; } > "$out/build.out" 2>&1; then
  note "build: FAILED (build.out)"
  pack
  exit 1
fi
if grep -q '^GS_SECCOMP_LIBRARY:[A-Z]*=.*NOTFOUND' "$build/CMakeCache.txt"; then
  note "build: no libseccomp (check's host worker cannot load a kernel): install libseccomp-dev"
  pack
  exit 1
fi
note "build: done"
pack
if [ "$part" = suite ]; then
  step 330 ctest env GS_CTEST_RUNS=1,2 GS_CTEST_TIMEOUT=150 scripts/gpu-ctest.sh "$out" "$build"
  step 90 bign scripts/gpu-bign.sh "$out" "$build"
  step 70 lecture scripts/gpu-lecture.sh "$out" "$build"
  step 120 results env GS_RESULTS_STEPS=tables,bandwidth,sweep,spread scripts/gpu-results.sh "$out" "$build"
else
  step 200 check-speed env JUDGE=0 scripts/gpu-check-speed.sh "$out" "$build"
  step 330 pitfalls scripts/gpu-pitfalls.sh "$out" "$build" ${bundle:+"$bundle"}
fi
note "done (status $status)"
pack
exit $status
