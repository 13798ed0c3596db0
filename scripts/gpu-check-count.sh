#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check's work count and work-per-block rule on an NVIDIA GPU: the
# block-stride, grid-stride and chunked examples through `gridstride check`
# (.gs through CUDA and OpenCL, where the count is made on the host backend;
# .cu through CUDA and .cl through OpenCL, where only the times can show work
# per block), each with its JSON verdict (--json) and wall clock; five runs of
# the block-stride .cu for how steadily the times rule holds; and
# `check examples/block_stride.gs --svg` (the kernel's own index-tracer
# picture). Writes OUTDIR/h200-check-count.md (commands, nvidia-smi line, date,
# a table of counts, growths and verdicts, and the reports), the JSON files
# under OUTDIR/check-count-json/ and OUTDIR/check-block_stride.svg.
#
#   scripts/gpu-check-count.sh OUTDIR BUILD_DIR
#
# Every command runs under `timeout`. Needs the CUDA toolkit (nvcc, NVRTC;
# /usr/local/cuda/bin is searched), NVIDIA's OpenCL driver, a C compiler (the
# host backend counts a .gs text) and python3 (to read the JSON). Exit 0 when
# every example's verdict is the one its `expect:` line states
# (tests/check_example.cmake, as ctest judges it) and the picture was drawn.
set -uo pipefail
out=${1:?usage: scripts/gpu-check-count.sh OUTDIR BUILD_DIR}
build=${2:?usage: scripts/gpu-check-count.sh OUTDIR BUILD_DIR}
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
. scripts/gpu-lib.sh
md="$out/h200-check-count.md"
jdir="$out/check-count-json"
limit=${GS_CHECK_COUNT_LIMIT:-300} # seconds for any one command
# The backends of each dialect; the defaults are the GPU's. Another choice
# tries the script on a machine without one, e.g.
# CU_BACKENDS= CL_BACKENDS=opencl GS_BACKENDS="opencl" REQUIRE=host,opencl
# RULE_FILE=examples/block_stride.cl RULE_BACKEND=opencl SVG_BACKEND=opencl.
cu_backends=${CU_BACKENDS-cuda}
cl_backends=${CL_BACKENDS-opencl}
gs_backends=${GS_BACKENDS-cuda opencl}
rule_file=${RULE_FILE:-examples/block_stride.cu}
rule_backend=${RULE_BACKEND:-cuda}
svg_backend=${SVG_BACKEND:-cuda}
require=${REQUIRE-cuda,opencl} # demanded by the judge: a missing GPU backend fails, never skips
mkdir -p "$jdir"
g="$build/gridstride"
status=0

ensure_build || exit 1
command -v python3 > /dev/null || { echo "gpu-check-count.sh: needs python3 to read the JSON"; exit 2; }

rows=$(mktemp)
reports=$(mktemp)
ruled=$(mktemp)
trap 'rm -f "$rows" "$reports" "$ruled"' EXIT

seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

# The work and per-block cells of a JSON verdict.
count_cells() {
  python3 - "$1" << 'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception as e:
    print("| (no JSON: %s) | | | | | |" % e)
    sys.exit(0)
b = (d.get("backends") or [{}])[0]
w = b.get("work") or {}
s = b.get("speed") or {}
k = s.get("blocks") or {}
where = "host" if w.get("counted_on_host") else (b.get("backend") if w.get("counted") else "-")
launch = "n = %s <<<%s, %s>>>" % (w.get("n"), w.get("grid"), w.get("block")) if w.get("counted") else "-"
def x(v):
    return "%.2fx" % v if isinstance(v, (int, float)) else "-"
print("| %s | %s | %s | %s | %s | %s / %s | %s |" % (
    d.get("verdict"), w.get("class"), where, launch,
    w.get("max") if w.get("counted") else "-", x(k.get("growth")), x(k.get("loop_growth")),
    ("yes" if k.get("per_block") else "no") if k.get("judged") else "not read"))
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
  timeout "$limit" "$g" check "$f" --backend "$b" --json "$json" > "$so" 2> "$se"
  rc=$?
  t1=$(date +%s.%N)
  if judged=$(GRIDSTRIDE_REQUIRE=$require timeout "$limit" cmake -DGRIDSTRIDE="$g" \
                -DEXAMPLE="$PWD/$f" -DBACKEND="$b" -P tests/check_example.cmake 2>&1); then
    judged="yes"
  else
    judged="NO: $(echo "$judged" | grep -m1 -o "$name on $b: .*" | cut -c1-160)"
    status=1
  fi
  local cells="| (no JSON) | | | | | | |"
  [ -s "$json" ] && cells=$(count_cells "$json")
  printf '| `%s` | %s | %s | %s | %s %s %s |\n' "$f" "$b" "$(sed -n 's/^ \* expect: //p' "$f")" \
    "$rc" "$(seconds "$t0" "$t1")" "$cells" "$(printf '%s' "$judged" | tr '|' '/')" >> "$rows"
  report_run "$f" "$b" "$(printf '`gridstride check %s --backend %s --json %s` (exit %s, wall %s s)' \
    "$f" "$b" "check-count-json/$name.$b.json" "$rc" "$(seconds "$t0" "$t1")")" "$so" "$se" \
    >> "$reports"
  rm -f "$so" "$se"
}

step "the examples: .gs through CUDA and OpenCL (counted on the host), .cu through CUDA, .cl through OpenCL"
for base in block_stride grid_stride chunked; do
  for f in examples/$base.gs examples/$base.cu examples/$base.cl; do
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
done

step "five runs of check $rule_file: the work-per-block rule on the times"
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

{
  echo "# check's work count and work-per-block rule on an NVIDIA GPU"
  echo
  echo "- date: $date_utc"
  echo "- device and driver (nvidia-smi): $smi"
  echo "- toolkit: $nvcc_v"
  echo "- made by: \`scripts/gpu-check-count.sh OUTDIR BUILD_DIR\` (every command under \`timeout $limit\`)"
  echo
  echo "A .gs text is counted on the host backend at the launch the checked backend ran (its device"
  echo "grid G): each thread alone on a poisoned output. Growth: the time on 4G blocks over the time"
  echo "on G at the speed pass's n (a row too slow to repeat with its one launch); by the rule, at"
  echo "least 2x for the kernel while the suite's loop grows at most 1.25x is work per block (the"
  echo "loop steps by the block, not the grid)."
  echo
  echo "| example | backend | expected | exit | wall s | verdict | work | counted on | counted launch | max writers | growth yours / loop | work per block | as expected |"
  echo "|---|---|---|---:|---:|---|---|---|---|---:|---|---|---|"
  cat "$rows"
  echo
  echo "## Five runs of \`gridstride check $rule_file --backend $rule_backend --format json\`"
  echo
  echo "$rule_table"
  echo
  echo "## The picture: check-block_stride.svg"
  echo
  sed -e 's/^# /### /' "$svg_md"
  echo "## Reports"
  echo
  cat "$reports"
} > "$md"
rm -f "$svg_md"

echo "== done (status $status): $md"
exit $status
