#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# compare as a regression gate, on files of a real run: the table of two
# H200s through CUDA and OpenCL (docs/results/h200x2-table.json, written by
# `gridstride --backend cuda,opencl --device all --format json`).
#
# How the inputs are made (here, from that file, each time the test runs):
#   cuda0.json     the run's header with its first device only (cuda 0);
#   cuda1.json     the same with its second device only (cuda 1: the same
#                  backend, device name and driver, another GPU);
#   opencl0.json   the same with its third device only (opencl 0:0, the
#                  first H200 through OpenCL: same name and driver);
#   regressed.json cuda0.json with one cell edited: sizes n = 270337,
#                  column C (grid-stride) observed wrong from 270336 on, and
#                  the prediction edited to agree, so the case still "held":
#                  the run that a changed driver or a changed kernel would
#                  give, which the file's own held flags do not catch.
#
# Expected: regressed against cuda0 on the same device exits 1 and names
# the cell and both outcomes; cuda0 against opencl0 (CUDA refuses n = 0 in
# column A, OpenCL 3.0 runs it: the APIs' documented difference) exits 0;
# two GPUs of one kind and driver that agree (cuda0, cuda1) exit 0.
#
#   compare_gate.sh GRIDSTRIDE H200X2-TABLE.json
set -u
gs=$(realpath "$1")
run=$2
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
fail() { echo "FAIL compare gate: $*"; exit 1; }
"${GS_PYTHON:-python3}" - "$run" "$w" <<'PY' || fail "could not derive the inputs"
import copy, json, sys
run, w = sys.argv[1], sys.argv[2]
d = json.load(open(run))
def one(i, name):
    o = copy.deepcopy(d)
    o["devices"] = [d["devices"][i]]
    json.dump(o, open("%s/%s" % (w, name), "w"))
    return o
assert [x["backend"] for x in d["devices"][:3]] == ["cuda", "cuda", "opencl"]
r = one(0, "cuda0.json")
one(1, "cuda1.json")
one(2, "opencl0.json")
edited = 0
for c in r["devices"][0]["cases"]:
    if c["section"] == "sizes" and c["column"] == "C" and c["n"] == 270337:
        assert c["observed"]["outcome"] == "ok" and c["held"]
        for k in ("observed", "predicted"):
            c[k].update(outcome="wrong", first_wrong=270336, wrong=1)
        edited += 1
assert edited == 1
json.dump(r, open("%s/regressed.json" % w, "w"))
PY
cd "$w" || exit 1

"$gs" compare cuda0.json regressed.json >out 2>err
code=$?
[ $code = 1 ] || fail "a regressed column C on the same device: exit $code, expected 1"
grep -qF "1 cell changed outcome on the same device" out || fail "no verdict line: $(cat out)"
grep -qF "  sizes 270337 C: ok on 1 (cuda0.json), wrong@270336 on 2 (regressed.json)" out ||
    fail "the changed cell is not named with both outcomes: $(cat out)"
grep -q "not a failure" out && fail "the changed cell was called the APIs' own rule"
"$gs" compare --format json cuda0.json regressed.json >out.json 2>err
[ $? = 1 ] || fail "--format json: not exit 1"
grep -q '"changed": 1' out.json || fail "the JSON does not count the change"

"$gs" compare cuda0.json opencl0.json >out 2>err
code=$?
[ $code = 0 ] || fail "CUDA against OpenCL (n = 0 refused, then run): exit $code, expected 0"
grep -qF "sizes 0 A: refused on 1; ok on 2" out || fail "the n = 0 difference is not shown"
grep -q "changed outcome" out && fail "different backends were held to each other"

"$gs" compare cuda0.json cuda1.json >out 2>err
code=$?
[ $code = 0 ] || fail "two GPUs of one kind that agree: exit $code, expected 0"
echo "ok: a changed cell on the same device fails, the APIs' n = 0 difference passes"
