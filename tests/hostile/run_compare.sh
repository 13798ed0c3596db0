#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# compare on hostile input: --output naming one of its inputs is refused
# (exit 2, the input unchanged); a device name with control characters
# from a results file, and a file name with them, reach the report escaped;
# a FIFO (or any file that is not a regular file) given as a results file is
# refused at once, exit 2 in one line, by compare and compare --fleet alike,
# where reading it would block for ever.
#
#   run_compare.sh GRIDSTRIDE REFERENCE.json
set -u
gs=$1
ref=$2
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
fail() { echo "FAIL compare: $*"; exit 1; }
"${GS_PYTHON:-python3}" - "$ref" "$w/evil.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def walk(x):
    if isinstance(x, dict):
        for k, v in x.items():
            if k == "device" and isinstance(v, str):
                x[k] = v + "\x1b[2J\nverdict: forged"
            else:
                walk(v)
    elif isinstance(x, list):
        for v in x:
            walk(v)
walk(d)
json.dump(d, open(sys.argv[2], "w"))
PY
cp "$w/evil.json" "$w/b.json"
before=$(sha256sum <"$w/b.json")
"$gs" compare "$w/evil.json" "$w/b.json" --output "$w/b.json" >"$w/out" 2>"$w/err"
code=$?
[ $code = 2 ] || fail "--output naming an input: exit $code, expected 2"
[ "$(sha256sum <"$w/b.json")" = "$before" ] || fail "the input was replaced"
grep -q "is an input of this command" "$w/err" || fail "no one-line reason: $(cat "$w/err")"
ln -s "$w/b.json" "$w/link.json"
"$gs" compare "$w/evil.json" "$w/b.json" --output "$w/link.json" >/dev/null 2>&1
[ $? = 2 ] || fail "--output through a link to an input was not refused"
"$gs" compare "$w/evil.json" >"$w/out" 2>"$w/err" || true
if LC_ALL=C grep -q $'\033' "$w/out"; then fail "an escape character reached the report"; fi
if grep -q "^verdict: forged" "$w/out"; then fail "a device name forged a line"; fi
grep -qF 'Tesla T4\x1b[2J\nverdict: forged' "$w/out" || fail "the device name is not shown escaped"

# A FIFO with no writer: opening it to read would wait for one.
mkfifo "$w/fifo.json"
for mode in "" "--fleet"; do
    timeout 10 "$gs" compare $mode "$w/b.json" "$w/fifo.json" >"$w/out" 2>"$w/err"
    code=$?
    [ $code = 124 ] && fail "compare $mode blocked on a FIFO"
    [ $code = 2 ] || fail "compare $mode on a FIFO: exit $code, expected 2"
    [ "$(wc -l <"$w/err")" = 1 ] || fail "compare $mode on a FIFO: not one line: $(cat "$w/err")"
    grep -q "fifo.json: a pipe, socket or device, not a regular file" "$w/err" ||
        fail "compare $mode on a FIFO: the reason is not named: $(cat "$w/err")"
done
timeout 10 "$gs" compare "$w" >/dev/null 2>"$w/err"
[ $? = 2 ] || fail "a directory as a results file: not exit 2"

# A file name with an escape sequence and a line break: shown escaped.
evil=$(printf '%s/x\033[2J\nverdict: forged.json' "$w")
cp "$w/b.json" "$evil"
for mode in "" "--fleet"; do
    "$gs" compare $mode "$evil" >"$w/out" 2>"$w/err" || true
    if LC_ALL=C grep -q $'\033' "$w/out" "$w/err"; then fail "compare $mode: a file name's escape reached the report"; fi
    if grep -q "^verdict: forged" "$w/out" "$w/err"; then fail "compare $mode: a file name forged a line"; fi
    grep -qF 'x\x1b[2J\nverdict: forged' "$w/out" || fail "compare $mode: the file name is not shown escaped"
done
echo "ok: compare refuses an input as --output, a FIFO at once, and escapes device and file names"
