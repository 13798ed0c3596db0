#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# CI, after the Quick start: what a fresh clone must also do the way users
# and lab machines do it: configure, build and test through the presets
# (ci: warnings as errors, JUnit; ci-sanitize: AddressSanitizer and
# UndefinedBehaviorSanitizer, leak checking on through each test's own
# environment, cmake/gridstride.cmake), then `cmake --install`. Prints its
# wall time.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
jobs=$(nproc 2>/dev/null || echo 2)

# The man page test compares docs/gridstride.1 with help2man's output.
if ! command -v help2man >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends help2man >/dev/null
  else
    echo "ci: help2man missing and not root: the man page test will be skipped" >&2
  fi
fi

echo "== every source file carries its SPDX licence line"
scripts/spdx-headers.sh --check

echo "== cmake --preset ci (Debug, GS_WERROR=ON: gcc 12's Debug warnings), build, ctest --preset ci"
cmake --preset ci
cmake --build --preset ci -j "$jobs"
ctest --preset ci -j "$jobs"
test -s build-ci/junit.xml && echo "JUnit report: build-ci/junit.xml"
# ctest's JUnit has no labels; the converter adds each test's as a property.
python3 scripts/junit.py ctest build-ci build-ci/junit.xml build-ci/junit-labels.xml

echo "== the same under AddressSanitizer and UndefinedBehaviorSanitizer (ci-sanitize)"
cmake --preset ci-sanitize > /dev/null
cmake --build --preset ci-sanitize -j "$jobs" > /dev/null
# A new PoCL kernel cache: the driver compiles in-process under the
# sanitizers, as on a fresh machine, whatever ran before (tests/lsan.supp).
pocl_cache=$(mktemp -d)
POCL_CACHE_DIR=$pocl_cache ctest --preset ci-sanitize -j "$jobs"
rm -rf "$pocl_cache"

echo "== cmake --install into a scratch prefix"
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install build-ci --prefix "$prefix"
"$prefix/bin/gridstride" --version
test -s "$prefix/share/man/man1/gridstride.1"
"$prefix/bin/gridstride" compare "$prefix/share/gridstride/reference/t4-seed002.json" > /dev/null
echo "installed: bin/gridstride, its man page, the reference results"

echo "== presets and install took $(( $(date +%s) - start )) s"
