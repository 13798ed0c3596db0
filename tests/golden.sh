#!/bin/sh
# SPDX-License-Identifier: MIT
# Golden-output test of the command line: every case of
# tests/golden/commands.txt is run against the built gridstride, its exit
# status, stdout, stderr and the files it wrote are masked by
# tests/golden/mask.py (dates, timings, paths, version and toolkit, the
# machine's CPU, memory and PoCL details: see there) and compared with
# tests/golden/expected/<name>.txt. A change in anything else a user can see
# (a verdict, a prediction, a wrong@ cell, a count, an error message, an exit
# status, a JSON member or its order, the layout) fails the test, which
# prints the first differing lines of each failed case and lists the
# failures at the end.
#
#   tests/golden.sh GRIDSTRIDE SOURCE_DIR WORK_DIR [VERSION [TOOLKIT]]
#
# ctest runs it as the test `golden` (labels cli, golden). A case whose
# needs (commands.txt) this machine or build lacks, e.g. opencl without
# PoCL, is skipped with the reason; exit 77 (skipped) when no case ran.
#
# Update mode: GS_GOLDEN_UPDATE=1 rewrites the expected file of every case
# that ran (and deletes expected files of cases no longer listed), e.g.
#   GS_GOLDEN_UPDATE=1 ctest --test-dir build -R '^golden$' --output-on-failure
# then review the change with git diff: it is the change of behaviour.
# To add a case, add one line to commands.txt and run the update.
# GS_GOLDEN_ONLY=REGEX runs only the cases whose names match (grep -E).
set -u
if [ $# -lt 3 ]; then
  echo "usage: $0 GRIDSTRIDE SOURCE_DIR WORK_DIR [VERSION [TOOLKIT]]" >&2
  exit 2
fi
GS=$1 SRC=$2 WORK=$3 VERSION=${4:-} TOOLKIT=${5:-}
# Each case runs in a folder of its own: the paths must be absolute.
case $GS in /*) ;; *) GS=$PWD/$GS ;; esac
case $SRC in /*) ;; *) SRC=$PWD/$SRC ;; esac
case $WORK in /*) ;; *) WORK=$PWD/$WORK ;; esac
if [ ! -x "$GS" ] || ! "$GS" --help >/dev/null 2>&1; then
  echo "golden: $GS does not run (gridstride --help failed)" >&2
  exit 2
fi
HERE=$SRC/tests/golden
EXPECTED=$HERE/expected
RAW=$WORK/.raw
MASKED=$WORK/.masked
UPDATE=${GS_GOLDEN_UPDATE:-0}
ONLY=${GS_GOLDEN_ONLY:-}

py=${GS_PYTHON:-python3}
if ! command -v "$py" >/dev/null 2>&1; then
  echo "golden: SKIPPED: no $py for the masking step (tests/golden/mask.py)"
  exit 77
fi

# The same environment for every run: nothing the caller set may change
# what gridstride prints (a required backend, a device, a compiler, CTest's
# GPU). The host backend builds .gs kernels under $TMPDIR, of which it keeps
# the first 40 characters only: so /tmp, not a folder of the build tree.
unset GRIDSTRIDE_REQUIRE GRIDSTRIDE_DEVICE GRIDSTRIDE_CC CC \
      CTEST_RESOURCE_GROUP_COUNT CTEST_RESOURCE_GROUP_0 CTEST_RESOURCE_GROUP_0_GPUS
LC_ALL=C
TMPDIR=/tmp
# Text reports unwrapped: the wrap points would move with what the masking
# hides (the CPU's name that PoCL's device carries, paths, versions). The
# wrapping is tested by report_width (tests/report_width.py), at --width 100.
COLUMNS=1000
export LC_ALL TMPDIR COLUMNS
case $WORK in /|"$SRC"|"$SRC"/) echo "golden: WORK_DIR must be a folder of its own" >&2; exit 2 ;; esac
rm -rf "$WORK"
mkdir -p "$RAW" "$MASKED" || exit 2

# --- what this machine and build have
compiled=$("$GS" --help 2>/dev/null | sed -n 's/^backends compiled in: \([^(]*\).*/\1/p' |
           sed 's/[ ,]*$//; s/, /+/g')
"$GS" --list </dev/null >"$WORK/.list" 2>&1
# Backends with a device: a "name: ..." line followed by a device line.
devices=$(awk '/^[a-z0-9_]+: / { b = $1; sub(":", "", b); next }
               /^  \[/ && b != "" { print b; b = "" }' "$WORK/.list")
ocl_name=$(sed -n '/^opencl: /,/^[a-z0-9_]*: /s/^  \[[0-9]*:[0-9]*\] //p' "$WORK/.list" | head -n 1)
ocl_line=$(sed -n '/^opencl: /,/^[a-z0-9_]*: /{/^  \[/{n;p;}}' "$WORK/.list" | head -n 1)
ocl_driver=$(printf '%s\n' "$ocl_line" | sed -n 's/.* | driver \([^ ]*\) | .*/\1/p')
cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 0)
mem_gib=$(awk '/^MemTotal:/ { printf "%d", $2 / 1048576 }' /proc/meminfo 2>/dev/null)

# squeezed VAR TEXT: TEXT's words, one space apart, into VAR (no globbing:
# set -f below), without a subshell: the loop below runs it for every case.
squeezed() {
  _sq_var=$1
  # shellcheck disable=SC2086  # splitting into words is the point
  set -- $2
  eval "$_sq_var=\$*"
}
squeezed devices "$devices"

# why_not NEEDS: sets reason to why this machine cannot run a case, or to
# nothing (in this shell: no subshell a case).
why_not() {
  reason=""
  old_ifs=$IFS
  IFS=,
  for need in $1; do
    IFS=$old_ifs
    squeezed need "$need"
    case $need in
      ""|-) ;;
      build=*)
        [ "${need#build=}" = "$compiled" ] ||
          { reason="needs a build of exactly ${need#build=} (this one: $compiled)"; return; } ;;
      cpus=*)
        [ "${need#cpus=}" = "$cpus" ] ||
          { reason="recorded on ${need#cpus=} CPUs (this machine: $cpus): the device grid differs"; return; } ;;
      memGiB\<*)
        if [ -z "$mem_gib" ] || [ "$mem_gib" -ge "${need#memGiB<}" ]; then
          reason="needs less than ${need#memGiB<} GiB of memory (this machine: ${mem_gib:-?} GiB)"; return
        fi ;;
      opencl)
        case " $devices " in *" opencl "*) ;; *)
          reason="no OpenCL device"; return ;; esac
        case $ocl_line in *"Portable Computing Language |"*) ;; *)
          reason="the OpenCL device is not PoCL, whose answers the files hold"; return ;; esac ;;
      *)
        case " $devices " in *" $need "*) ;; *)
          reason="no $need device in this build or on this machine"; return ;; esac ;;
    esac
    IFS=,
  done
  IFS=$old_ifs
}

# run_case NAME ENVS WORDS: the case's command (ENVS and WORDS as saved in
# $RAW/NAME.env and .words) in its own folder, its output, errors
# and exit status into $RAW. Cases run $JOBS at a time (GS_GOLDEN_JOBS,
# default the CPU count): each has its own folder and its outputs are
# masked of everything a neighbour's load changes (timings, and check runs
# with --no-speed).
run_case() {
  # shellcheck disable=SC2086  # the lists of words
  if [ -n "$2" ]; then
    (cd "$WORK/$1" && exec env $2 "$GS" $3) </dev/null >"$RAW/$1.out" 2>"$RAW/$1.err"
  else
    (cd "$WORK/$1" && exec "$GS" $3) </dev/null >"$RAW/$1.out" 2>"$RAW/$1.err"
  fi
  echo $? >"$RAW/$1.rc"
}
JOBS=${GS_GOLDEN_JOBS:-$cpus}
case $JOBS in ""|*[!0-9]*|0) JOBS=1 ;; esac

# --- run every case
set -f
ran="" seen="" skipped=0 nran=0 later="" running=0
while IFS='|' read -r name needs args; do
  squeezed name "$name"
  case $name in ""|\#*) continue ;; esac
  case " $seen " in *" $name "*)
    echo "golden: commands.txt names the case $name twice" >&2; exit 2 ;; esac
  seen="$seen $name"
  if [ -n "$ONLY" ] && ! echo "$name" | grep -Eq -- "$ONLY"; then
    continue
  fi
  why_not "$needs"
  if [ -n "$reason" ]; then
    echo "golden: SKIP $name: $reason"
    skipped=$((skipped + 1))
    continue
  fi
  squeezed args "$args"
  printf '%s\n' "$args" >"$RAW/$name.cmd"
  # Leading VAR=value words are the environment; @SRC@ is the source tree.
  envs="" words="" started=0
  for w in $args; do
    while :; do
      case $w in *@SRC@*) w=${w%%@SRC@*}$SRC${w#*@SRC@} ;; *) break ;; esac
    done
    if [ $started = 0 ]; then
      case $w in
        [A-Za-z_]*=*)
          case ${w%%=*} in *[!A-Za-z0-9_]*) ;; *) envs="$envs $w"; continue ;; esac ;;
      esac
    fi
    started=1
    words="$words $w"
  done
  mkdir -p "$WORK/$name"
  printf '%s\n' "$envs" >"$RAW/$name.env"
  printf '%s\n' "$words" >"$RAW/$name.words"
  # A case that reads another's file (../<case>/) runs after every other.
  case $words in
    *../*) later="$later $name" ;;
    *)
      run_case "$name" "$envs" "$words" &
      running=$((running + 1))
      if [ "$running" -ge "$JOBS" ]; then
        wait
        running=0
      fi ;;
  esac
  ran="$ran $name"
  nran=$((nran + 1))
done <"$HERE/commands.txt"
wait
for name in $later; do
  run_case "$name" "$(cat "$RAW/$name.env")" "$(cat "$RAW/$name.words")"
done
set +f

if [ $nran = 0 ]; then
  echo "golden: SKIPPED: no case can run here ($skipped skipped)"
  exit 77
fi

# --- mask, then compare (or update): mask.py compares every case and names
# those whose text is not the expected one
mkdir -p "$EXPECTED"
# shellcheck disable=SC2086  # $ran is a list of names
found=$("$py" "$HERE/mask.py" --raw "$RAW" --out "$MASKED" --expected "$EXPECTED" --src "$SRC" \
  --work "$WORK" --version "$VERSION" --toolkit "$TOOLKIT" --opencl-device "$ocl_name" \
  --opencl-driver "$ocl_driver" $ran) || exit 2

failed="" nfailed=0
set -f
# shellcheck disable=SC2086  # pairs of words: what, name
set -- $found
set +f
while [ $# -ge 2 ]; do
  what=$1 name=$2
  shift 2
  if [ "$UPDATE" = 1 ]; then
    cp "$MASKED/$name.txt" "$EXPECTED/$name.txt" && echo "golden: updated $name"
  elif [ "$what" = missing ]; then
    echo "golden: FAIL $name: no expected/$name.txt (GS_GOLDEN_UPDATE=1 writes it)"
    failed="$failed $name"
    nfailed=$((nfailed + 1))
  else
    echo "golden: FAIL $name: the first differences (- expected, + now):"
    diff -u "$EXPECTED/$name.txt" "$MASKED/$name.txt" | sed -n '3,40p' | cut -c1-200 | sed 's/^/    /'
    failed="$failed $name"
    nfailed=$((nfailed + 1))
  fi
done
# An expected file that no case writes any more.
if [ -z "$ONLY" ]; then
  for f in "$EXPECTED"/*.txt; do
    [ -f "$f" ] || continue
    name=${f##*/}
    name=${name%.txt}
    case " $seen " in *" $name "*) continue ;; esac
    if [ "$UPDATE" = 1 ]; then
      rm -f "$f" && echo "golden: removed expected/$name.txt (no such case)"
    else
      echo "golden: FAIL $name: expected/$name.txt belongs to no case of commands.txt"
      failed="$failed $name"
      nfailed=$((nfailed + 1))
    fi
  done
fi

echo "golden: $nran cases run, $nfailed failed, $skipped skipped (masked outputs: $MASKED)"
if [ $nfailed -gt 0 ]; then
  echo "golden: failed:$failed"
  echo "golden: if the change is intended, GS_GOLDEN_UPDATE=1 rewrites the files; review git diff"
  exit 1
fi
exit 0
