#!/bin/sh
# SPDX-License-Identifier: MIT
# Benchmark of `gridstride compare` at scale (not a test): two table files
# of CASES cases each (default 100000: 25000 sizes x columns A-D, on two
# devices), compared, timed; the result goes to docs/results/compare-scale.md
# by hand, with this command and the machine line it prints.
#
#   scripts/bench-compare.sh GRIDSTRIDE [CASES]
set -eu
GS=${1:?usage: scripts/bench-compare.sh GRIDSTRIDE [CASES]}
CASES=${2:-100000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work" "$CASES" <<'PY'
import json, sys
work, cases = sys.argv[1], int(sys.argv[2])
for name, device, shift in (("a", "GPU A", 0), ("b", "GPU B", 1)):
    out = []
    for i in range(cases):
        n, col = i // 4 + shift, "ABCD"[i % 4]
        obs = {"outcome": "ok"} if n % 997 else {"outcome": "wrong", "first_wrong": 0}
        out.append({"section": "sizes", "column": col, "n": n, "observed": obs, "held": True})
    doc = {"schema": "gridstride-results", "schema_version": 1, "mode": "table",
           "tool": "bench-compare.sh", "version": "", "date": "2026-01-01", "command": "",
           "devices": [{"backend": "cuda", "device": device, "id": "0", "G": 160, "T": 40960,
                        "cases": out}]}
    with open("%s/%s.json" % (work, name), "w") as f:
        json.dump(doc, f)
PY
echo "machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
echo "cases: $CASES per file, 2 files ($(du -h "$work/a.json" | cut -f1) each)"
start=$(date +%s.%N)
set +e
"$GS" compare --output "$work/out.txt" "$work/a.json" "$work/b.json"
code=$?
set -e
end=$(date +%s.%N)
echo "exit status: $code (0: every case held its prediction)"
echo "rows in the report: $(grep -c '^ *[0-9]' "$work/out.txt")"
echo "seconds: $(awk "BEGIN { printf \"%.2f\", $end - $start }")"
