#!/bin/sh
# SPDX-License-Identifier: MIT
# The install is whole: `cmake --install` into a fresh prefix, then, from an
# empty folder (no checkout in sight), the installed program runs `check` on
# an installed example and `lecture`, whose exercise slide must have run
# that example (not "Not run ... not in this folder"); the man page names
# every command, lecture too; the schemas and the T4 reference are there.
# The folder holds only the deck afterwards.
#
#   tests/install_prefix.sh BUILD_DIR WORK_DIR
set -u
if [ $# -ne 2 ]; then
  echo "usage: $0 BUILD_DIR WORK_DIR" >&2
  exit 2
fi
BUILD=$1 WORK=$2
case $WORK in /*) ;; *) WORK=$PWD/$WORK ;; esac
rm -rf "$WORK"
mkdir -p "$WORK/empty" || exit 2
PREFIX=$WORK/prefix
fail=0
bad() { echo "install: FAIL $*"; fail=1; }

if ! cmake --install "$BUILD" --prefix "$PREFIX" >"$WORK/install.log" 2>&1; then
  cat "$WORK/install.log"
  bad "cmake --install failed"
  exit 1
fi
GS=$PREFIX/bin/gridstride
SHARE=$PREFIX/share/gridstride
for f in examples/grid_stride.gs examples/grid_stride.cu examples/monolithic.cl \
         schema/table.schema.json schema/check.schema.json reference/t4-seed002.json; do
  [ -f "$SHARE/$f" ] || bad "share/gridstride/$f is not installed"
done
unset GRIDSTRIDE_REQUIRE GRIDSTRIDE_DEVICE
LC_ALL=C
export LC_ALL
cd "$WORK/empty" || exit 2

"$GS" check "$SHARE/examples/grid_stride.gs" --backend host --sizes 0,611,4097 --no-speed \
  >check.txt 2>&1
rc=$?
grep -q "^verdict: ok" check.txt || { cat check.txt; bad "check of the installed example: no verdict ok (exit $rc)"; }
[ $rc = 0 ] || bad "check of the installed example: exit $rc"
rm -f check.txt

"$GS" lecture --backend host --html deck.html >lecture.txt 2>&1
rc=$?
[ $rc = 0 ] || { cat lecture.txt; bad "lecture: exit $rc"; }
rm -f lecture.txt
if grep -q "Not run" deck.html 2>/dev/null || ! grep -q "share/gridstride/examples/grid_stride.gs" deck.html 2>/dev/null; then
  bad "lecture's exercise did not check the installed examples/grid_stride.gs"
fi
left=$(ls -A)
[ "$left" = deck.html ] || bad "the empty folder holds '$left' afterwards, not only deck.html"

PAGE=$PREFIX/share/man/man1/gridstride.1
for cmd in table bandwidth pitfalls trace check compare lecture; do
  grep -q "fB$cmd\\\\fR" "$PAGE" 2>/dev/null || bad "the man page's SYNOPSIS has no $cmd"
  grep -q "^\\.SS \"gridstride $cmd\"" "$PAGE" 2>/dev/null || bad "the man page's COMMANDS has no $cmd"
done
[ $fail = 0 ] && echo "install: ok: $PREFIX holds what check, lecture and the man page need"
exit $fail
