#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Big n on an NVIDIA machine, recorded in OUTDIR/h200-bign.md: the table at
# n = 2^31 + 5 and 2^32 + 5 through CUDA and OpenCL with its wall time, the
# grid probe, and the launch shapes that one API's limits refuse.
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
step "one API's limits"
record "$f" "A shape of 1024 threads: CUDA runs it; NVIDIA's OpenCL reports 256 for these kernels" \
  timeout 120 "$g" --backend cuda,opencl --shape 1x1024 || status=1
record "$f" "--block 1024 through both APIs" \
  timeout 120 "$g" --backend cuda,opencl --block 1024 || status=1
step "done (status $status)"
exit $status
