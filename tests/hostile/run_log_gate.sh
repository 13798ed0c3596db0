#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The compile log a report shows keeps only the messages about the user's
# file: a compiler that prints another file's lines (a file this test made,
# as #line "FILE" made cc print /etc/passwd before the source rules refused
# #line) fails the build, and neither the report nor stderr holds that
# file's line; the file's own message is there.
#
#   run_log_gate.sh GRIDSTRIDE EXAMPLES
set -u
gs=$1
examples=$2
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
mkdir "$w/tmp"
chmod 755 "$w" # the compiler runs as the worker's user (nobody, under root)
echo 'gs-another-file-line-1f3a' >"$w/other.txt"
chmod 644 "$w/other.txt"
cp "$examples/grid_stride.gs" "$w/k.gs"
cat >"$w/cc.sh" <<CC
#!/bin/sh
cc "\$@" || exit
echo "$w/k.gs:1:1: error: the file's own message"
echo "$w/other.txt:1:1: error: expected ';'"
cat "$w/other.txt"
echo "    1 | \$(cat "$w/other.txt")"
exit 1
CC
chmod 755 "$w/cc.sh"
TMPDIR="$w/tmp" GRIDSTRIDE_CC="$w/cc.sh" "$gs" check "$w/k.gs" --backend host --no-speed \
  --sizes 0,611 --format json --output "$w/r.json" >"$w/out" 2>"$w/err"
code=$?
[ $code = 2 ] || { echo "FAIL: exit $code, expected 2"; cat "$w/err"; exit 1; }
grep -q '"class": *"compile-error"' "$w/r.json" || { echo "FAIL: class"; cat "$w/r.json"; exit 1; }
! grep -q 'gs-another-file-line' "$w/r.json" "$w/err" "$w/out" ||
  { echo "FAIL: another file's line reached the report"; grep -h 'gs-another' "$w/r.json" "$w/err"; exit 1; }
grep -q "the file's own message" "$w/err" || { echo "FAIL: the file's message is gone"; cat "$w/err"; exit 1; }
grep -q "lines of the compiler's messages about other files left out" "$w/err" ||
  { echo "FAIL: no note of what was left out"; cat "$w/err"; exit 1; }
echo "ok: only the file's own messages were shown"
