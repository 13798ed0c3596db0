#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Quick start, step 1: install what is missing, build, and run gridstride.
#
#   - Debian/Ubuntu packages: cmake, a C compiler, CMocka, libseccomp (the
#     system-call filter of check's host worker), the OpenCL ICD loader and
#     headers, PoCL (OpenCL on the CPU), and python3-jsonschema (the test
#     that validates every JSON output), python3-venv, and ninja-build (the
#     walkthrough test builds its copy of the tree with it). Only missing
#     ones are installed; root or sudo is needed only then.
#   - ReFrame, for the test suite's `reframe` entry: a virtual environment
#     in the build folder (contrib/reframe/install.sh, pinned versions from
#     the package index; kept when it is there). Without Python's venv or
#     the index it says why, and that test is then reported skipped.
#   - The CUDA backend is built when nvcc is found (on PATH or in
#     /usr/local/cuda/bin); it is never installed by this script.
#   - Build type Release in ./build (override with BUILD_DIR=...).
# Then it runs `gridstride`: the table on every backend that has a device.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}

packages="cmake gcc make libcmocka-dev libseccomp-dev ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd python3-jsonschema python3-venv ninja-build"

missing=""
if command -v dpkg-query >/dev/null 2>&1; then
  for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
  done
else
  for c in cmake cc make; do
    command -v "$c" >/dev/null 2>&1 || missing="$missing $c"
  done
fi

if [ -n "$missing" ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "quickstart: missing:$missing, and there is no apt-get here; install them with your package manager" >&2
    exit 2
  fi
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "quickstart: missing:$missing; run as root or install sudo" >&2; exit 2; }
    sudo=sudo
  fi
  echo "quickstart: installing:$missing"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

cuda_args=(-DGS_CUDA=OFF)
nvcc=$(command -v nvcc || true)
[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
if [ -n "$nvcc" ]; then
  cuda_args=(-DGS_CUDA=ON "-DCMAKE_CUDA_COMPILER=$nvcc")
  echo "quickstart: building the CUDA backend with $nvcc"
else
  echo "quickstart: no nvcc found; building without the CUDA backend"
fi

cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DGS_OPENCL=ON "${cuda_args[@]}"
cmake --build "$build_dir" -j "$(nproc 2>/dev/null || echo 2)"
rc=0
./contrib/reframe/install.sh "$build_dir/reframe-venv" || rc=$?
case $rc in
  0) ;;
  77) echo "quickstart: ReFrame not installed (above: why); the test suite's reframe entry will be skipped" ;;
  *) echo "quickstart: contrib/reframe/install.sh failed (exit $rc)" >&2; exit "$rc" ;;
esac
echo
exec "./$build_dir/gridstride"
