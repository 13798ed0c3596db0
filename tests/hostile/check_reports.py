#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The hostile suite's reports against docs/schema/check.schema.json, all at
once (the ctest entry hostile_schema, run after every hostile_* case):

    tests/hostile/check_reports.py SCHEMA REPORTS_DIR CASES_TXT

Each case that ran left its report as REPORTS_DIR/<name>.json
(run_hostile.sh); a case of cases.txt without one was skipped (no device)
or did not run. Exit 0 when every report follows the schema and at least
one is there, 1 otherwise (each error with its place), 77 (skipped)
without python3's jsonschema module."""
import json
import os
import sys

try:
    from jsonschema import Draft202012Validator
except ImportError:
    print("hostile_schema: SKIPPED: python3 has no jsonschema module; install "
          "python3-jsonschema (scripts/quickstart.sh does)")
    sys.exit(77)

if len(sys.argv) != 4:
    print("usage: check_reports.py SCHEMA REPORTS_DIR CASES_TXT", file=sys.stderr)
    sys.exit(2)
schema_path, reports, cases_txt = sys.argv[1:]
with open(schema_path, encoding="utf-8") as f:
    schema = json.load(f)
Draft202012Validator.check_schema(schema)
validator = Draft202012Validator(schema)
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
    for err in sorted(validator.iter_errors(doc), key=lambda e: list(e.path)):
        where = "/".join(str(p) for p in err.path) or "(top)"
        print(f"hostile_schema: {name}: at {where}: {err.message[:300]}")
        bad += 1
if seen == 0:
    print(f"hostile_schema: FAIL: no report in {reports} (did the hostile cases run?)")
    sys.exit(1)
print(f"hostile_schema: {seen} reports checked against {os.path.basename(schema_path)}"
      f"{', not there (skipped or not run): ' + ' '.join(absent) if absent else ''}; "
      f"{bad} error(s)")
sys.exit(1 if bad else 0)
