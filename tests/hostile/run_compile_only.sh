#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check --compile-only on compiler bombs (a macro and a template that never
# end expanding): NVRTC runs in a worker of its own, so check ends at the
# compiler's deadline (--timeout 3) with one line and exit 2, and leaves no
# process and no file behind. Before the compile worker, NVRTC ran in
# check's own process with no deadline: the row's outer limit of 60 s ended
# it (exit 124), check itself grown by gigabytes.
#
#   run_compile_only.sh GRIDSTRIDE
set -u
gs=$1
here=$(cd "$(dirname "$0")" && pwd)
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
mkdir "$w/tmp"
export TMPDIR="$w/tmp"
status=0
for bomb in macro template; do
  f="$here/compile_bomb_$bomb.cu"
  start=$(date +%s)
  timeout -s KILL 60 "$gs" check "$f" --compile-only --arch sm_90 --backend cuda --timeout 3 \
    > "$w/out" 2> "$w/err"
  rc=$?
  took=$(( $(date +%s) - start ))
  lines=$(wc -l < "$w/err")
  if [ "$rc" -ne 2 ] || [ "$lines" -ne 1 ] || ! grep -q "did not finish in 3 s" "$w/err"; then
    echo "FAIL $bomb: exit $rc after $took s; stderr:"; head -c 2000 "$w/err"; status=1
  elif [ "$took" -gt 20 ]; then
    echo "FAIL $bomb: ended after $took s, past its deadline of 3 s"; status=1
  else
    echo "ok $bomb: exit 2 after $took s: $(cat "$w/err")"
  fi
  if [ -n "$(ls -A "$w/tmp")" ]; then
    echo "FAIL $bomb: left in TMPDIR: $(ls -A "$w/tmp")"; status=1
  fi
done
# No compile worker of this run is left (its folder was under this TMPDIR).
for p in /proc/[0-9]*; do
  cwd=$(readlink "$p/cwd" 2>/dev/null) || continue
  case "$cwd" in "$w"/*) echo "FAIL: process ${p#/proc/} left in $cwd"; status=1 ;; esac
done
exit $status
