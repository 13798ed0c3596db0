# SPDX-License-Identifier: MIT
# Shared by the scripts that record results on an NVIDIA machine: source it
# after setting `out` (the results folder) and `build` (the build folder).
# Every results file records its commands, the device and driver line, the
# date and each command's wall time.
mkdir -p "$out"
export PATH="$PATH:/usr/local/cuda/bin" # nvcc, where the toolkit installs it
date_utc=$(date -u +%Y-%m-%dT%H:%MZ)
smi=$(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -1)
nvcc_v=$(nvcc --version 2>&1 | sed -n 's/.*release \([0-9.]*\), \(V[0-9.]*\).*/CUDA \1 (\2)/p')
log="$out/$(basename "$0" .sh).log"
: > "$log"

step() { echo "== $*" | tee -a "$log"; }

# run CMD...: echo it into the log, run it, keep its output and exit code.
run() {
  echo "\$ $*" >> "$log"
  "$@" >> "$log" 2>&1
  local rc=$?
  echo "(exit $rc)" >> "$log"
  return $rc
}

# Paths as a user of the checkout would type them.
# The loader path a command inherits from this machine shows as
# $LD_LIBRARY_PATH.
relative() {
  local ld=()
  [ -n "${LD_LIBRARY_PATH:-}" ] && ld=(-e "s#${LD_LIBRARY_PATH}#\$LD_LIBRARY_PATH#g")
  sed "${ld[@]}" -e "s#$out/##g" -e "s#$build/gridstride#gridstride#g" -e "s#$PWD/##g" \
    -e "s#\"$PWD\"#\".\"#g"
}

# report_run FILE BACKEND LINE STDOUT STDERR: one check run's report as the
# check scripts write it: a heading, "- command: LINE", the run's standard
# output in a text block, its standard error after it when there was any.
report_run() {
  echo "### \`$1\` on $2"
  echo
  printf -- '- command: %s\n' "$3"
  echo
  echo '```text'
  relative < "$4"
  if [ -s "$5" ]; then
    echo "--- standard error"
    relative < "$5"
  fi
  echo '```'
  echo
}

# record FILE TITLE CMD...: append to a results file the command, the
# machine line, the date, the command's standard output in a text block and
# its standard error (notes, warnings) in a second one. Paths under OUTDIR and
# BUILD_DIR are shown relative, as a user would type them.
record() {
  local file=$1 title=$2
  shift 2
  local so se shown
  so=$(mktemp)
  se=$(mktemp)
  local t0 t1
  t0=$(date +%s.%N)
  "$@" > "$so" 2> "$se"
  local rc=$?
  t1=$(date +%s.%N)
  shown=$(printf '%s ' "$@" | relative | sed -e 's/ $//')
  {
    echo "# $title"
    echo
    echo "- date: $date_utc"
    echo "- device and driver (nvidia-smi): $smi"
    echo "- toolkit: $nvcc_v"
    echo "- command: \`$shown\` (exit $rc, wall time $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s)"
    echo
    echo '```text'
    relative < "$so"
    echo '```'
    if [ -s "$se" ]; then
      echo
      echo "standard error:"
      echo
      echo '```text'
      relative < "$se"
      echo '```'
    fi
    echo
  } >> "$file"
  rm -f "$so" "$se"
  return $rc
}


# Configure and build BUILD_DIR with CUDA and OpenCL required, unless it
# already holds gridstride (scripts run one after another share a build).
# A build without libseccomp fails here: check's host worker refuses to load
# a kernel there, and every record of a .gs kernel's work count would say so.
ensure_build() {
  if [ ! -x "$build/gridstride" ]; then
    step "configure and build ($build)"
    run cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DGS_CUDA=ON -DGS_OPENCL=ON || return 1
    run cmake --build "$build" -j "$(nproc)" || { tail -40 "$log"; return 1; }
  fi
  if grep -q '^GS_SECCOMP_LIBRARY:[A-Z]*=.*NOTFOUND' "$build/CMakeCache.txt" 2> /dev/null; then
    echo "$(basename "$0"): $build was configured without libseccomp: check's host worker" \
      "cannot load a kernel there; install libseccomp-dev and configure again" | tee -a "$log" >&2
    return 1
  fi
}
