#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `gridstride check` ended by a signal while a worker runs: nothing is left
# behind (no worker, no compiler, no folder in TMPDIR) and check dies of the
# signal it got.
#
#   run_signal.sh GRIDSTRIDE SIGNAL DELAY_S|launch
#
# The file is the hostile suite's endless kernel (a step of 0); DELAY_S short
# ends check while the system compiler runs; `launch` waits until a launch
# runs: a worker of this run (comm "exe") has spun for 0.2 s of CPU.
set -u
set -m # a job of its own: a background job of a script would ignore SIGINT
gs=$1
sig=$2
delay=$3
here=$(cd "$(dirname "$0")" && pwd)
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
mkdir "$w/tmp"
export TMPDIR="$w/tmp"
cp "$here/endless.gs" "$w/endless.gs"
marker="gs-signal-$$-$RANDOM$RANDOM"
env GS_HOSTILE_MARK="$marker" "$gs" check "$w/endless.gs" --backend host --timeout 30 \
  --output "$w/report.txt" >/dev/null 2>"$w/stderr" &
pid=$!
# The processes of this run: check by its marker, a worker (an environment
# of its own) by its working directory in this run's TMPDIR.
marked_all() {
  grep -l "GS_HOSTILE_MARK=$marker" /proc/[0-9]*/environ 2>/dev/null | sed 's,/environ$,,'
  for c in /proc/[0-9]*/cwd; do
    case "$(readlink "$c" 2>/dev/null)" in "$w"/*) echo "${c%/cwd}" ;; esac
  done
}
# A worker of this run that has used 0.2 s of CPU (20 clock ticks): the
# endless kernel, launched. utime and stime are the 14th and 15th fields of
# /proc/PID/stat, counted after the ") " that ends the command's name.
launched() {
  local f st rest
  for f in $(marked_all); do
    [ "$(cat "$f/comm" 2>/dev/null)" = exe ] || continue
    st=$(cat "$f/stat" 2>/dev/null) || continue
    rest=${st##*) }
    read -r -a fields <<<"$rest"
    [ $(( fields[11] + fields[12] )) -ge 20 ] && return 0
  done
  return 1
}
when="after $delay s"
if [ "$delay" = launch ]; then
  when="while a launch ran"
  for _ in $(seq 200); do
    launched && break
    sleep 0.05
  done
  launched || { kill -KILL $pid; echo "FAIL signal $sig: no launch ran within 10 s"; exit 1; }
else
  sleep "$delay"
fi
kill -"$sig" $pid
t0=$(date +%s)
wait $pid
code=$?
t1=$(date +%s)
fail() { echo "FAIL signal $sig $when: $*"; cat "$w/stderr"; exit 1; }
want=$((128 + $(kill -l "$sig")))
[ "$code" = "$want" ] || fail "exit $code, expected $want (death by SIG$sig)"
[ $((t1 - t0)) -le 5 ] || fail "took $((t1 - t0)) s to end"
# What this run left: looked at now and, where something is found (a worker
# may be exiting), once more 0.2 s later, as the only look used to be.
marked() { marked_all | head -5; }
# SIGKILL cannot be caught: check's folders stay (docs/check.md says so), but
# no worker may outlive it (its death signal, set again after its change of
# user).
if [ "$sig" = KILL ]; then
  sleep 0.2
  left=$(marked)
  [ -z "$left" ] || fail "processes left behind: $left $(cat $left/cmdline 2>/dev/null | tr '\0' ' ')"
  echo "ok: SIGKILL $when: exit $code, no worker left"
  exit 0
fi
left=$(marked)
if [ -n "$(ls -A "$TMPDIR")" ] || [ -n "$left" ]; then
  sleep 0.2
  left=$(marked)
fi
[ -z "$(ls -A "$TMPDIR")" ] || fail "left in TMPDIR: $(ls -A "$TMPDIR")"
[ -z "$left" ] || fail "processes left behind: $left"
ls "$w"/report.txt* >/dev/null 2>&1 && fail "a report or its temporary was left"
echo "ok: SIG$sig $when: exit $code, nothing left"
