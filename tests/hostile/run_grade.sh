#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# examples/grade.sh over a folder of submissions: one JSON each, and a
# summary whose classes are the verdicts' own.
#
#   run_grade.sh GRIDSTRIDE
set -u
gs=$1
here=$(cd "$(dirname "$0")" && pwd)
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
export TMPDIR="$w"
mkdir "$w/subs"
cp "$here/../../examples/grid_stride.gs" "$here/../../examples/monolithic.gs" \
   "$here/kernel_system.gs" "$here/include_system.gs" "$here/compile_error.gs" "$w/subs/"
cp "$here/../../examples/grid_stride.gs" "$w/subs/with space.gs"
# --no-speed: the verdicts and their classes are the cases' (the speed pass
# would time the two right files, for nothing the summary shows).
GRIDSTRIDE=$gs PYTHON=${GS_PYTHON:-python3} "$here/../../examples/grade.sh" "$w/subs" "$w/out" \
  --backend host --no-speed --sizes 0,611,4097 \
  >"$w/log" 2>&1 ||
  { echo "FAIL: grade.sh exit $?"; cat "$w/log"; exit 1; }
want=$'compile_error.gs\t2\tcompile-error\tcompile-error
grid_stride.gs\t0\tok\tok
include_system.gs\t2\tfile-refused\tfile-refused
kernel_system.gs\t1\twrong\tfaulted
monolithic.gs\t1\twrong\tshort-grid
with_space.gs\t0\tok\tok'
got=$(tail -n +2 "$w/out/summary.tsv")
[ "$got" = "$want" ] || { echo "FAIL: summary"; echo "$got"; exit 1; }
[ "$(ls "$w/out"/*.json | wc -l)" = 6 ] || { echo "FAIL: not one JSON per submission"; exit 1; }
echo "ok: grade.sh wrote 6 verdicts and the summary"
