#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The memory preflight of check counts this machine's available memory for
# what check holds at once on a CPU device: the worker's a, b and out and
# the output check shares with it. An n whose three buffers fit but whose
# four do not (MemAvailable / 14 floats: 12/14 of it for three buffers,
# 16/14 for four) is refused in one line, exit 2, within seconds, before
# anything is allocated (the count of three alone let it through, and the
# kernel's OOM killer ended the run).
#
#   run_memory.sh GRIDSTRIDE EXAMPLES
set -u
gs=$1
examples=$2
avail_kb=$(awk '/^MemAvailable:/ {print $2}' /proc/meminfo)
[ -n "$avail_kb" ] || { echo "SKIPPED: no MemAvailable"; exit 0; }
n=$((avail_kb * 1024 / 14))
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
mkdir "$w/tmp"
t0=$(date +%s)
TMPDIR="$w/tmp" timeout -s KILL 60 "$gs" check "$examples/grid_stride.gs" --backend host \
  --sizes "$n" --no-speed --format json --output "$w/r.json" >"$w/out" 2>"$w/err"
code=$?
t1=$(date +%s)
[ $code = 2 ] || { echo "FAIL: n = $n: exit $code, expected 2"; cat "$w/err"; exit 1; }
[ "$(wc -l <"$w/err")" = 1 ] || { echo "FAIL: not one line"; cat "$w/err"; exit 1; }
grep -q "needs .* bytes of this machine's memory.*choose a smaller n with --sizes" "$w/err" ||
  { echo "FAIL: the line does not give the bytes and the fix"; cat "$w/err"; exit 1; }
grep -q '"class": *"bad-usage"' "$w/r.json" || { echo "FAIL: class"; cat "$w/r.json"; exit 1; }
[ $((t1 - t0)) -le 5 ] || { echo "FAIL: took $((t1 - t0)) s: something ran"; exit 1; }
[ -z "$(ls -A "$w/tmp")" ] || { echo "FAIL: left in TMPDIR"; exit 1; }
echo "ok: n = $n refused before anything was allocated: $(cat "$w/err")"
