#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# compute-sanitizer's four tools (memcheck with leak checking, initcheck,
# racecheck, synccheck) on the whole default CUDA table and on the bandwidth
# mode at a small size, recorded in OUTDIR/h200-sanitizer.md with the
# commands, the device and driver line, the date, the error counts per tool,
# and every CUDA API error a tool reported, each matched against the
# launches the table refuses on purpose (the zero-block launch of column A
# at n = 0), so that a new one stands out.
#
#   scripts/gpu-sanitizer.sh OUTDIR BUILD_DIR
#
# Needs an NVIDIA GPU, nvcc and compute-sanitizer (on PATH or in
# /usr/local/cuda/bin). Each of the eight runs is bounded by `timeout`
# (GS_SANITIZER_TIMEOUT seconds, default 120, so that the whole record fits
# a ten-minute window once BUILD_DIR is built). Exits 1 when a run fails or
# times out, when a tool reports an error in a kernel or a leak, or when an
# API error is not one the table predicts and shows as a refusal.
set -uo pipefail
usage="usage: scripts/gpu-sanitizer.sh OUTDIR BUILD_DIR"
out=${1:?$usage}
build=${2:?$usage}
cd "$(dirname "$0")/.." || exit 2
limit=${GS_SANITIZER_TIMEOUT:-120}

# tool NAME: NAME on PATH, else in /usr/local/cuda/bin.
tool() {
  command -v "$1" 2>/dev/null && return
  [ -x "/usr/local/cuda/bin/$1" ] && echo "/usr/local/cuda/bin/$1"
}
sanitizer=$(tool compute-sanitizer)
nvcc=$(tool nvcc)
if [ -z "$sanitizer" ] || [ -z "$nvcc" ]; then
  echo "gpu-sanitizer.sh: compute-sanitizer and nvcc are needed (PATH or /usr/local/cuda/bin)" >&2
  exit 2
fi
PATH=$PATH:$(dirname "$nvcc")
# shellcheck source=scripts/gpu-lib.sh
source "scripts/gpu-lib.sh"
record="$out/h200-sanitizer.md"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cs_v=$("$sanitizer" --version 2>&1 | grep -i version | head -1)

# gpu-lib's paths, plus this script's scratch folder and the tool's path.
shown() {
  relative | sed -e "s#$work/##g" -e "s#$sanitizer#compute-sanitizer#g"
}

# Build (or bring up to date) the build folder, CUDA and OpenCL required.
ensure_build || exit 1
run cmake --build "$build" -j "$(nproc)" || { tail -40 "$log"; exit 1; }

# The runs: the default table (every size, shape and column, the refused
# zero-block launch included) and the bandwidth mode at a small size.
g="$build/gridstride"
run_names=(table bandwidth)
run_table=("$g" --backend cuda --width 1000)
run_bandwidth=("$g" bandwidth --backend cuda --bytes 16MiB --reps 5 --quiet)
tools=(memcheck initcheck racecheck synccheck)

# tool_args TOOL: the options of one tool into args; API errors reported
# explicitly, leaks too under memcheck.
tool_args() {
  args=(--tool "$1")
  if [ "$1" = memcheck ]; then
    args+=(--leak-check full)
  fi
  args+=(--report-api-errors explicit)
}

# The tool's error count: ERROR SUMMARY, or racecheck's RACECHECK SUMMARY;
# empty when the tool printed neither (it did not finish).
summary_errors() {
  local n
  n=$(sed -n 's/.*ERROR SUMMARY: \([0-9][0-9]*\) error.*/\1/p' "$1" | tail -1)
  [ -z "$n" ] && n=$(sed -n 's/.*RACECHECK SUMMARY:.*(\([0-9][0-9]*\) error.*/\1/p' "$1" | tail -1)
  echo "$n"
}

# api_errors LOG: "call error" per API error report, e.g.
# "cudaLaunchKernel cudaErrorInvalidValue".
api_errors() {
  sed -n 's/.*Program hit \(cuda[A-Za-z]*\) (error [0-9]*) due to .* on CUDA API call to \([A-Za-z_0-9]*\).*/\2 \1/p' "$1"
}

status=0
rows=""
apis=""
details=""
for r in "${run_names[@]}"; do
  case $r in
    table) cmd=("${run_table[@]}") ;;
    bandwidth) cmd=("${run_bandwidth[@]}") ;;
  esac
  for t in "${tools[@]}"; do
    echo "== $r under $t"
    log="$work/$r-$t.log"
    tool_args "$t"
    line=(timeout "$limit" "$sanitizer" "${args[@]}" --log-file "$log" "${cmd[@]}")
    start=$(date +%s)
    GRIDSTRIDE_REQUIRE=cuda "${line[@]}" > "$work/$r-$t.out" 2> "$work/$r-$t.err"
    rc=$?
    secs=$(( $(date +%s) - start ))
    [ -f "$log" ] || : > "$log"
    errors=$(summary_errors "$log")
    api_errors "$log" | sort | uniq -c > "$work/$r-$t.api"
    napi=$(awk '{n += $1} END {print n + 0}' "$work/$r-$t.api")
    # What the table refused, in its own words: the only API errors expected.
    grep -o 'refused with cuda[A-Za-z]*' "$work/$r-$t.out" | awk '{print $3}' | sort -u \
      > "$work/$r-$t.expected" || true
    verdict=ok
    if [ -z "$errors" ]; then
      verdict="no summary: the tool did not finish (exit $rc)"
      errors="?"
      other="?"
    else
      other=$(( errors > napi ? errors - napi : 0 ))
      [ "$rc" -ne 0 ] && verdict="exit $rc"
      [ "$other" -ne 0 ] && verdict="$other error(s) besides API errors"
    fi
    while read -r count call name; do
      if grep -qx "$name" "$work/$r-$t.expected"; then
        expected="yes: a launch the table shows as refused with $name"
      else
        expected="**NEW**: not a refusal the table predicts"
        verdict="unexpected API error $name"
      fi
      apis+="| $r | $t | \`$call\` | \`$name\` | $count | $expected |"$'\n'
    done < "$work/$r-$t.api"
    [ "$verdict" != ok ] && status=1
    cmdline=$(printf '%s ' GRIDSTRIDE_REQUIRE=cuda "${line[@]}" | shown | sed -e 's/ $//')
    rows+="| $r | $t | $rc | $errors | $napi | $other | $secs | $verdict |"$'\n'
    details+="### $r under $t"$'\n\n'"- command: \`$cmdline\` (exit $rc, $secs s)"$'\n\n'
    details+='```text'$'\n'"$(shown < "$log")"$'\n''```'$'\n\n'
    if [ "$r" = table ]; then
      refused=$(grep -A1 'refused with' "$work/$r-$t.out" | shown)
    fi
    if [ -s "$work/$r-$t.err" ]; then
      details+="standard error:"$'\n\n''```text'$'\n'"$(shown < "$work/$r-$t.err")"$'\n''```'$'\n\n'
    fi
    details+="the run's last line: \`$(tail -1 "$work/$r-$t.out" | shown)\`"$'\n\n'
  done
done

{
  echo "# compute-sanitizer on the CUDA table and the bandwidth mode"
  echo
  echo "Recorded by \`scripts/gpu-sanitizer.sh\`."
  echo
  echo "- date: $date_utc"
  echo "- device and driver (nvidia-smi): $smi"
  echo "- toolkit: $nvcc_v; compute-sanitizer: $cs_v"
  echo "- build: \`cmake -S . -B $(echo "$build" | shown) -DCMAKE_BUILD_TYPE=Release -DGS_CUDA=ON -DGS_OPENCL=ON\`"
  echo "- runs: \`$(echo "${run_table[*]}" | shown)\` (the whole default table) and"
  echo "  \`$(echo "${run_bandwidth[*]}" | shown)\` (every variant, small size),"
  echo "  each under every tool, bounded by \`timeout $limit\`"
  echo "- result: $([ $status -eq 0 ] && echo "no error in any kernel, no leak; every API error a refusal the table predicts" || echo "FAILED (see the verdicts)")"
  echo
  echo "| run | tool | exit | errors (tool's summary) | API errors among them | other errors | seconds | verdict |"
  echo "|---|---|---:|---:|---:|---:|---:|---|"
  printf '%s' "$rows"
  echo
  echo "## API errors the suite causes on purpose"
  echo
  echo "The table launches some shapes that CUDA must refuse, predicts the refusal and shows"
  echo "the API's own answer; the tools report each such refusal as an API error. Every API"
  echo "error reported, with the refusal it matches (a **NEW** one is not a predicted refusal):"
  echo
  if [ -n "$apis" ]; then
    echo "| run | tool | API call | error | reports | expected |"
    echo "|---|---|---|---|---:|---|"
    printf '%s' "$apis"
  else
    echo "(none reported)"
  fi
  echo
  echo "The table's refused launches, from its own output:"
  echo
  echo '```text'
  echo "${refused:-(none)}"
  echo '```'
  echo
  echo "## Logs"
  echo
  printf '%s' "$details"
} > "$record"

echo "== wrote $record (status $status)"
exit $status
