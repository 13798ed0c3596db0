#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The host backend reads the object its compiler made before loading it:
# a compiler that adds a constructor to every object (the source rules
# refuse the text that would) gets a right kernel refused in one line,
# before the object is loaded.
#
#   run_elf_gate.sh GRIDSTRIDE EXAMPLES
set -u
gs=$1
examples=$2
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
mkdir "$w/tmp"
# The compiler runs as the worker's user (nobody, under root): the script
# must be reachable, and writes its addition into the worker's TMPDIR.
chmod 755 "$w"
cat >"$w/cc.sh" <<'CC'
#!/bin/sh
d=$(mktemp -d) || exit 1
printf 'int gs_mark;\n__attribute__((constructor)) static void gs_mark_it(void) { gs_mark = 1; }\n' >"$d/ctor.c"
cc "$@" "$d/ctor.c"
rc=$?
rm -rf "$d"
exit $rc
CC
chmod 755 "$w/cc.sh"
TMPDIR="$w/tmp" GRIDSTRIDE_CC="$w/cc.sh" "$gs" check "$examples/grid_stride.gs" --backend host \
  --no-speed --sizes 0,611 --format json --output "$w/r.json" >"$w/out" 2>"$w/err"
code=$?
[ $code = 2 ] || { echo "FAIL: exit $code, expected 2"; cat "$w/err"; exit 1; }
grep -q 'not loaded: its .init_array section' "$w/err" ||
  { echo "FAIL: the message does not name .init_array"; cat "$w/err"; exit 1; }
[ "$(wc -l <"$w/err")" = 1 ] || { echo "FAIL: not one line"; cat "$w/err"; exit 1; }
grep -q '"class": *"bad-signature"' "$w/r.json" || { echo "FAIL: class"; cat "$w/r.json"; exit 1; }
echo "ok: the object with a constructor was refused before it was loaded"
