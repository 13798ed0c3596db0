#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The pitfalls on an NVIDIA machine, recorded in OUTDIR/h200-pitfalls.md:
# `gridstride pitfalls` through CUDA and OpenCL side by side, with its wall
# time (the int-loop trap's literal rows among them: nvcc -O3 and NVIDIA's
# OpenCL compiler at its default; and the early return above a barrier,
# built by NVRTC and NVIDIA's OpenCL in check's worker, each launch killed
# at 10 s if it hangs); the literal int-index kernels of
# examples/ through `check --sizes traps` (.cu through NVRTC's default, .cl
# through NVIDIA's OpenCL, .gs through CUDA: one backend is enough for the
# portable text, and the host's cc -O2 is the int-loop row below);
# the early return above a barrier (examples/barrier/) through CUDA and
# OpenCL, each launch in check's worker under a 10 s deadline; the int-loop
# trap on the host (GCC -O2 and -O0); and, given
# an OpenMP bundle (scripts/build-openmp-bundle.sh), the int-loop trap
# through OpenMP (GCC -O2 and -O0).
#
#   scripts/gpu-pitfalls.sh OUTDIR [BUILD_DIR [OPENMP_BUNDLE]]
#
# Needs a GPU with at least 65 GB of free memory (the 32-bit stride's case at
# n = 2^32 + 2^30) and 52 GB of host memory (check at n = 2^32 + 5). Builds
# BUILD_DIR first unless it already holds gridstride. Every command has its
# own timeout; results are written after each one.
set -uo pipefail
out=${1:?usage: scripts/gpu-pitfalls.sh OUTDIR [BUILD_DIR [OPENMP_BUNDLE]]}
build=${2:-build-gpu}
bundle=${3:-}
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

# The host's literal rows (GCC -O2 and -O0) need 25.8 GB of host memory,
# which the GPU machine has and the CPU machine has not.
step "the int-loop trap on the host"
record "$f" "The int-loop trap on the host: the defined wrap, the literal text at GCC -O2 and -O0" \
  timeout 300 "$g" pitfalls --backend host --traps int-loop,early-return || status=1

# The course's int loop as it prints it, at the traps' sizes. The literal
# code's result is undefined behaviour's, recorded: a wrong verdict is a
# result here, not a failure of the script; a refusal or a harness error is.
step "check --sizes traps on the literal int-index kernels"
for spec in "int_loop.cu cuda" "int_loop.cl opencl" "int_loop.gs cuda"; do
  set -- $spec
  record "$f" "check --sizes traps: examples/$1 (the literal int index) through $2" \
    timeout 600 "$g" check "examples/$1" --backend "$2" --sizes traps
  rc=$?
  [ $rc -le 1 ] || status=1
done

# Seed 002's early return above a barrier: undefined, recorded. n = 1 on the
# device grid and n = 611 on <<<3, 256>>> leave threads of the last block
# returning; a hang is killed at --timeout and the next launch gets a fresh
# worker and context.
step "the early return above a barrier"
for spec in "early_return.cu cuda" "early_return.cl opencl"; do
  set -- $spec
  record "$f" "The early return above a barrier: examples/barrier/$1 through $2 (killed at 10 s)" \
    timeout 300 "$g" check "examples/barrier/$1" --backend "$2" --sizes 1,611 \
      --shape 3x256 --timeout 10
  rc=$?
  [ $rc -le 1 ] || status=1
done

if [ -n "$bundle" ]; then
  bundle=$(cd "$bundle" && pwd)
  step "the int-loop trap through OpenMP (bundle $bundle)"
  record "$f" "The int-loop trap through OpenMP: the defined wrap, the literal text at GCC -O2 and -O0 (and why the early return is not run there)" \
    env LD_LIBRARY_PATH="$bundle/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
      timeout 300 "$bundle/gridstride" pitfalls --backend openmp --traps int-loop,early-return || status=1
fi
step "done (status $status)"
exit $status
