#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The whole test suite on an NVIDIA machine, with both GPU backends
# demanded (a backend without a device fails instead of skipping), recorded
# in OUTDIR/h200-ctest.md. scripts/gpu-results.sh runs it after the results.
# -j 4: the GPU tests hold a resource lock (one at a time on a GPU), and the
# CPU-only ones run beside them.
#
#   scripts/gpu-ctest.sh OUTDIR [BUILD_DIR]
set -uo pipefail
out=${1:?usage: scripts/gpu-ctest.sh OUTDIR [BUILD_DIR]}
build=${2:-build-gpu}
cd "$(dirname "$0")/.."
source "scripts/gpu-lib.sh"

status=0
ensure_build || exit 1
tests="$out/h200-ctest.md"
rm -f "$tests"
step "ctest with GRIDSTRIDE_REQUIRE=cuda,opencl"
record "$tests" "The test suite, with both GPU backends demanded" \
  env GRIDSTRIDE_REQUIRE=cuda,opencl ctest --test-dir "$build" --output-on-failure -j 4 \
  --output-junit "$(cd "$out" && pwd)/h200-ctest-junit.xml" || status=1
grep -E "tests passed|Skipped|Failed" "$tests" | tail -12
exit $status
