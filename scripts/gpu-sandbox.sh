#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `gridstride check`'s worker on an NVIDIA GPU: the proof docs/check.md asks
# for. Builds with CUDA and OpenCL required (scripts/gpu-lib.sh), then
# through both APIs:
#   - a kernel that never ends at n = 31 (tests/hostile/endless_once.*): the
#     case is killed at --timeout 5, and the next case, in the same run, passes
#     on the same GPU (nvidia-smi's memory use is recorded after the run);
#   - a kernel that writes far out of bounds at n = 0 (tests/hostile/oob_n0.*):
#     faulted, in plain words, and the later cases run in a fresh context;
#   - the hostile suite's GPU rows (ctest -L sandbox).
# Writes OUTDIR/h200-sandbox.md with the commands, the device line, the date
# and every report (gpu-lib.sh's record), every command under `timeout`.
#
#   scripts/gpu-sandbox.sh OUTDIR BUILD_DIR
set -uo pipefail
out=${1:?usage: scripts/gpu-sandbox.sh OUTDIR BUILD_DIR}
build=${2:?usage: scripts/gpu-sandbox.sh OUTDIR BUILD_DIR}
cd "$(dirname "$0")/.."
source "scripts/gpu-lib.sh"

status=0
ensure_build || exit 1
g="$build/gridstride"
md="$out/h200-sandbox.md"
rm -f "$md"
used() { nvidia-smi --query-gpu=memory.used --format=csv,noheader 2>&1 | head -1; }

# checked TITLE WANT_EXIT PATTERN... -- CMD...: record CMD, demand its exit
# code and every PATTERN (grep -E) in its report, note the GPU memory in use
# after it.
checked() {
  local title=$1 want=$2 pats=() rc
  shift 2
  while [ "$1" != "--" ]; do pats+=("$1"); shift; done
  shift
  record "$md" "$title" timeout -s KILL 300 "$@"
  rc=$?
  echo "nvidia-smi after the run: $(used) in use" >> "$md"
  echo >> "$md"
  [ "$rc" = "$want" ] || { echo "FAIL: $title: exit $rc, expected $want"; status=1; }
  local report
  report=$(awk -v t="# $title" '$0 == t { on = 1 } on' "$md")
  for p in "${pats[@]}"; do
    grep -Eq -- "$p" <<< "$report" || { echo "FAIL: $title: no '$p' in the report"; status=1; }
  done
}

for api in cuda:cu opencl:cl; do
  b=${api%%:*}
  ext=${api##*:}
  step "$b: the endless kernel, then out of bounds"
  checked "$b: a kernel that never ends at n = 31, killed at --timeout 5; the next cases pass" 1 \
    "did not finish" "611  <<<1, 1>>>  *ok" -- \
    "$g" check "tests/hostile/endless_once.$ext" --backend "$b" --timeout 5 --sizes 0,31,611
  checked "$b: out of bounds at n = 0: faulted, in words" 1 "faulted" -- \
    "$g" check "tests/hostile/oob_n0.$ext" --backend "$b"
done
step "ctest -L sandbox"
record "$md" "The hostile suite (ctest -L sandbox) with both GPU backends demanded" \
  env GRIDSTRIDE_REQUIRE=cuda,opencl timeout 900 ctest --test-dir "$build" -L sandbox \
  --output-on-failure || { echo "FAIL: ctest -L sandbox (see $md)"; status=1; }
step "done (status $status): $md"
exit $status
