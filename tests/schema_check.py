#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every JSON gridstride writes, validated against its JSON Schema
(draft 2020-12) under docs/schema/.

    tests/schema_check.py GRIDSTRIDE SOURCE_DIR WORK_DIR
    tests/schema_check.py --reports SCHEMA REPORTS_DIR CASES_TXT

Runs gridstride to produce one JSON of each kind on the host and OpenCL
backends (those of them this build has): the table, bandwidth, --sweep,
pitfalls, trace, --list, compare; --spread where a device records per-unit
finish times, and check where docs/schema/check.schema.json exists. Each
output names its schema ("schema" member, or "mode" for the results
files), and is validated against that file; so are the results files kept
in docs/results/ and docs/reference/. Exit 0 when every file is valid, 1
when one is not (each error printed with its place in the file), 77
(skipped) without python3's jsonschema module (Debian: python3-jsonschema).

With --reports, the hostile suite's reports against SCHEMA, all at once (the
ctest entry hostile_schema, run after every hostile_* case): each case that
ran left its report as REPORTS_DIR/<name>.json (tests/hostile/run_hostile.sh);
a case of CASES_TXT without one was skipped (no device) or did not run. Exit
0 when every report follows the schema and at least one is there, 1
otherwise, 77 without jsonschema.
"""
import csv
import functools
import glob
import json
import os
import subprocess
import sys

try:
    import jsonschema
    from jsonschema import Draft202012Validator
except ImportError:
    print("schema: SKIPPED: python3 has no jsonschema module; install python3-jsonschema "
          "(scripts/quickstart.sh does)")
    sys.exit(77)



@functools.lru_cache(maxsize=None)
def validator_of(schema_path):
    """The schema at schema_path, itself checked, as a validator (once a file)."""
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def errors_of(schema_path, doc):
    """doc's errors against the schema, in the document's order: (place, message)."""
    errors = sorted(validator_of(schema_path).iter_errors(doc), key=lambda e: list(e.path))
    return [("/".join(str(p) for p in e.absolute_path) or "(top)", e.message) for e in errors]


def check_reports(schema_path, reports, cases_txt):
    with open(cases_txt, encoding="utf-8") as f:
        names = [line.split()[0] for line in f if line[:1].isalpha()]
    bad, seen, absent = 0, 0, []
    for name in names:
        path = os.path.join(reports, name + ".json")
        if not os.path.exists(path):
            absent.append(name)
            continue
        seen += 1
        with open(path, encoding="utf-8") as f:
            try:
                doc = json.load(f)
            except ValueError as exc:
                print(f"hostile_schema: {name}: not valid JSON: {exc}")
                bad += 1
                continue
        for where, message in errors_of(schema_path, doc):
            print(f"hostile_schema: {name}: at {where}: {message[:300]}")
            bad += 1
    if seen == 0:
        print(f"hostile_schema: FAIL: no report in {reports} (did the hostile cases run?)")
        sys.exit(1)
    print(f"hostile_schema: {seen} reports checked against {os.path.basename(schema_path)}"
          f"{', not there (skipped or not run): ' + ' '.join(absent) if absent else ''}; "
          f"{bad} error(s)")
    sys.exit(1 if bad else 0)


if len(sys.argv) == 5 and sys.argv[1] == "--reports":
    check_reports(*sys.argv[2:])
if len(sys.argv) != 4:
    print("usage: schema_check.py GRIDSTRIDE SOURCE_DIR WORK_DIR, or --reports SCHEMA "
          "REPORTS_DIR CASES_TXT", file=sys.stderr)
    sys.exit(2)
GS, SRC, WORK = (os.path.abspath(a) for a in sys.argv[1:])
SCHEMAS = os.path.join(SRC, "docs", "schema")
os.makedirs(WORK, exist_ok=True)

# The file each output's header names.
BY_SCHEMA = {"gridstride-pitfalls": "pitfalls", "gridstride-trace": "trace",
             "gridstride-list": "list", "gridstride-compare": "compare",
             "gridstride-check": "check"}
BY_MODE = {"table": "table", "bandwidth": "bandwidth", "bandwidth-sweep": "sweep",
           "bandwidth-spread": "spread"}


def schema_file(doc):
    name = doc.get("schema") if isinstance(doc, dict) else None
    kind = BY_MODE.get(doc.get("mode")) if name == "gridstride-results" else BY_SCHEMA.get(name)
    return kind and os.path.join(SCHEMAS, kind + ".schema.json")


env = dict(os.environ, LC_ALL="C")
for var in ("GRIDSTRIDE_REQUIRE", "GRIDSTRIDE_DEVICE"):
    env.pop(var, None)


def run(args, ok=(0,)):
    p = subprocess.run([GS] + args, cwd=WORK, env=env, capture_output=True, text=True)
    if p.returncode not in ok:
        print("schema: gridstride %s: exit %d\n%s" % (" ".join(args), p.returncode, p.stderr))
        sys.exit(1)
    return p


listing = json.loads(run(["--list", "--format", "json"]).stdout)
have = [b["backend"] for b in listing["backends"] if b["backend"] in ("host", "opencl")
        and b["devices"]]
if not have:
    print("schema: SKIPPED: neither the host nor the OpenCL backend has a device here")
    sys.exit(77)
backends = ",".join(have)
with open(os.path.join(WORK, "list.json"), "w") as f:
    json.dump(listing, f)
produced = ["list.json"]
for name, args in [
        ("table.json", ["--backend", backends, "--grid", "8", "--sizes", "0,611,4097"]),
        ("bandwidth.json", ["bandwidth", "--backend", backends, "--grid", "8", "--bytes", "256KiB",
                            "--reps", "5", "--quiet"]),
        ("sweep.json", ["bandwidth", "--sweep", "--backend", backends, "--grid", "8", "--bytes",
                        "16KiB", "--reps", "5", "--quiet"]),
        ("pitfalls.json", ["pitfalls", "--backend", backends, "--traps",
                           "tile-loop,int-block-count", "--quiet"]),
        ("trace.json", ["trace", "--backend", backends, "--n", "600", "--grid", "2",
                        "--block", "128"])]:
    run(args + ["--json", name, "--output", os.devnull])
    produced.append(name)
# --spread: only where a device records per-unit finish times (exit 2 here otherwise).
if run(["bandwidth", "--spread", "--backend", backends, "--bytes", "16MiB", "--reps", "5",
        "--quiet", "--json", "spread.json", "--output", os.devnull], ok=(0, 1, 2)).returncode != 2:
    produced.append("spread.json")
if "--format FMT" in run(["compare", "--help"]).stdout:
    run(["compare", "--format", "json", "--output", "compare.json", "table.json",
         os.path.join(SRC, "docs", "reference", "t4-seed002.json")], ok=(0, 1))
    run(["compare", "--format", "json", "--output", "compare-bandwidth.json", "bandwidth.json",
         "bandwidth.json"], ok=(0, 1))
    produced += ["compare.json", "compare-bandwidth.json"]
if os.path.exists(os.path.join(SCHEMAS, "check.schema.json")):
    run(["check", os.path.join(SRC, "examples", "grid_stride.gs"), "--backend", have[0],
         "--grid", "8", "--sizes", "0,611", "--json", "check.json", "--output", os.devnull])
    produced.append("check.json")

files = [os.path.join(WORK, p) for p in produced]
# Every results file gridstride wrote; ReFrame's own report of a run of
# contrib/reframe (h200-reframe-report.json) follows ReFrame's format, not ours.
files += sorted(f for f in glob.glob(os.path.join(SRC, "docs", "results", "*.json"))
                if not f.endswith("-reframe-report.json"))
files += sorted(glob.glob(os.path.join(SRC, "docs", "reference", "*.json")))
bad = 0
for path in files:
    with open(path) as f:
        doc = json.load(f)
    sf = schema_file(doc)
    if not sf or not os.path.exists(sf):
        print("schema: FAIL %s: names no schema of docs/schema/ (schema %r, mode %r)"
              % (path, doc.get("schema"), doc.get("mode")))
        bad += 1
        continue
    errors = errors_of(sf, doc)
    for where, message in errors[:5]:
        print("schema: FAIL %s at %s: %s" % (path, where, message[:200]))
    bad += bool(errors)
    if not errors:
        print("schema: ok %s (%s)" % (os.path.relpath(path, WORK if path.startswith(WORK) else SRC),
                                      os.path.basename(sf)))
# The schemas must be able to fail: a table with an outcome no table has,
# and a header without its date, are refused.
with open(os.path.join(WORK, "table.json")) as f:
    broken = json.load(f)
broken["devices"][0]["cases"][0]["observed"]["outcome"] = "maybe"
undated = json.loads(json.dumps(listing))
del undated["date"]
for what, doc, schema in (("an unknown outcome", broken, "table"),
                          ("a header without a date", undated, "list")):
    if validator_of(os.path.join(SCHEMAS, schema + ".schema.json")).is_valid(doc):
        print("schema: FAIL the schema accepts %s" % what)
        bad += 1
# Provenance: every output written here carries the build's commit, as
# --version prints it (JSON "commit", CSV's last column, Markdown's line),
# and a number that is not known is an empty CSV field, never 0.00 (the
# host backend states no peak: its peak_gbps and pct_of_peak).
commit = [ln.split(": ", 1)[1] for ln in run(["--version"]).stdout.splitlines()
          if ln.startswith("commit: ")][0]
for name in produced:
    with open(os.path.join(WORK, name)) as f:
        got = json.load(f).get("commit")
    if got != commit:
        print("schema: FAIL %s: commit %r, --version says %r" % (name, got, commit))
        bad += 1
for what, args in (("table", ["--backend", have[0], "--grid", "8", "--sizes", "0,611"]),
                   ("bandwidth", ["bandwidth", "--backend", have[0], "--grid", "8", "--bytes",
                                  "16KiB", "--reps", "5", "--quiet"]),
                   ("pitfalls", ["pitfalls", "--backend", have[0], "--traps", "tile-loop",
                                 "--quiet"]),
                   ("check", ["check", os.path.join(SRC, "examples", "grid_stride.gs"),
                              "--backend", have[0], "--grid", "8", "--sizes", "0,611",
                              "--no-speed"])):
    rows = list(csv.DictReader(run(args + ["--format", "csv"]).stdout.splitlines()))
    if not rows or any(r.get("commit") != commit for r in rows):
        print("schema: FAIL %s --format csv: not every row's commit is %r" % (what, commit))
        bad += 1
    if what == "bandwidth" and "host" == have[0] and any(
            r["peak_gbps"] != "" or r["pct_of_peak"] != "" for r in rows):
        print("schema: FAIL bandwidth --format csv: a peak the host does not state is not empty")
        bad += 1
    md = run(args + ["--format", "md"]).stdout
    if ("Commit: `%s`" % commit) not in md and ("- commit: `%s`" % commit) not in md:
        print("schema: FAIL %s --format md: no commit line %r" % (what, commit))
        bad += 1
try:
    from importlib.metadata import version
    jsonschema_version = version("jsonschema")
except Exception:  # no metadata (a copy on the path): the version is not needed
    jsonschema_version = "?"
print("schema: %d files, %d invalid (jsonschema %s)" % (len(files), bad, jsonschema_version))
sys.exit(1 if bad else 0)
