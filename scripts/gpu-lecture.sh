#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The lecture deck made on an NVIDIA machine: OUTDIR/h200-lecture.html (every
# backend present: CUDA, OpenCL, OpenMP offload where built, and the host),
# one PNG per slide when Chromium is installed there (OUTDIR/h200-lecture-N.png,
# each checked by tests/lecture_browser.py's checks; where it is not, the
# record says the command that makes them on another machine:
#   python3 tests/lecture_browser.py --deck OUTDIR/h200-lecture.html OUTDIR/h200-lecture
# ), and OUTDIR/h200-lecture.md (the command, the device and driver line, the
# date and the wall time).
#
#   scripts/gpu-lecture.sh OUTDIR BUILD_DIR
#
# Builds BUILD_DIR (gpu-lib.sh's ensure_build). Run from the top of the
# checkout: the exercise slide runs `check` on examples/grid_stride.gs.
# Every run is under `timeout`.
set -uo pipefail
usage="usage: scripts/gpu-lecture.sh OUTDIR BUILD_DIR"
out=${1:?$usage}
build=${2:?$usage}
cd "$(dirname "$0")/.."
source "scripts/gpu-lib.sh"

status=0
ensure_build || exit 1
run cmake --build "$build" -j "$(nproc)" || { tail -40 "$log"; exit 1; }
g="$build/gridstride"
f="$out/h200-lecture.md"
html="$out/h200-lecture.html"
rm -f "$f" "$html" "$out"/h200-lecture-*.png

step "the deck"
record "$f" "gridstride lecture on every backend of this machine (h200-lecture.html)" \
  timeout 300 "$g" lecture --html "$html" || status=1

step "one PNG per slide"
chrome=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -n "$chrome" ] && [ -s "$html" ]; then
  record "$f" "The slides at 1920x1080 in headless Chromium (h200-lecture-N.png) and the deck's own layout check (per slide: elements out of place, the smallest text)" \
    timeout 600 python3 tests/lecture_browser.py --deck "$html" "$out/h200-lecture" || status=1
else
  msg="Chromium is not installed on this machine: no PNGs made. On a machine with Debian's chromium, from the top of the checkout: python3 tests/lecture_browser.py --deck $html $out/h200-lecture (one PNG per slide, and the layout check; exit 1 when a slide does not fit)"
  echo "$msg" | relative | tee -a "$log"
  printf '# The slides as PNG\n\n%s\n' "$(echo "$msg" | relative)" >> "$f"
fi
step "done (status $status)"
exit $status
