#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The pitfalls on an NVIDIA machine, recorded in OUTDIR/h200-pitfalls.md:
# `gridstride pitfalls` through CUDA and OpenCL side by side, with its wall
# time.
#
#   scripts/gpu-pitfalls.sh OUTDIR [BUILD_DIR]
#
# Needs a GPU with at least 65 GB of free memory (the 32-bit stride's case at
# n = 2^32 + 2^30). Builds BUILD_DIR first unless it already holds gridstride.
set -uo pipefail
out=${1:?usage: scripts/gpu-pitfalls.sh OUTDIR [BUILD_DIR]}
build=${2:-build-gpu}
cd "$(dirname "$0")/.."
source "scripts/gpu-lib.sh"

status=0
ensure_build || exit 1
g="$build/gridstride"
f="$out/h200-pitfalls.md"
rm -f "$f"
step "pitfalls through CUDA and OpenCL"
record "$f" "The pitfalls through CUDA and OpenCL" \
  timeout 500 "$g" pitfalls --backend cuda,opencl || status=1
step "done (status $status)"
exit $status
