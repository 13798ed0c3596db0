#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Regenerate docs/results/ on an NVIDIA machine: configure with CUDA and
# OpenCL required, build, then the tables, the bandwidth benchmark (4 GiB,
# 1 GiB and double), its sweep and its per-SM spread, the whole test suite
# with both backends demanded (scripts/gpu-ctest.sh) and the CUDA
# conformance test under compute-sanitizer. Every results file records its
# commands, the device and driver line and the date, and is written as soon
# as its command ends, so a run stopped early keeps what it finished.
#
#   scripts/gpu-results.sh OUTDIR [BUILD_DIR]
#
# GS_RESULTS_STEPS picks steps, comma-separated, in this order: tables,
# bandwidth, sweep, spread, ctest, conformance-sanitizer (default: all of
# them). scripts/gpu-sanitizer.sh is the full compute-sanitizer record.
#
# The NVIDIA OpenCL driver must be registered with the ICD loader (a
# nvidia.icd file in /etc/OpenCL/vendors, or OCL_ICD_VENDORS pointing at a
# folder with one); `gridstride --list` says so when it is not.
set -uo pipefail
out=${1:?usage: scripts/gpu-results.sh OUTDIR [BUILD_DIR]}
build=${2:-build-gpu}
cd "$(dirname "$0")/.."
source "scripts/gpu-lib.sh"

status=0
step "configure and build ($build)"
run timeout 300 cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DGS_CUDA=ON -DGS_OPENCL=ON || status=1
run timeout 600 cmake --build "$build" -j "$(nproc)" || { tail -40 "$log"; exit 1; }

g="$build/gridstride"
side="$out/h200-side-by-side.md"; cuda="$out/h200-cuda.md"; ocl="$out/h200-opencl.md"
bw="$out/h200-bandwidth.md"; sweep="$out/h200-bandwidth-sweep.md"
spread="$out/h200-bandwidth-spread.md"
steps=${GS_RESULTS_STEPS:-all}
want() { [ "$steps" = all ] || [[ ",$steps," == *",$1,"* ]]; }
for s in tables bandwidth sweep spread ctest conformance-sanitizer; do
  want "$s" && echo "- step: $s"
done

if want tables; then
rm -f "$side" "$cuda" "$ocl"
step "tables"
record "$side" "host, CUDA and OpenCL side by side" timeout 300 "$g" || status=1
record "$cuda" "CUDA: the table on the device grid" timeout 300 "$g" --backend cuda || status=1
record "$cuda" "CUDA: a T4's grid (160 blocks) on this device" timeout 300 "$g" --backend cuda --grid 160 || status=1
record "$cuda" "CUDA devices" timeout 300 "$g" --list --backend cuda || status=1
record "$ocl" "OpenCL: the table on the device grid" timeout 300 "$g" --backend opencl || status=1
record "$ocl" "OpenCL: a T4's grid (160 blocks) on this device" timeout 300 "$g" --backend opencl --grid 160 || status=1
record "$ocl" "OpenCL platforms and devices" timeout 300 "$g" --list --backend opencl || status=1
# The same listing with only the system's ICD registrations (no NVIDIA entry
# in containers): the program must say what is wrong and how to fix it.
record "$ocl" "OpenCL with the NVIDIA ICD unregistered" \
  timeout 120 env -u OCL_ICD_FILENAMES OCL_ICD_VENDORS=/etc/OpenCL/vendors "$g" --list --backend opencl

fi

if want bandwidth; then
rm -f "$bw"
step "bandwidth"
start=$(date +%s)
record "$bw" "Bandwidth: CUDA and OpenCL side by side" \
  timeout 300 "$g" bandwidth --quiet --svg "$out/h200-bandwidth.svg" --json "$out/h200-bandwidth.json" || status=1
echo "- wall time of the bandwidth run: $(( $(date +%s) - start )) s" >> "$bw"
# The same rows on 1 GiB buffers (n = 2^28 floats), the size the course's
# comparisons use; the default is 4 GiB (cli/gs_cmd_bandwidth.c says why).
record "$bw" "Bandwidth on 1 GiB buffers (n = 2^28)" \
  timeout 300 "$g" bandwidth --quiet --bytes 1GiB || status=1
record "$bw" "Bandwidth in double (--type double)" \
  timeout 300 "$g" bandwidth --quiet --type double --json "$out/h200-bandwidth-double.json" || status=1
fi

if want sweep; then
rm -f "$sweep"
step "bandwidth sweep"
record "$sweep" "Bandwidth sweep: the cost of the grid-stride loop at small n, CUDA and OpenCL" \
  timeout 300 "$g" bandwidth --sweep --quiet --svg "$out/h200-bandwidth-sweep.svg" \
  --json "$out/h200-bandwidth-sweep.json" || status=1
fi

if want spread; then
rm -f "$spread"
step "bandwidth --spread"
record "$spread" "Per-SM finish times: one wave and 16 waves of the float4 grid-stride add" \
  timeout 300 "$g" bandwidth --spread --backend cuda,opencl --quiet --svg "$out/h200-bandwidth-spread.svg" \
  --json "$out/h200-bandwidth-spread.json" || status=1
fi

if want ctest; then
scripts/gpu-ctest.sh "$out" "$build" || status=1
fi

if want conformance-sanitizer; then
csan="$out/h200-conformance-sanitizer.md"
rm -f "$csan"
step "compute-sanitizer on the CUDA conformance test"
# The suite refuses launches on purpose (a zero-block grid, a block above
# the limit); those are API errors by design, so API error reports are off.
# Memory and initialization errors in kernels are what is checked.
for tool in memcheck initcheck; do
  record "$csan" "compute-sanitizer --tool $tool on the CUDA conformance test" \
    timeout 200 compute-sanitizer --tool $tool --report-api-errors no --error-exitcode 3 \
    "$build/tests/test_conformance" cuda || status=1
done
fi

step "done (status $status)"
exit $status
