#!/bin/sh
# SPDX-License-Identifier: MIT
# contrib/reframe's test library through ReFrame's local scheduler, on the
# host backend and OpenCL, at small sizes (the ctest entry `reframe`):
#
#   reframe_local.sh GRIDSTRIDE SOURCE_DIR WORK_DIR VENV
#
# The virtual environment is made once (contrib/reframe/install.sh) and kept
# in the build folder. Exit 77 (skipped, with the reason) when Python's venv
# or the package index cannot be had.
set -eu
gridstride=$1 src=$2 work=$3 venv=$4
rc=0
"$src/contrib/reframe/install.sh" "$venv" || rc=$?
[ "$rc" -eq 0 ] || exit "$rc"
rm -rf "$work"
mkdir -p "$work"
cd "$work"
GRIDSTRIDE=$gridstride "$venv/bin/reframe" -C "$src/contrib/reframe/config/sites.py" \
  --system local -c "$src/contrib/reframe/checks" \
  -S GridstrideTable.sizes=0,1,611,4097 \
  -S GridstrideBandwidth.bytes=1MiB -S GridstrideBandwidth.reps=5 \
  -S GridstridePitfalls.traps=block-stride,int-loop \
  --report-file "$work/report.json" -r --performance-report
