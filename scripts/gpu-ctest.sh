#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The whole test suite on an NVIDIA machine, with both GPU backends
# demanded (a backend without a device fails instead of skipping) and every
# pitfall at its biting size (GRIDSTRIDE_PITFALLS_ALL=1: a big trap skipped
# for memory fails), recorded
# in OUTDIR/h200-ctest.md with every test's time and the wall time, and as
# JUnit beside it (OUTDIR/h200-ctest-junit.xml). scripts/gpu-results.sh runs
# it after the results.
#   1. -j 4, the run the suite's speed target is set for: the tests that time
#      a GPU hold a resource lock (one at a time on it), the pitfalls' big
#      traps their memory locks (tests/CMakeLists.txt), the others run beside
#      them; then the ten slowest tests, from the JUnit file;
#   2. -j "$(nproc)", the README's command, in the same build;
#   3. GRIDSTRIDE_LARGE=1 ctest -L large -j 4: the big traps once more, with
#      those of the CPU devices (the host reference's, 2^31 and 2^32 elements
#      in this machine's memory), which the default runs skip, each test's
#      time from its own JUnit file (OUTDIR/h200-ctest-large-junit.xml).
#
#   scripts/gpu-ctest.sh OUTDIR [BUILD_DIR]
#
# GS_CTEST_RUNS (default 1,2,3) picks the runs; GS_CTEST_TIMEOUT (default
# 900) is each ctest's limit in seconds.
set -uo pipefail
out=${1:?usage: scripts/gpu-ctest.sh OUTDIR [BUILD_DIR]}
build=${2:-build-gpu}
cd "$(dirname "$0")/.."
source "scripts/gpu-lib.sh"

status=0
runs=${GS_CTEST_RUNS:-1,2,3}
limit=${GS_CTEST_TIMEOUT:-900}
want_run() { [[ ",$runs," == *",$1,"* ]]; }
ensure_build || exit 1
tests="$out/h200-ctest.md"
junit="$(cd "$out" && pwd)/h200-ctest-junit.xml"
rm -f "$tests" "$junit"
if want_run 1; then
step "ctest -j 4 with GRIDSTRIDE_REQUIRE=cuda,opencl"
record "$tests" "The test suite, with both GPU backends demanded" \
  env GRIDSTRIDE_REQUIRE=cuda,opencl GRIDSTRIDE_PITFALLS_ALL=1 timeout "$limit" ctest --test-dir "$build" --output-on-failure \
  -j 4 --output-junit "$junit" || status=1
grep -E "tests passed|Skipped|Failed" "$tests" | tail -12
if [ -s "$junit" ]; then
  # Paths as a user of the checkout would type them, as in the other records.
  relative < "$junit" > "$junit.tmp" && mv "$junit.tmp" "$junit"
  {
    echo "# The ten slowest tests of that run (from h200-ctest-junit.xml)"
    echo
    echo '```text'
    python3 - "$junit" <<'PY'
import sys
import xml.etree.ElementTree as ET
cases = [(float(c.get("time") or 0), c.get("name")) for c in ET.parse(sys.argv[1]).iter("testcase")]
print(f"{len(cases)} tests, {sum(t for t, _ in cases):.1f} s in all")
for t, name in sorted(cases, reverse=True)[:10]:
    print(f"{t:8.2f} s  {name}")
PY
    echo '```'
    echo
  } >> "$tests"
fi
fi
if want_run 2; then
step "ctest -j $(nproc) (the README's command) with GRIDSTRIDE_REQUIRE=cuda,opencl"
record "$tests" "The test suite as the README runs it (-j \$(nproc) = $(nproc)), both GPU backends demanded" \
  env GRIDSTRIDE_REQUIRE=cuda,opencl GRIDSTRIDE_PITFALLS_ALL=1 timeout "$limit" ctest --test-dir "$build" --output-on-failure \
  -j "$(nproc)" || status=1
grep -E "tests passed|Total Test time" "$tests" | tail -4
fi
if want_run 3; then
large_junit="$(cd "$out" && pwd)/h200-ctest-large-junit.xml"
rm -f "$large_junit"
step "GRIDSTRIDE_LARGE=1 ctest -L large -j 4 (the CPU devices' big traps too)"
record "$tests" "The large tests, the CPU devices' big traps included (GRIDSTRIDE_LARGE=1)" \
  env GRIDSTRIDE_REQUIRE=cuda,opencl GRIDSTRIDE_PITFALLS_ALL=1 GRIDSTRIDE_LARGE=1 timeout "$limit" \
  ctest --test-dir "$build" --output-on-failure -L large -j 4 --output-junit "$large_junit" ||
  status=1
grep -E "tests passed|Total Test time|Skipped" "$tests" | tail -6
# With GRIDSTRIDE_LARGE=1 and GRIDSTRIDE_PITFALLS_ALL=1 no large test may skip
# here: each ran at its biting size, or the record says which did not.
if [ -s "$large_junit" ] && grep -q 'status="notrun"' "$large_junit"; then
  echo "large tests that did not run (skipped):" >&2
  grep -o '<testcase name="[^"]*"[^>]*status="notrun"' "$large_junit" | cut -d'"' -f2 >&2
  status=1
fi
if [ -s "$large_junit" ]; then
  {
    echo "# The large tests' times (from h200-ctest-large-junit.xml)"
    echo
    echo '```text'
    python3 - "$large_junit" <<'PY'
import sys
import xml.etree.ElementTree as ET
cases = [(float(c.get("time") or 0), c.get("name"), c.get("status"))
         for c in ET.parse(sys.argv[1]).iter("testcase")]
print(f"{len(cases)} tests, {sum(t for t, _, _ in cases):.1f} s in all")
for t, name, status in sorted(cases, reverse=True):
    print(f"{t:8.2f} s  {name} ({status})")
PY
    echo '```'
    echo
  } >> "$tests"
fi
fi
exit $status
