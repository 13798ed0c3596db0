#!/bin/sh
# SPDX-License-Identifier: MIT
# contrib/reframe's test library through ReFrame's local scheduler, on the
# host backend and OpenCL, at small sizes (the ctest entry `reframe`): one
# test of each class (the table, bandwidth on the host, check of an example
# that holds on both backends and of one that is wrong, the pitfalls on
# OpenCL: the tile loop, launched and verified, and the int loop, skipped
# for memory with the reason where it does not fit; the block stride's
# 4194304 elements written G times add seconds and nothing the sanity reads),
# which proves the library loads, runs and judges through ReFrame.
# Every test of the library runs in CI's one-node Slurm step
# (scripts/slurm-local.sh) and on the GPU machine (scripts/gpu-reframe.sh).
#
#   reframe_local.sh GRIDSTRIDE SOURCE_DIR WORK_DIR VENV
#
# The virtual environment is made once (contrib/reframe/install.sh), by
# scripts/quickstart.sh or else here, and kept in the build folder. Exit 77 (skipped, with the reason) when Python's venv
# or the package index cannot be had.
set -eu
gridstride=$1 src=$2 work=$3 venv=$4
rc=0
PYTHON=${GS_PYTHON:-python3} "$src/contrib/reframe/install.sh" "$venv" || rc=$?
[ "$rc" -eq 0 ] || exit "$rc"
rm -rf "$work"
mkdir -p "$work"
cd "$work"
GRIDSTRIDE=$gridstride "$venv/bin/reframe" -C "$src/contrib/reframe/config/sites.py" \
  --system local -c "$src/contrib/reframe/checks" \
  -S GridstrideTable.sizes=0,1,611,4097 \
  -S GridstrideBandwidth.bytes=256KiB -S GridstrideBandwidth.reps=5 \
  -S GridstridePitfalls.traps=tile-loop,int-loop \
  -n GridstrideTable -n 'GridstrideBandwidth%backend=host' \
  -n 'GridstrideCheck%case=grid_stride.gs' -n 'GridstrideCheck%case=past_end.cl' \
  -n 'GridstridePitfalls%backend=opencl' \
  --report-file "$work/report.json" -r --performance-report
