#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Several GPUs of one host, recorded in OUTDIR/h200x2.md: the table and the
# bandwidth benchmark on every GPU through CUDA and OpenCL (--device all),
# the T4 reference against these GPUs (gridstride compare), and the test
# suite with `ctest -j 4` and a resource spec file, with the test log and
# nvidia-smi samples showing both GPUs used at once.
#
#   scripts/gpu-multi.sh OUTDIR [BUILD_DIR]
#
# Needs NVIDIA's OpenCL driver registered with the ICD loader, as
# scripts/gpu-results.sh does. Configures BUILD_DIR with CUDA and OpenCL
# required and CTEST_RESOURCE_SPEC_FILE set, so that the GPU tests run in
# parallel, one per GPU, instead of one at a time.
set -uo pipefail
out=${1:?usage: scripts/gpu-multi.sh OUTDIR [BUILD_DIR]}
build=${2:-build-gpu-multi}
cd "$(dirname "$0")/.."
source "scripts/gpu-lib.sh"
# Every GPU's line, not only the first.
smi=$(nvidia-smi --query-gpu=index,name,pci.bus_id,driver_version,memory.total \
        --format=csv,noheader 2>&1 | paste -sd ';' | sed 's/;/; /g')
spec=$(realpath -m "$build/gpus.json")
junit=$(realpath -m "$out/h200x2-junit.xml")

status=0
step "configure and build ($build)"
run timeout 300 cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DGS_CUDA=ON -DGS_OPENCL=ON \
  "-DCTEST_RESOURCE_SPEC_FILE=$spec" || status=1
run timeout 600 cmake --build "$build" -j "$(nproc)" || { tail -40 "$log"; exit 1; }

g="$build/gridstride"
f="$out/h200x2.md"
table_json="$out/h200x2-table.json"
bw_json="$out/h200x2-bandwidth.json"
rm -f "$f" "$table_json" "$bw_json"
{
  echo "# Two GPUs of one host"
  echo
  echo "Recorded by \`scripts/gpu-multi.sh $(basename "$out") $build\` on $date_utc."
  echo
  echo "nvidia-smi, one line per GPU (index, name, PCI bus id, driver, memory):"
  echo
  echo '```text'
  nvidia-smi --query-gpu=index,name,pci.bus_id,driver_version,memory.total \
    --format=csv,noheader 2>&1
  echo '```'
  echo
} > "$f"

step "devices and the resource spec"
record "$f" "Devices (each GPU's PCI address names it for CTest)" \
  timeout 120 "$g" --list --backend cuda,opencl || status=1
record "$f" "The CTest resource spec, one slot per GPU" \
  timeout 120 "$g" --list --backend cuda,opencl --format ctest-resources --output "$spec" \
  || status=1
echo '```json' >> "$f"; relative < "$spec" >> "$f"; echo '```' >> "$f"; echo >> "$f"

step "the table on every GPU"
record "$f" "The table on every device of CUDA and OpenCL, side by side" \
  timeout 600 "$g" --backend cuda,opencl --device all || status=1
run timeout 600 "$g" --backend cuda,opencl --device all --format json --output "$table_json" \
  || status=1
record "$f" "The course's T4 (reconstructed reference) against these GPUs" \
  timeout 60 "$g" compare docs/reference/t4-seed002.json "$table_json"
# compare exits 1 when rows differ, as they must between a T4 and an H200.

step "bandwidth on every GPU"
# 256 MiB per buffer and 5 repetitions: the point here is the same numbers on
# every GPU of the host, in a quarter of the default run's time.
record "$f" "Bandwidth on every device of CUDA and OpenCL (256 MiB buffers, 5 repetitions)" \
  timeout 600 "$g" bandwidth --quiet --backend cuda,opencl --device all --bytes 256MiB \
  --reps 5 --json "$bw_json" || status=1
record "$f" "Bandwidth: every run against the first" \
  timeout 60 "$g" compare "$bw_json"

step "ctest -j 4 with the resource spec"
# nvidia-smi every half second while the tests run: which GPUs hold a
# process at the same moment.
samples="$out/h200x2-smi-samples.txt"
: > "$samples"
( while :; do
    t=$(date +%H:%M:%S.%N | cut -c1-12)
    nvidia-smi --query-compute-apps=pid,gpu_bus_id --format=csv,noheader 2>/dev/null \
      | sed "s/^/$t, /" >> "$samples"
    sleep 0.5
  done ) &
sampler=$!
record "$f" "The test suite on both GPUs at once (GPU tests hold one GPU each)" \
  env GRIDSTRIDE_REQUIRE=cuda,opencl timeout 600 ctest --test-dir "$build" -j 4 \
  --resource-spec-file "$spec" --output-junit "$junit" -V || status=1
kill "$sampler" 2>/dev/null
wait "$sampler" 2>/dev/null

# From the test log: each GPU test's device, PCI address, start and finish.
log_lines=$(sed -n '/^# The test suite on both GPUs/,$p' "$f" |
  grep -E '^[0-9]+: (conformance|bench): (cuda|opencl) .* (started|finished) ')
{
  echo "## Which GPU each GPU test held, and when (from the log above)"
  echo
  echo '```text'
  echo "$log_lines" | awk '
    / started / { split($0, a, "PCI "); split(a[2], b, " "); pci[$1] = b[1]; start[$1] = $NF;
                  name[$1] = $2 " " $3 }
    / finished / { stop[$1] = $NF }
    END { for (k in start) printf "%-5s %-20s %-14s %s .. %s\n", k, name[k], pci[k], start[k], stop[k] }' |
    sort -k5
  echo '```'
  echo
  overlap=$(echo "$log_lines" | awk '
    function secs(t, p) { split(t, p, ":"); return p[1] * 3600 + p[2] * 60 + p[3] }
    / started / { split($0, a, "PCI "); split(a[2], b, " "); pci[$1] = b[1]; s[$1] = secs($NF) }
    / finished / { e[$1] = secs($NF) }
    END { n = 0; for (i in s) for (j in s) if (i < j && pci[i] != pci[j] && pci[i] != "unknown" &&
                                      pci[j] != "unknown" && s[i] < e[j] && s[j] < e[i]) n++;
          print n }')
  echo "- pairs of GPU tests that ran at the same time on different GPUs: $overlap"
  busy=$(awk -F', ' '{ seen[$1] = seen[$1] " " $3 }
                     END { n = 0; for (t in seen) { split(seen[t], b, " "); delete u; m = 0;
                           for (i in b) if (!(b[i] in u)) { u[b[i]] = 1; m++ } if (m >= 2) n++ } print n }' \
         "$samples")
  echo "- nvidia-smi samples (every 0.5 s) with processes on two or more GPUs at once: $busy of $(cut -d, -f1 "$samples" | sort -u | wc -l) (raw samples: $(basename "$samples"))"
  echo
} >> "$f"

step "done (status $status)"
exit $status
