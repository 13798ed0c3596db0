#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `gridstride check` on an NVIDIA GPU: configure and build with CUDA and
# OpenCL required, run every example of examples/ through CUDA and OpenCL
# (each command under `timeout`), judge each verdict against the one the
# example states (tests/check_example.cmake, as ctest does), time a correct
# kernel on both APIs, and write OUTDIR/h200-check.md with the commands, the
# device and driver line, the date and every report.
#
#   scripts/gpu-check.sh OUTDIR BUILD_DIR
#
# Needs the CUDA toolkit (nvcc and NVRTC; /usr/local/cuda/bin is searched)
# and NVIDIA's OpenCL driver registered with the ICD loader (`gridstride
# --list` says when it is not). Exit 0 when every verdict is the expected one.
set -uo pipefail
out=${1:?usage: scripts/gpu-check.sh OUTDIR BUILD_DIR}
build=${2:?usage: scripts/gpu-check.sh OUTDIR BUILD_DIR}
cd "$(dirname "$0")/.."
source "scripts/gpu-lib.sh"
md="$out/h200-check.md"
limit=120 # seconds for any one command; a correct check takes a few
g="$build/gridstride"
status=0
ensure_build || exit 1

reports=$(mktemp)
rows=$(mktemp)
times=$(mktemp)
trap 'rm -f "$reports" "$rows" "$times"' EXIT

seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

# The backends an example runs on here: by extension, or its "backends:" line.
backends_of() {
  local f=$1 line
  line=$(sed -n 's/^ \* backends: //p' "$f")
  if [ -n "$line" ]; then
    echo "$line" | tr ' ' '\n' | grep -v '^host$'
    return
  fi
  case "$f" in
    *.cu) echo cuda ;;
    *.cl) echo opencl ;;
    *.gs) printf 'cuda\nopencl\n' ;;
  esac
}

# check FILE BACKEND: run it, record the report, judge it, add a table row.
check() {
  local f=$1 b=$2 so se rc t0 t1 got expect judged
  so=$(mktemp)
  se=$(mktemp)
  t0=$(date +%s.%N)
  timeout "$limit" "$g" check "$f" --backend "$b" > "$so" 2> "$se"
  rc=$?
  t1=$(date +%s.%N)
  expect=$(sed -n 's/^ \* expect: //p' "$f")
  if [ "$rc" -le 1 ]; then
    got=$(sed -n '/^verdict: /{s/^verdict: //;p;n;s/^ *//;p}' "$so" | head -2 | paste -sd ' ' -)
  else
    got=$(tail -1 "$se" | sed 's/^gridstride: //')
  fi
  # Demanded, so that a backend without a device fails rather than skips.
  if judged=$(GRIDSTRIDE_REQUIRE=cuda,opencl timeout "$limit" cmake -DGRIDSTRIDE="$g" -DEXAMPLE="$PWD/$f" -DBACKEND="$b" \
                -P tests/check_example.cmake 2>&1); then
    judged="yes"
  else
    judged="NO: $(echo "$judged" | grep -m1 -o "$(basename "$f") on $b: .*")"
    status=1
  fi
  printf '| `%s` | %s | %s | %s | %s | %s |\n' "$f" "$b" "$expect" "$rc" \
    "$(echo "$got" | relative | cut -c1-200)" "$judged" >> "$rows"
  report_run "$f" "$b" "$(printf '`gridstride check %s --backend %s` (exit %s, %s s)' "$f" "$b" \
    "$rc" "$(seconds "$t0" "$t1")")" "$so" "$se" >> "$reports"
  rm -f "$so" "$se"
}

echo "== every example through CUDA and OpenCL"
for f in examples/*.cu examples/*.cl examples/*.gs; do
  for b in $(backends_of "$f"); do
    echo "   $f on $b"
    check "$f" "$b"
  done
done

# timed CMD...: wall time of one run, in the table of timings.
timed() {
  local t0 t1 rc
  t0=$(date +%s.%N)
  timeout "$limit" "$@" > /dev/null 2>> "$log"
  rc=$?
  t1=$(date +%s.%N)
  printf '| `%s` | %s | %s |\n' "$(printf '%s ' "$@" | relative | sed 's/ $//')" "$rc" \
    "$(seconds "$t0" "$t1")" >> "$times"
}

echo "== a correct kernel, timed, on both APIs"
timed "$g" check examples/grid_stride.gs --backend cuda,opencl
timed "$g" check examples/grid_stride.cu --backend cuda
timed "$g" check examples/grid_stride.cl --backend opencl

echo "== ctest -L check with both GPU backends demanded"
ctest_out=$(GRIDSTRIDE_REQUIRE=cuda,opencl timeout 900 ctest --test-dir "$build" -L check 2>&1)
ctest_rc=$?
[ "$ctest_rc" -eq 0 ] || status=1

{
  echo "# gridstride check on an NVIDIA GPU"
  echo
  echo "- date: $date_utc"
  echo "- device and driver (nvidia-smi): $smi"
  echo "- toolkit: $nvcc_v"
  echo "- made by: \`scripts/gpu-check.sh OUTDIR BUILD_DIR\` (every command under \`timeout $limit\`)"
  echo "- devices:"
  echo
  echo '```text'
  timeout "$limit" "$g" --list --backend cuda,opencl 2>&1 | relative
  echo '```'
  echo
  echo "## Verdicts against each example's stated expectation"
  echo
  echo "| example | backend | expected | exit | got | as expected |"
  echo "|---|---|---|---:|---|---|"
  cat "$rows"
  echo
  echo "## A correct kernel, timed (wall clock of the whole command: the run-time compile and every case; target: under 3 s)"
  echo
  echo "| command | exit | seconds |"
  echo "|---|---:|---:|"
  cat "$times"
  echo
  echo "## \`GRIDSTRIDE_REQUIRE=cuda,opencl ctest -L check\` (exit $ctest_rc)"
  echo
  echo '```text'
  echo "$ctest_out" | grep -E "Test +#|tests passed|Skipped|Failed|Not Run" | relative
  echo '```'
  echo
  echo "## Reports"
  echo
  cat "$reports"
} > "$md"

echo "== done (status $status): $md"
exit $status
