#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# contrib/reframe's test library on one NVIDIA machine (an H200), with the
# local scheduler and launcher (--system h200) and the H200 references of
# lib/gs_references.py, recorded in OUTDIR: the ReFrame report (JSON), the
# performance log, ReFrame's output with its performance report, and
# the fleet report of the node's own table and bandwidth files.
#
#   scripts/gpu-reframe.sh OUTDIR [BUILD_DIR]
#
# The machine needs no package index: ReFrame and its requirements are
# installed from the wheels in .whl/ (scripts/gpu-reframe-wheels.sh
# downloads them, for CPython 3.12, on a machine that has the index: 8 MB;
# .whl/ is ignored by git, so carry it) with pip install --no-index
# --no-deps --target, and run with that folder on PYTHONPATH. The bandwidth test runs at
# gridstride's defaults (4 GiB a buffer, 20 repetitions), as the references
# were measured. GS_RFM_SYSTEM (default h200) and GS_RFM_OPTIONS (more
# ReFrame options, split at spaces) are for a dry run elsewhere, e.g.
# GS_RFM_SYSTEM=local GS_RFM_OPTIONS="-S GridstrideBandwidth.bytes=1MiB".
set -uo pipefail
out=${1:?usage: scripts/gpu-reframe.sh OUTDIR [BUILD_DIR]}
build=${2:-build-gpu}
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=scripts/gpu-lib.sh disable=SC2154  # it sets log
source "scripts/gpu-lib.sh"
mkdir -p "$out"
out=$(cd "$out" && pwd)
repo=$PWD
build_abs() { (cd "$build" && pwd); }

ensure_build || exit 1
gridstride=$(build_abs)/gridstride
if ! ls .whl/reframe_hpc-*.whl >/dev/null 2>&1; then
  echo "gpu-reframe: no .whl/reframe_hpc-*.whl; run scripts/gpu-reframe-wheels.sh where the" \
       "package index is reachable, and carry .whl/" >&2
  exit 2
fi
pkgs=$(build_abs)/reframe-pkgs
step "install ReFrame from .whl/ into $pkgs"
rm -rf "$pkgs"
run python3 -m pip install --quiet --disable-pip-version-check --no-index --no-deps \
  --target "$pkgs" .whl/*.whl || { tail -20 "$log"; exit 1; }
export PYTHONPATH=$pkgs${PYTHONPATH:+:$PYTHONPATH}
reframe=("python3" "$pkgs/bin/reframe")
run "${reframe[@]}" --version || { tail -20 "$log"; exit 1; }

work=$(build_abs)/reframe-h200
rm -rf "$work"
mkdir -p "$work"
step "ReFrame: the library on the ${GS_RFM_SYSTEM:-h200} system"
status=0
(cd "$work" && GRIDSTRIDE=$gridstride "${reframe[@]}" \
   -C "$repo/contrib/reframe/config/sites.py" --system "${GS_RFM_SYSTEM:-h200}" ${GS_RFM_OPTIONS:-} \
   -c "$repo/contrib/reframe/checks" \
   --perflogdir "$out/h200-reframe-perflogs" --report-file "$out/h200-reframe-report.json" \
   -r --performance-report) > "$out/h200-reframe.txt" 2>&1 || status=1
grep -E "PASSED|FAILED|Ran " "$out/h200-reframe.txt" | tee -a "$log"

step "the fleet report of this node's files"
mapfile -t node_files < <(find "$work/output" -name '*.table.json' -o -name '*.bandwidth.json' | sort)
"$gridstride" compare --fleet "${node_files[@]}" > "$out/h200-reframe-fleet.txt" 2>&1 || true
tail -3 "$out/h200-reframe-fleet.txt" | tee -a "$log"
exit $status
