#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check's speed pass on an NVIDIA GPU (core/run/gs_speed.h): every example of
# examples/ through `gridstride check` (.cu through CUDA, .cl through NVIDIA's
# OpenCL, .gs through both), each with the text report and the JSON verdict
# (--json) of the same run and its whole wall clock; then five runs of
# `check examples/grid_stride.cu` for the run-to-run spread of the reported
# GB/s. Writes OUTDIR/h200-check-speed.md (commands, nvidia-smi line, date,
# a table of each run's timings beside the suite's, the verdicts and the
# reports) and the JSON files under OUTDIR/check-speed-json/. For every .cu
# run it also tabulates the hardware counters that CUPTI read in check's
# counters worker (core/run/gs_counters.h: load and store requests and
# sectors of the user's kernel beside the suite's loop, and the counters'
# verdict), and times grid_stride.cu, chunked.cu and block_stride.cu once
# more with --no-counters for the wall clock without the counters pass, and
# chunked.cu with --ncu (Nsight Compute, where installed) beside CUPTI.
# NCU=PATH passes --ncu PATH to every run instead. The grid-stride examples
# also run as a student types them (no --backend), PLAIN_RUNS times each
# (default 3). Before any timed run, one
# untimed check through each GPU API fills the drivers' compile caches (the
# first OpenCL process on a machine compiles for seconds).
# From the same JSON, each run's work count (a .gs text counted on the host
# backend) and the work-per-block rule on the times; five runs of
# block_stride.cu for how steadily that rule holds; and `check
# examples/block_stride.gs --svg`, the kernel's own index-tracer picture
# (OUTDIR/check-block_stride.svg).
#
#   scripts/gpu-check-speed.sh OUTDIR BUILD_DIR
#
# Every command runs under `timeout`. Needs the CUDA toolkit (nvcc, NVRTC;
# /usr/local/cuda/bin is searched), NVIDIA's OpenCL driver and python3 (to
# read the JSON). Exit 0 when every example's verdict is the one its
# `expect:` line states (tests/check_example.cmake, as ctest judges it).
set -uo pipefail
out=${1:?usage: scripts/gpu-check-speed.sh OUTDIR BUILD_DIR}
build=${2:?usage: scripts/gpu-check-speed.sh OUTDIR BUILD_DIR}
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
. scripts/gpu-lib.sh
md="$out/h200-check-speed.md"
jdir="$out/check-speed-json"
limit=${GS_CHECK_SPEED_LIMIT:-120} # seconds for any one command
# The backends of each dialect, and the runs of the spread; the defaults are
# the GPU's. Another choice tries the script on a machine without one, e.g.
# CU_BACKENDS= CL_BACKENDS=opencl GS_BACKENDS="host opencl" REQUIRE=host,opencl
# SPREAD_FILE=examples/grid_stride.cl SPREAD_BACKEND=opencl RULE_FILE=examples/block_stride.cl
# RULE_BACKEND=opencl SVG_BACKEND=opencl.
cu_backends=${CU_BACKENDS-cuda}
cl_backends=${CL_BACKENDS-opencl}
gs_backends=${GS_BACKENDS-cuda opencl}
spread_file=${SPREAD_FILE:-examples/grid_stride.cu}
spread_backend=${SPREAD_BACKEND:-cuda}
rule_file=${RULE_FILE:-examples/block_stride.cu}
rule_backend=${RULE_BACKEND:-cuda}
svg_backend=${SVG_BACKEND:-cuda}
ncu=${NCU-} # empty: CUPTI reads the counters; a path: Nsight Compute at that path does
ncu_args=()
[ -n "$ncu" ] && ncu_args=(--ncu "$ncu")
require=${REQUIRE-cuda,opencl} # demanded by the judge: a missing GPU backend fails, never skips
# The .cu examples' counters= expectation demands the counters read (ncu found and
# allowed to read them); REQUIRE_COUNTERS=0 accepts a stated reason instead.
require_counters=${REQUIRE_COUNTERS-1}
# JUDGE=0 leaves out the second run of each example that tests/check_example.cmake
# makes to judge its verdict against its expect: line (ctest's check_* tests judge
# the same examples; scripts/gpu-ctest.sh records them), halving the script's time.
judge=${JUDGE-1}
mkdir -p "$jdir"
g="$build/gridstride"
status=0

ensure_build || exit 1
command -v python3 > /dev/null || { echo "gpu-check-speed.sh: needs python3 to read the JSON"; exit 2; }

rows=$(mktemp)
reports=$(mktemp)
spread=$(mktemp)
ctr_rows=$(mktemp)
walls=$(mktemp)
trap 'rm -f "$rows" "$reports" "$spread" "$ctr_rows" "$walls"' EXIT
ncu_found=${ncu:-$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2> /dev/null | tail -1)}
ncu_v="none found"
[ -n "$ncu_found" ] && ncu_v="$ncu_found: $(timeout 60 "$ncu_found" --version 2>&1 | grep -m1 Version)"

seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

# The speed block of a JSON verdict as one table row's cells.
speed_cells() {
  python3 - "$1" << 'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception as e:
    print("| (no JSON: %s) | | | | | | | | |" % e)
    sys.exit(0)
b = (d.get("backends") or [{}])[0]
s = b.get("speed") or {}
G = b.get("G")
def row(kernel, grid):
    for r in s.get("rows", []):
        if r["kernel"] == kernel and (grid is None or r["grid"] == grid):
            return r
    return None
def gb(r):
    if not r:
        return "-"
    if r.get("gbps") is None:
        return r["state"]
    return "%.0f (±%.1f%%)" % (r["gbps"], r["spread_pct"])
user_g, loop_g = row("user", G), row("suite-grid-stride", G)
others = [r for r in s.get("rows", []) if r["grid"] != G and r["kernel"] != "copy"]
ng = others[0]["grid"] if others else None
ratio = s.get("ratio")
print("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
    d.get("verdict"), s.get("class"), gb(user_g), gb(loop_g),
    "%.1f%%" % (100 * ratio) if ratio else "-",
    gb(row("user", ng)), gb(row("suite-grid-stride", ng)), gb(row("suite-monolithic", ng)),
    gb(row("copy", None))))
PY
}

# The counters block of a .cu run's JSON verdict as one table row's cells.
counter_cells() {
  python3 - "$1" << 'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception as e:
    print("| (no JSON: %s) | | | | | | | |" % e)
    sys.exit(0)
c = (d.get("backends") or [{}])[0].get("counters") or {}
if not c.get("read"):
    print("| not read | | | | | | | %s |" % (c.get("why") or "(no counters block)").replace("|", "/"))
    sys.exit(0)
u, s = c["user"], c["suite"]
print("| %s | %d / %d | %d / %d | %.2f (loop %.2f) | %.1f (loop %.1f) | %.1f (loop %.1f) | %s | %s |" % (
    c["source"], u["load_requests"], u["load_sectors"], u["store_requests"], u["store_sectors"],
    c["stores_per_element"], c["suite_stores_per_element"],
    c["load_sectors_per_request"], c["suite_load_sectors_per_request"],
    c["store_sectors_per_request"], c["suite_store_sectors_per_request"],
    c["class"], c["words"].replace("|", "/")))
PY
}

# check FILE BACKEND: one run with the text report and the JSON verdict.
check() {
  local f=$1 b=$2 name so se rc t0 t1 judged json
  name=$(basename "$f")
  json="$jdir/$name.$b.json"
  so=$(mktemp)
  se=$(mktemp)
  t0=$(date +%s.%N)
  # The example's own check-args: line, as ctest passes it (tests/check_example.cmake).
  local args
  args=$(sed -n 's/^ \* check-args: //p' "$f")
  # shellcheck disable=SC2086 # the line's words, split as ctest splits them
  timeout "$limit" "$g" check "$f" --backend "$b" $args --json "$json" "${ncu_args[@]}" > "$so" 2> "$se"
  rc=$?
  t1=$(date +%s.%N)
  if [ "$judge" = 0 ]; then
    judged="(ctest's check_${b}_* test)"
  elif judged=$(GRIDSTRIDE_REQUIRE=$require GRIDSTRIDE_REQUIRE_COUNTERS=$require_counters timeout "$limit" cmake -DGRIDSTRIDE="$g" \
                -DEXAMPLE="$PWD/$f" -DBACKEND="$b" -P tests/check_example.cmake 2>&1); then
    judged="yes"
  else
    judged="NO: $(echo "$judged" | grep -m1 -o "$name on $b: .*" | cut -c1-160)"
    status=1
  fi
  local cells="| (no JSON) | | | | | | | | |"
  [ -s "$json" ] && cells=$(speed_cells "$json")
  printf '| `%s` | %s | %s | %s | %s %s %s |\n' "$f" "$b" "$(sed -n 's/^ \* expect: //p' "$f")" \
    "$rc" "$(seconds "$t0" "$t1")" "$cells" "$(printf '%s' "$judged" | tr '|' '/')" >> "$rows"
  if [ "$b" = cuda ] && [ "${f##*.}" = cu ]; then
    local ccells="| (no JSON) | | | | | | | |"
    [ -s "$json" ] && ccells=$(counter_cells "$json")
    printf '| `%s` | %s %s\n' "$f" "$(seconds "$t0" "$t1")" "$ccells" >> "$ctr_rows"
  fi
  report_run "$f" "$b" "$(printf '`gridstride check %s --backend %s%s --json %s%s` (exit %s, wall %s s)' \
    "$f" "$b" "${args:+ $args}" "check-speed-json/$name.$b.json" "${ncu:+ --ncu $ncu}" "$rc" \
    "$(seconds "$t0" "$t1")")" "$so" "$se" >> "$reports"
  rm -f "$so" "$se"
}

step "warm-up, untimed: one check through each GPU API (the drivers' compile caches)"
for f in examples/grid_stride.cu examples/grid_stride.cl; do
  case "$f" in *.cu) bs=$cu_backends ;; *.cl) bs=$cl_backends ;; esac
  for b in $bs; do
    timeout "$limit" "$g" check "$f" --backend "$b" --no-speed > /dev/null 2>> "$log"
  done
done

step "every example: .cu through CUDA, .cl through OpenCL, .gs through both"
for f in examples/*.cu examples/*.cl examples/*.gs; do
  case "$f" in
    *.cu) bs=$cu_backends ;;
    *.cl) bs=$cl_backends ;;
    *.gs) bs=$gs_backends ;;
  esac
  for b in $bs; do
    echo "   $f on $b"
    check "$f" "$b"
  done
done

if [ -n "$cu_backends" ]; then
  step "grid_stride.cu, chunked.cu, block_stride.cu with --no-counters: the wall clock without the counters"
  for f in examples/grid_stride.cu examples/chunked.cu examples/block_stride.cu; do
    t0=$(date +%s.%N)
    timeout "$limit" "$g" check "$f" --backend cuda --no-counters > /dev/null 2>> "$log"
    rc=$?
    t1=$(date +%s.%N)
    printf '| `gridstride check %s --backend cuda --no-counters` | %s | %s | |\n' "$f" "$rc" \
      "$(seconds "$t0" "$t1")" >> "$walls"
  done
  if [ -z "$ncu" ] && [ -n "$ncu_found" ]; then
    step "chunked.cu with --ncu: Nsight Compute beside CUPTI"
    json="$jdir/ncu.chunked.cu.cuda.json"
    t0=$(date +%s.%N)
    timeout "$limit" "$g" check examples/chunked.cu --backend cuda --ncu "$ncu_found" \
      --json "$json" > /dev/null 2>> "$log"
    rc=$?
    t1=$(date +%s.%N)
    extra=$(python3 -c 'import json,sys; b=json.load(open(sys.argv[1]))["backends"][0]; print("%s: %s, counters %.2f s" % (b["counters"].get("source"), b["counters"].get("class"), b["elapsed_s"]["counters"]))' "$json" 2> /dev/null)
    printf '| `gridstride check examples/chunked.cu --backend cuda --ncu %s` | %s | %s | %s |\n' \
      "$ncu_found" "$rc" "$(seconds "$t0" "$t1")" "$extra" >> "$walls"
  fi
fi

plain=$(mktemp)
step "check FILE as a student types it (no --backend): the grid-stride examples, ${PLAIN_RUNS:-3} runs each"
for f in ${PLAIN_FILES-examples/grid_stride.cu examples/grid_stride.cl examples/grid_stride.gs}; do
  for k in $(seq "${PLAIN_RUNS:-3}"); do
    json="$jdir/plain.$(basename "$f").$k.json"
    t0=$(date +%s.%N)
    timeout "$limit" "$g" check "$f" --json "$json" "${ncu_args[@]}" > /dev/null 2>> "$log"
    rc=$?
    t1=$(date +%s.%N)
    printf '`gridstride check %s` %s %s %s\n' "$f" "$rc" "$(seconds "$t0" "$t1")" "$json" >> "$plain"
  done
done
plain_table=$(python3 - "$plain" << 'PY'
import json, sys
print("| command | exit | wall s | backends, each: build / cases / count / speed / counters, s |")
print("|---|---:|---:|---|")
for line in open(sys.argv[1]):
    cmd, rc, wall, path = line.rsplit(" ", 3)
    try:
        d = json.load(open(path.strip()))
        parts = []
        for b in d["backends"]:
            e = b["elapsed_s"]
            parts.append("%s: %.2f / %.2f / %.2f / %.2f / %.2f" % (
                b["backend"], e["build"], e["cases"], e["count"], e["speed"], e["counters"]))
        print("| %s | %s | %s | %s |" % (cmd, rc, wall, "; ".join(parts)))
    except Exception as ex:
        print("| %s | %s | %s | (no JSON: %s) |" % (cmd, rc, wall, ex))
PY
)
rm -f "$plain"

step "five runs of check $rule_file: the work-per-block rule on the times"
ruled=$(mktemp)
for i in 1 2 3 4 5; do
  json="$jdir/rule.run$i.json"
  t0=$(date +%s.%N)
  timeout "$limit" "$g" check "$rule_file" --backend "$rule_backend" --format json \
    --output "$json" 2>> "$log"
  rc=$?
  t1=$(date +%s.%N)
  printf '%s %s %s\n' "$i" "$rc" "$(seconds "$t0" "$t1")" >> "$ruled"
done
rule_table=$(python3 - "$jdir" "$ruled" << 'PY'
import json, sys
jdir, runs = sys.argv[1], sys.argv[2]
print("| run | exit | wall s | yours on 4G / G | suite's loop on 4G / G | work per block |")
print("|---:|---:|---:|---:|---:|---|")
for line in open(runs):
    i, rc, wall = line.split()
    try:
        k = json.load(open("%s/rule.run%s.json" % (jdir, i)))["backends"][0]["speed"]["blocks"]
        print("| %s | %s | %s | %s | %s | %s |" % (
            i, rc, wall, "%.2fx" % k["growth"] if k["judged"] else "-",
            "%.2fx" % k["loop_growth"] if k["judged"] else "-",
            ("yes" if k["per_block"] else "no") if k["judged"] else "not read: " + k["words"]))
    except Exception as e:
        print("| %s | %s | %s | (%s) | | |" % (i, rc, wall, e))
PY
)
rm -f "$ruled"

step "check examples/block_stride.gs --backend $svg_backend --svg: the kernel's own picture"
svg="$out/check-block_stride.svg"
rm -f "$svg"
svg_md=$(mktemp)
record "$svg_md" "check examples/block_stride.gs --svg" \
  timeout "$limit" "$g" check examples/block_stride.gs --backend "$svg_backend" --svg "$svg"
svg_rc=$?
if [ "$svg_rc" -ne 0 ] || ! grep -q '</svg>' "$svg" 2> /dev/null ||
   ! grep -q 'counted on the host backend' "$svg"; then
  echo "   the picture was not drawn (exit $svg_rc)"
  status=1
fi

step "five runs of check $spread_file: the spread of the reported GB/s"
for i in 1 2 3 4 5; do
  json="$jdir/spread.run$i.json"
  t0=$(date +%s.%N)
  timeout "$limit" "$g" check "$spread_file" --backend "$spread_backend" --format json \
    --output "$json" 2>> "$log"
  rc=$?
  t1=$(date +%s.%N)
  printf '%s %s %s\n' "$i" "$rc" "$(seconds "$t0" "$t1")" >> "$spread"
done
spread_table=$(python3 - "$jdir" "$spread" << 'PY'
import json, sys
jdir, runs = sys.argv[1], sys.argv[2]
users, loops = [], []
print("| run | exit | wall s | your kernel on G, GB/s | suite's loop on G, GB/s | ratio |")
print("|---:|---:|---:|---:|---:|---:|")
for line in open(runs):
    i, rc, wall = line.split()
    try:
        d = json.load(open("%s/spread.run%s.json" % (jdir, i)))
        b = d["backends"][0]; s = b["speed"]; G = b["G"]
        u = [r for r in s["rows"] if r["kernel"] == "user" and r["grid"] == G][0]["gbps"]
        l = [r for r in s["rows"] if r["kernel"] == "suite-grid-stride" and r["grid"] == G][0]["gbps"]
        users.append(u); loops.append(l)
        print("| %s | %s | %s | %.1f | %.1f | %.2f%% |" % (i, rc, wall, u, l, 100 * u / l))
    except Exception as e:
        print("| %s | %s | %s | (%s) | | |" % (i, rc, wall, e))
if users:
    m = sum(users) / len(users)
    print()
    print("Spread of the kernel's GB/s over %d runs: (max - min) / mean = %.2f%% (mean %.1f GB/s; target: at most 1%%)."
          % (len(users), 100 * (max(users) - min(users)) / m, m))
PY
)

{
  echo "# check's speed pass on an NVIDIA GPU"
  echo
  echo "- date: $date_utc"
  echo "- device and driver (nvidia-smi): $smi"
  echo "- toolkit: $nvcc_v"
  echo "- made by: \`scripts/gpu-check-speed.sh OUTDIR BUILD_DIR\` (every command under \`timeout $limit\`)"
  echo
  echo "Each run: the text report and, from the same run, the JSON verdict (\`--json\`, under"
  echo "check-speed-json/). GB/s: the device timer's median of 20 launches after 3 warm-up, each on"
  echo "a poisoned output, (max - min) / median in brackets; G is the device grid, n-grid the grid"
  echo "sized to n. Targets (issue 21): a grid-stride kernel within 2% of the suite's loop, the whole"
  echo "check at most 3 s. Before the first timed run, one untimed \`check --no-speed\` through each"
  echo "GPU API filled the drivers' compile caches, as any earlier run on the machine would have."
  echo
  echo "| example | backend | expected | exit | wall s | verdict | speed | yours on G | suite's loop on G | ratio | yours on n-grid | loop on n-grid | monolithic | API copy | as expected |"
  echo "|---|---|---|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---|"
  cat "$rows"
  echo
  echo "## Where the time went"
  echo
  echo "Each run's wall time by phase, from its JSON (\`elapsed_s\`, measured by the process that"
  echo "gives the verdict): from the worker's go to its build's answer (a GPU API's worker starts,"
  echo "and builds the file, while the parent opens its own APIs: this is what is left of it), the"
  echo "cases, the wait for the count of writes beyond them (a .gs text on CUDA or OpenCL is counted"
  echo "on the host backend beside the build and the cases), the speed pass (the worker's end not"
  echo "waited for in the last turn: reaped when the command ends), and what the counters pass"
  echo "adds beyond them (its worker starts with the command, and the speed pass waits until it is"
  echo "ready, so that nothing of it runs beside a timed launch). The rest of the wall time is the"
  echo "process's own start, its APIs' (CUDA's opened beside the others'), and the report."
  echo
  echo "| example | backend | wall s | build | cases | count | speed | counters |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|"
  python3 - "$jdir" "$rows" << 'PY'
import json, re, sys
jdir = sys.argv[1]
for line in open(sys.argv[2]):
    m = re.match(r"\| `([^`]*)` \| (\w+) \| [^|]* \| [^|]* \| ([0-9.]+) ", line)
    if not m:
        continue
    f, b, wall = m.groups()
    try:
        e = json.load(open("%s/%s.%s.json" % (jdir, f.split("/")[-1], b)))["backends"][0]["elapsed_s"]
        print("| `%s` | %s | %s | %.2f | %.2f | %.2f | %.2f | %.2f |" % (
            f, b, wall, e["build"], e["cases"], e["count"], e["speed"], e["counters"]))
    except Exception:
        pass
PY
  echo
  echo "## The work and work per block"
  echo
  echo "From the same runs' JSON. A .gs text is counted on the host backend at the launch the"
  echo "checked backend ran (its device grid G): each thread alone on a poisoned output. Growth:"
  echo "the time on 4G blocks over the time on G at the speed pass's n (a row too slow to repeat"
  echo "with its one launch); by the rule, at least 2x for the kernel while the suite's loop grows"
  echo "at most 1.25x is work per block (the loop steps by the block, not the grid)."
  echo
  echo "| example | backend | work | counted on | counted launch | max writers | growth yours / loop | work per block |"
  echo "|---|---|---|---|---|---:|---|---|"
  python3 - "$jdir" "$rows" << 'PY'
import json, re, sys
jdir = sys.argv[1]
def x(v):
    return "%.2fx" % v if isinstance(v, (int, float)) else "-"
for line in open(sys.argv[2]):
    m = re.match(r"\| `([^`]*)` \| (\w+) \|", line)
    if not m:
        continue
    f, b = m.groups()
    try:
        d = json.load(open("%s/%s.%s.json" % (jdir, f.split("/")[-1], b)))["backends"][0]
    except Exception:
        continue
    w, k = d.get("work") or {}, (d.get("speed") or {}).get("blocks") or {}
    where = "host" if w.get("counted_on_host") else (d.get("backend") if w.get("counted") else "-")
    launch = ("n = %s <<<%s, %s>>>" % (w.get("n"), w.get("grid"), w.get("block"))
              if w.get("counted") else "-")
    print("| `%s` | %s | %s | %s | %s | %s | %s / %s | %s |" % (
        f, b, w.get("class"), where, launch, w.get("max") if w.get("counted") else "-",
        x(k.get("growth")), x(k.get("loop_growth")),
        ("yes" if k.get("per_block") else "no") if k.get("judged") else "not read"))
PY
  echo
  echo "## \`check FILE\` as a student types it"
  echo
  echo "Each command ${PLAIN_RUNS:-3} times in a row. Without \`--backend\`: a .cu file on CUDA alone, a .cl file on OpenCL alone (check opens only"
  echo "the backends that build the file), a .gs file on every backend: their builds, cases and"
  echo "counts side by side, their timed sections one at a time (host, OpenCL, CUDA)."
  echo
  echo "$plain_table"
  echo
  echo "## Hardware counters of the .cu examples"
  echo
  echo "- read by: ${ncu:-CUPTI's range profiler in check's counters worker (the source column)}"
  echo "- ncu, for the comparison below: $ncu_v"
  echo
  echo "From the same runs' JSON (\`counters\`): the user's kernel once on grid G at n = 2^24 floats"
  echo "and the suite's grid-stride loop on the same launch (docs/check.md). Requests /"
  echo "sectors are global loads and stores; the minimum for floats is n/32 store requests (2n/32"
  echo "loads) and 4 sectors per request; stores per element = store requests / (n/32)."
  echo
  echo "| example | wall s | source | loads: requests / sectors | stores: requests / sectors | stores per element | load sectors per request | store sectors per request | class | counters' verdict |"
  echo "|---|---:|---|---:|---:|---:|---:|---:|---|---|"
  cat "$ctr_rows"
  echo
  echo "The same three examples without the counters pass, for the wall clock without them, and"
  echo "chunked.cu with its counters read by Nsight Compute instead of CUPTI (\`elapsed_s.counters\`:"
  echo "what the pass adds beyond the others):"
  echo
  echo "| command | exit | wall s | counters |"
  echo "|---|---:|---:|---|"
  cat "$walls"
  echo
  echo "## Five runs of \`gridstride check $rule_file --backend $rule_backend --format json\`"
  echo
  echo "$rule_table"
  echo
  echo "## The picture: check-block_stride.svg"
  echo
  sed -e 's/^# /### /' "$svg_md"
  echo "## Five runs of \`gridstride check $spread_file --backend $spread_backend --format json\`"
  echo
  echo "$spread_table"
  echo
  echo "## Reports"
  echo
  cat "$reports"
} > "$md"
rm -f "$svg_md"

echo "== done (status $status): $md"
exit $status
