#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The OpenCL backend on oclgrind's simulated device (Debian package oclgrind),
# which checks every work-item's memory accesses:
#
#   scripts/oclgrind.sh [BUILD_DIR]      (default: build)
#
#   1. the OpenCL conformance test, with out-of-bounds accesses reported
#      (always on in oclgrind);
#   2. the default table (`gridstride --backend opencl`), with uses of
#      uninitialized values and API misuse reported too (the uninitialized
#      check triples the conformance test's time, which runs the same
#      kernels);
#   3. the table on a fixed grid of 8 x 256 threads at every size up to
#      T + 1, with data-race detection (too slow for the 4M-element row).
#
# It fails when a run fails, when oclgrind reports any error in a kernel, or
# when the API errors it reports are not exactly the launches the table
# predicted and shows as refused (the suite refuses some on purpose).
#
# oclgrind reports OpenCL 1.2, yet runs an empty NDRange, which 1.2 refuses:
# the table shows that as a deviation of the implementation from its claimed
# version (docs/tutorial.md, "Deviations", and docs/apis/opencl.md: an implementation
# that deviates from its version).
#
# The package installs no .icd file. Debian 12's ICD loader (ocl-icd 2.3)
# takes the ICD library itself in OCL_ICD_VENDORS; OCL_ICD_FILENAMES is set
# too, for loaders that read it (the Khronos loader, ocl-icd 2.3.2+).
set -euo pipefail
build=${1:-build}
cd "$(dirname "$0")/.."

icd=$(dpkg -L oclgrind 2>/dev/null | grep '/liboclgrind-rt-icd\.so$' | head -1 || true)
if [ -z "$icd" ] || [ ! -f "$icd" ]; then
  echo "oclgrind.sh: oclgrind's ICD library not found; install it (apt-get install oclgrind)" >&2
  exit 2
fi
if [ ! -x "$build/gridstride" ] || [ ! -x "$build/tests/test_conformance" ]; then
  echo "oclgrind.sh: no gridstride and tests in '$build'; build it first (scripts/quickstart.sh)" >&2
  exit 2
fi
export OCL_ICD_VENDORS=$icd OCL_ICD_FILENAMES=$icd
export GRIDSTRIDE_REQUIRE=opencl
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0

# fail WHAT: record a failure, go on with the other checks.
fail() { echo "oclgrind.sh: FAILED: $*" >&2; status=1; }

# errors_in LOG WHAT: oclgrind's kernel reports (OCLGRIND_LOG) must be none.
errors_in() {
  if [ -s "$1" ]; then
    cat "$1"
    fail "$2: oclgrind reported errors in a kernel (above)"
  fi
}

# The platform must be the simulator, not whatever else is registered.
"$build/gridstride" --list --backend opencl | tee "$work/list.txt"
grep -q "Oclgrind" "$work/list.txt" || fail "the OpenCL platform is not oclgrind's"

echo "== conformance test on oclgrind (out of bounds)"
OCLGRIND_LOG="$work/conformance.log" "$build/tests/test_conformance" opencl ||
  fail "conformance test"
errors_in "$work/conformance.log" "conformance test"

echo "== the table on oclgrind (out of bounds, uninitialized values, API misuse)"
OCLGRIND_UNINITIALIZED=1 OCLGRIND_CHECK_API=1 OCLGRIND_LOG="$work/table.log" \
  "$build/gridstride" --backend opencl --width 1000 > "$work/table.txt" 2> "$work/table.err" ||
  fail "the table (exit $?)"
cat "$work/table.txt"
errors_in "$work/table.log" "the table"
# oclgrind prints each failed API call on stderr; the table lists every
# refused launch with the API's own error name (one line a launch: the
# table above runs at --width 1000, so that no line is wrapped). The two
# lists must agree.
grep -o 'Error: *CL_[A-Z_]*' "$work/table.err" | awk '{print $2}' | sort > "$work/api-seen" || true
grep -o 'refused with CL_[A-Z_]*' "$work/table.txt" | awk '{print $3}' | sort > "$work/api-predicted" || true
if ! diff "$work/api-predicted" "$work/api-seen" > "$work/api-diff"; then
  cat "$work/table.err"
  fail "API errors oclgrind reported differ from the refusals the table predicted (< predicted, > reported):"
  cat "$work/api-diff" >&2
else
  echo "oclgrind: $(wc -l < "$work/api-seen") API error(s), each a refusal the table predicted:" \
       "$(uniq -c "$work/api-seen" | awk '{printf "%s%s x%s", sep, $2, $1; sep=", "}')"
fi
grep -v -e '^$' -e '^Oclgrind - OpenCL runtime error' -e '^[[:space:]]' "$work/table.err" >&2 || true

echo "== the table on a grid of 8 x 256 on oclgrind, up to T + 1 (data races)"
OCLGRIND_DATA_RACES=1 OCLGRIND_LOG="$work/races.log" \
  "$build/gridstride" --backend opencl --grid 8 --sizes 0,1,31,32,611,1024,1025,2048,2049 \
  --format csv --output /dev/null || fail "the data-race table"
errors_in "$work/races.log" "the data-race table"

[ $status -eq 0 ] && echo "oclgrind: no error in any kernel; every API error was a predicted refusal"
exit $status
