#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `gridstride check`'s worker on an NVIDIA GPU: the proof docs/check.md asks
# for. Builds with CUDA and OpenCL required, then through both APIs:
#   - a kernel that never ends at n = 31 (tests/hostile/endless_once.*): the
#     case is killed at --timeout 5, and the next case, in the same run, passes
#     on the same GPU (nvidia-smi's memory use is recorded after the run);
#   - a kernel that writes far out of bounds at n = 0 (tests/hostile/oob_n0.*):
#     faulted, in plain words, and the later cases run in a fresh context;
#   - the hostile suite's GPU rows (ctest -L sandbox).
# Writes OUTDIR/h200-sandbox.md with the commands, the device line, the date
# and every report.
#
#   scripts/gpu-sandbox.sh OUTDIR BUILD_DIR
set -uo pipefail
out=${1:?usage: scripts/gpu-sandbox.sh OUTDIR BUILD_DIR}
build=${2:?usage: scripts/gpu-sandbox.sh OUTDIR BUILD_DIR}
cd "$(dirname "$0")/.."
mkdir -p "$out"
export PATH="$PATH:/usr/local/cuda/bin"
md="$out/h200-sandbox.md"
log="$out/gpu-sandbox.log"
: >"$log"
g="$build/gridstride"
status=0
{
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DGS_CUDA=ON -DGS_OPENCL=ON \
    -DCMAKE_CUDA_COMPILER="$(command -v nvcc)" && cmake --build "$build" -j "$(nproc)"
} >>"$log" 2>&1 || { tail -40 "$log"; exit 1; }

smi() { nvidia-smi --query-gpu=name,driver_version,memory.used --format=csv,noheader 2>&1 | head -1; }
{
  echo "# check's worker on $(smi | cut -d, -f1-2)"
  echo
  echo "Recorded $(date -u +%Y-%m-%dT%H:%MZ) by scripts/gpu-sandbox.sh."
  echo
} >"$md"

run() { # title, expected exit, command...
  local title=$1 want=$2
  shift 2
  local t0 t1 code
  t0=$(date +%s.%N)
  timeout -s KILL 300 "$@" >"$out/report.txt" 2>"$out/stderr.txt"
  code=$?
  t1=$(date +%s.%N)
  {
    echo "## $title"
    echo
    echo '```text'
    echo "\$ ${*/#$g/gridstride}"
    cat "$out/report.txt" "$out/stderr.txt"
    echo "(exit $code, $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s; nvidia-smi after: $(smi | cut -d, -f3))"
    echo '```'
    echo
  } >>"$md"
  [ "$code" = "$want" ] || { echo "FAIL: $title: exit $code, expected $want"; status=1; }
}

for api in cuda:cu opencl:cl; do
  b=${api%%:*}
  ext=${api##*:}
  run "$b: a kernel that never ends at n = 31, killed at --timeout 5; the next cases pass" 1 \
    "$g" check "tests/hostile/endless_once.$ext" --backend "$b" --timeout 5 --sizes 0,31,611
  grep -q "did not finish" "$out/report.txt" || { echo "FAIL: $b: no 'did not finish'"; status=1; }
  grep -q "611  <<<1, 1>>>  *ok" "$out/report.txt" || { echo "FAIL: $b: the case after the kill did not pass"; status=1; }
  run "$b: out of bounds at n = 0: faulted, in words" 1 \
    "$g" check "tests/hostile/oob_n0.$ext" --backend "$b"
  grep -q "faulted" "$out/report.txt" || { echo "FAIL: $b: not faulted"; status=1; }
done
rm -f "$out/report.txt" "$out/stderr.txt"
(cd "$build" && GRIDSTRIDE_REQUIRE=cuda,opencl ctest -L sandbox --output-on-failure) >>"$log" 2>&1 ||
  { echo "FAIL: ctest -L sandbox (see $log)"; status=1; }
{
  echo "## ctest -L sandbox"
  echo
  echo '```text'
  grep -E "tests passed|tests failed|Skipped|Failed" "$log" | tail -20
  echo '```'
} >>"$md"
echo "wrote $md"
exit $status
