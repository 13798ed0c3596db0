#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Big n on an NVIDIA machine, recorded in OUTDIR/h200-bign.md: the table at
# n = 2^31 + 5 and 2^32 + 5 through CUDA and OpenCL with its wall time (and
# three more runs of each, their wall times and phase lines), the grid
# probe, and the launch shapes that one API's limits refuse.
#
#   scripts/gpu-bign.sh OUTDIR [BUILD_DIR]
#
# Needs a GPU with at least 52 GB of free memory (three buffers of 17.2 GB
# at 2^32 + 5). Builds BUILD_DIR first unless it already holds gridstride.
set -uo pipefail
out=${1:?usage: scripts/gpu-bign.sh OUTDIR [BUILD_DIR]}
build=${2:-build-gpu}
cd "$(dirname "$0")/.."
source "scripts/gpu-lib.sh"

status=0
ensure_build || exit 1
g="$build/gridstride"
f="$out/h200-bign.md"
rm -f "$f"

step "devices and the grid probe"
record "$f" "Devices, and what each API's work-item functions return past 2^32" \
  timeout 120 "$g" --list --backend cuda,opencl || status=1
step "n = 2^31 + 5"
record "$f" "n = 2^31 + 5 (8.6 GB per buffer) through CUDA and OpenCL" \
  timeout 300 "$g" --backend cuda,opencl --sizes 2147483653 || status=1
step "n = 2^32 + 5"
record "$f" "n = 2^32 + 5 (17.2 GB per buffer) through CUDA and OpenCL" \
  timeout 300 "$g" --backend cuda,opencl --sizes 4294967301 || status=1
# repeat FILE N ARGS...: the same table N more times (--quiet), one row each:
# its exit code, its wall time, and each API's phase line (copy rates and
# where the time went), so that the record shows the spread and the floor
# beside the time of the run above.
repeat() {
  local file=$1 times=$2
  shift 2
  local shown
  shown=$(printf '%s ' "$g" "$@" | relative | sed -e 's/ $//')
  {
    echo "# \`$shown\` $times more times"
    echo
    echo "- date: $date_utc"
    echo "- device and driver (nvidia-smi): $smi"
    echo
    echo "| run | exit | wall time (s) |"
    echo "| --- | --- | --- |"
  } >> "$file"
  local k se t0 t1 rc phases=""
  for k in $(seq 1 "$times"); do
    se=$(mktemp)
    t0=$(date +%s.%N)
    timeout 300 "$g" "$@" --quiet > /dev/null 2> "$se"
    rc=$?
    t1=$(date +%s.%N)
    echo "| $k | $rc | $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') |" >> "$file"
    phases+="run $k:"$'\n'"$(grep 'copies measured' "$se" | relative)"$'\n'
    rm -f "$se"
    [ "$rc" -eq 0 ] || status=1
  done
  {
    echo
    echo "Each run's phase lines:"
    echo
    echo '```text'
    printf '%s' "$phases"
    echo '```'
    echo
  } >> "$file"
}
step "n = 2^31 + 5 and 2^32 + 5, three more runs each"
repeat "$f" 3 --backend cuda,opencl --sizes 2147483653
repeat "$f" 3 --backend cuda,opencl --sizes 4294967301
step "one API's limits"
record "$f" "A shape of 1024 threads: CUDA runs it; NVIDIA's OpenCL reports 256 for these kernels" \
  timeout 120 "$g" --backend cuda,opencl --shape 1x1024 || status=1
record "$f" "--block 1024 through both APIs" \
  timeout 120 "$g" --backend cuda,opencl --block 1024 || status=1
step "done (status $status)"
exit $status
