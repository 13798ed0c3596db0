#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The OpenMP offload backend on an NVIDIA machine, from a bundle built
# elsewhere by scripts/build-openmp-bundle.sh (the GPU image has no offload
# compiler), recorded in OUTDIR/h200-openmp.md: the devices with the launch
# the runtime grants, the table side by side with CUDA and OpenCL, the table
# on OpenMP alone, the conformance body and the pitfalls tests on OpenMP,
# the pitfalls side by side, and what `bandwidth` says of it.
#
#   scripts/gpu-openmp.sh OUTDIR BUNDLE_DIR
#
# The bundle's lib/ (its own libgomp and nvptx plugin) goes first on
# LD_LIBRARY_PATH. Each command has its own timeout; results are written
# after each one, so a run stopped early keeps what it recorded. NVIDIA's OpenCL must be registered with the ICD loader,
# as for scripts/gpu-results.sh (the GPU machine's setup does it).
set -uo pipefail
out=${1:?usage: scripts/gpu-openmp.sh OUTDIR BUNDLE_DIR}
bundle=${2:?usage: scripts/gpu-openmp.sh OUTDIR BUNDLE_DIR}
bundle=$(cd "$bundle" && pwd)
cd "$(dirname "$0")/.."
build=$bundle # gpu-lib.sh shows "$build/gridstride" as gridstride
source "scripts/gpu-lib.sh"
export LD_LIBRARY_PATH="$bundle/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

g="$bundle/gridstride"
f="$out/h200-openmp.md"
rm -f "$f"
status=0
step "bundle"
run cat "$bundle/bundle.txt"
run ldd "$g"

step "devices and grants"
record "$f" "OpenMP devices, G, and the launch the runtime grants for it" \
  timeout 60 "$g" --list --backend openmp || status=1
step "side by side"
record "$f" "CUDA, OpenCL and OpenMP side by side" \
  timeout 180 "$g" --backend cuda,opencl,openmp || status=1
step "openmp alone"
record "$f" "OpenMP alone" timeout 120 "$g" --backend openmp || status=1
step "bandwidth leaves OpenMP out, and says why (exit 2 expected)"
record "$f" "bandwidth on OpenMP: not measured, with the reason (exit 2 is the expected answer)" \
  timeout 30 "$g" bandwidth --backend openmp
[ $? -eq 2 ] || status=1
step "conformance body and pitfalls tests on openmp"
record "$f" "The conformance body on OpenMP (required: a skip fails)" \
  env GRIDSTRIDE_REQUIRE=openmp timeout 180 "$bundle/test_conformance" openmp || status=1
step "pitfalls side by side"
record "$f" "The pitfalls through CUDA, OpenCL and OpenMP in one process" \
  timeout 240 "$g" pitfalls --backend cuda,opencl,openmp || status=1
record "$f" "The pitfalls tests on OpenMP (required: a skip fails)" \
  env GRIDSTRIDE_REQUIRE=openmp timeout 300 "$bundle/test_pitfalls" openmp || status=1
step "done (status $status)"
exit $status
