#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every text report fits its width and check starts with its answer.

    tests/report_width.py GRIDSTRIDE SOURCE_DIR WORK_DIR

Runs the commands of the golden set's text cases (the table, --list,
bandwidth and --sweep, pitfalls, trace, compare, and check on every example
the backends here can run) with --width 100 on the host backend and PoCL,
and fails on:
  - a stdout line over 100 columns (a table row is no exception: the table
    and bandwidth go one backend after another when side by side is wider,
    and compare's column groups, one per file, in runs one under another);
  - a check report whose "verdict:" line is not within its first 10 lines,
    or a table, pitfalls, bandwidth or compare report whose first line is
    not its summary ("table: ...");
  - a wrong-value row of check's listing that does not give the value found
    and the value expected.
It also checks that a pipe gets 80 columns without --width. Exit 0 when all
hold, 1 otherwise (each failure named), 77 when the host backend has no
device.
"""
import glob
import json
import os
import shutil
import subprocess
import sys

if len(sys.argv) != 4:
    print("usage: report_width.py GRIDSTRIDE SOURCE_DIR WORK_DIR", file=sys.stderr)
    sys.exit(2)
GS, SRC, WORK = (os.path.abspath(a) for a in sys.argv[1:])
WIDTH = 100
# REPORT_WIDTH_PLAIN=1 runs the reports without --width (to measure a build
# that has no such option) and still holds them to 100 columns.
PLAIN = os.environ.get("REPORT_WIDTH_PLAIN") == "1"
if os.path.exists(WORK):
    shutil.rmtree(WORK)
os.makedirs(WORK)
env = dict(os.environ, LC_ALL="C")
for var in ("GRIDSTRIDE_REQUIRE", "GRIDSTRIDE_DEVICE", "COLUMNS"):
    env.pop(var, None)


def run(args):
    p = subprocess.run([GS] + args, cwd=WORK, env=env, capture_output=True, text=True,
                       timeout=300)
    return p.returncode, p.stdout


listing = json.loads(run(["--list", "--format", "json"])[1])
have = [b["backend"] for b in listing["backends"] if b["backend"] in ("host", "opencl")
        and b["devices"]]
if "host" not in have:
    print("width: SKIPPED: the host backend has no device here")
    sys.exit(77)
both = ",".join(have)
ex = os.path.join(SRC, "examples")
ref = os.path.join(SRC, "docs", "reference", "t4-seed002.json")
cases = [
    ["--backend", both, "--sizes", "0,611,4097"],
    ["--backend", both, "--grid", "8", "--block", "100", "--sizes", "1,2049", "--shape", "1x1",
     "--shape", "3x100", "--shape", "10000x32", "--kernels", "grid-stride,chunked"],
    ["--backend", "host", "--grid", "8", "--sizes", "0,611,4097", "--format", "json", "--output",
     "table.json"],
    ["--list"],
    ["bandwidth", "--backend", both, "--grid", "8", "--bytes", "256KiB", "--reps", "5", "--quiet",
     "--json", "bw.json"],
    ["bandwidth", "--sweep", "--backend", both, "--grid", "8", "--bytes", "16KiB", "--reps", "5",
     "--quiet"],
    ["pitfalls", "--backend", both, "--traps",
     "stride-32bit,index-32bit,int-block-count,y-grid,tile-loop"],
    ["pitfalls", "--backend", both, "--traps", "early-return"],
    ["trace", "--backend", both, "--n", "600", "--grid", "2", "--block", "128"],
    ["trace", "--backend", both, "--kernels", "block-stride,tile-loop,copy-lane-strided", "--n",
     "2048", "--grid", "2", "--block", "128"],
    ["compare", ref],
    ["compare", ref, "table.json"],
    ["compare", "bw.json", "bw.json"],
]
checks = []
for f in sorted(glob.glob(os.path.join(ex, "*.gs"))):
    checks.append([f, "--backend", both])
if "opencl" in have:
    checks += [[f, "--backend", "opencl"] for f in sorted(glob.glob(os.path.join(ex, "*.cl")))]
for c in checks:
    timed = os.path.basename(c[0]).startswith(("block_stride", "grid_stride"))
    cases.append(["check"] + c + ["--grid", "8", "--sizes", "0,611,4097"] +
                 ([] if timed else ["--no-speed"]))

bad = 0
widest = (0, "")
for args in cases:
    rc, out = run(args if PLAIN else args + ["--width", str(WIDTH)])
    name = "gridstride " + " ".join(a.replace(SRC + "/", "") for a in args)
    if rc not in (0, 1) and not (args[0] == "check" and rc == 2 and not out):
        # (a kernel that does not compile, or has the wrong parameters, is
        # one line on stderr and exit 2: no report)
        print("width: FAIL %s: exit %d" % (name, rc))
        bad += 1
        continue
    lines = out.split("\n")
    for ln in lines:
        if len(ln) > widest[0]:
            widest = (len(ln), name)
        if len(ln) > WIDTH:
            print("width: FAIL %s: a line of %d columns: %s" % (name, len(ln), ln[:120]))
            bad += 1
            break
    # The table, pitfalls, bandwidth and compare start with their answer.
    first = "table" if args[0].startswith("--") and "--list" not in args and \
        "--output" not in args else args[0] if args[0] in ("pitfalls", "compare") else \
        "bandwidth" if args[0] == "bandwidth" and "--sweep" not in args else None
    if first and not lines[0].startswith(first + ": "):
        print("width: FAIL %s: the first line is not its summary (%r)" % (name, lines[0][:80]))
        bad += 1
    if args[0] == "check" and rc in (0, 1):
        at = [k for k, ln in enumerate(lines) if ln.startswith("verdict:")]
        if not at or at[0] >= 10:
            print("width: FAIL %s: the verdict is on line %s, not within the first 10"
                  % (name, at[0] + 1 if at else "none"))
            bad += 1
        for ln in lines:
            if "wrong value" in ln or (ln.strip()[:1].isdigit() and ln.rstrip().endswith(" wrong")):
                print("width: FAIL %s: a wrong element without its values: %s" % (name, ln))
                bad += 1
                break
piped = PLAIN or run(["--backend", "host", "--sizes", "0,611,4097"])[1]
if not PLAIN and piped != run(["--backend", "host", "--sizes", "0,611,4097", "--width", "80"])[1]:
    print("width: FAIL a pipe without --width is not written at 80 columns")
    bad += 1
print("width: %d reports at --width %d, %d failures; the widest line %d columns (%s)"
      % (len(cases), WIDTH, bad, widest[0], widest[1]))
sys.exit(1 if bad else 0)
