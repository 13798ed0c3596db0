#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Seed 000's index-tracer recorded on an NVIDIA machine through CUDA and
# OpenCL: OUTDIR/h200-trace.svg (the picture), OUTDIR/h200-trace.png when
# rsvg-convert is installed there, and OUTDIR/h200-trace.md (each command,
# the device and driver line, the date and the text output).
#
#   scripts/gpu-trace.sh OUTDIR BUILD_DIR
#
# Builds BUILD_DIR (gpu-lib.sh's ensure_build), and brings a build made
# before the trace existed up to date. Every run is under `timeout`.
set -uo pipefail
usage="usage: scripts/gpu-trace.sh OUTDIR BUILD_DIR"
out=${1:?$usage}
build=${2:?$usage}
cd "$(dirname "$0")/.."
source "scripts/gpu-lib.sh"

status=0
ensure_build || exit 1
run cmake --build "$build" -j "$(nproc)" || { tail -40 "$log"; exit 1; }
g="$build/gridstride"
f="$out/h200-trace.md"
svg="$out/h200-trace.svg"
png="$out/h200-trace.png"
rm -f "$f" "$svg" "$png"

step "the trace tests, CUDA and OpenCL required"
record "$f" "The trace tests with CUDA and OpenCL required: every kernel's map against the model at six grids on each backend, and host, OpenCL and CUDA against each other" \
  env GRIDSTRIDE_REQUIRE=cuda,opencl timeout 300 ctest --test-dir "$build" -R '^trace_' \
  --output-on-failure || status=1
step "seed 000's picture"
record "$f" "Seed 000's picture: <<<4, 256>>> over 4096 elements through CUDA and OpenCL (h200-trace.svg)" \
  timeout 120 "$g" trace --backend cuda,opencl --svg "$svg" || status=1
step "the pitfalls and the access patterns, traced"
record "$f" "The pitfalls' repeated writes and the access patterns, traced through CUDA and OpenCL" \
  timeout 120 "$g" trace --backend cuda,opencl \
  --kernels block-stride,tile-loop,row-per-block,copy-lane-strided,grid-stride-float4 || status=1

step "render the picture"
if command -v rsvg-convert >/dev/null 2>&1; then
  record "$f" "The picture rendered by librsvg (h200-trace.png), checked for its size and ink" \
    sh -c "rsvg-convert '$svg' -o '$png' && python3 scripts/check-png.py '$svg' '$png'" || status=1
else
  msg="rsvg-convert is not installed on this machine: no PNG made. Render it elsewhere with: rsvg-convert $svg -o $png"
  echo "$msg" | relative | tee -a "$log"
  printf '# The picture as PNG\n\n%s\n' "$(echo "$msg" | relative)" >> "$f"
fi
step "done (status $status)"
exit $status
