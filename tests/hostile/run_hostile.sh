#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# One case of the hostile-kernel suite (cases.txt): `gridstride check` on a
# file that tries to fool, crash, hang or escape the harness.
#
#   run_hostile.sh NAME GRIDSTRIDE
#
# Asserts the class (the JSON's "class"), the exit code, a whole report
# (valid JSON, in --output; stdout holds nothing a kernel printed; a copy in
# GS_HOSTILE_REPORTS for hostile_schema), that the
# input is unchanged, that nothing is left in TMPDIR (a fresh folder) and no
# process carries this run's marker, and that it ended within its deadline.
set -u
name=$1
gs=$2
here=$(cd "$(dirname "$0")" && pwd)
examples="$here/../../examples"
line=$(awk -v n="$name" '$1 == n' "$here/cases.txt")
[ -n "$line" ] || { echo "no case $name in cases.txt"; exit 1; }
read -r _ file backend class want_exit deadline opts <<<"$line"

# A case that did not go as stated is first looked at for a missing device
# (PoCL absent): skipped then, as the example tests do. Asked only after a
# failure, so that a passing case starts no extra process.
fail() {
  if ! "$gs" --list --backend "$backend" >/dev/null 2>&1; then
    echo "SKIPPED: no $backend device"
    exit 0
  fi
  echo "FAIL $name: $*"; echo "--- stdout"; head -c 3000 "$w/stdout"; echo "--- stderr"; head -c 3000 "$w/stderr"; exit 1
}

[ -z "${GS_HOSTILE_REPORTS:-}" ] || rm -f "$GS_HOSTILE_REPORTS/$name.json"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
mkdir "$w/tmp" "$w/in"
export TMPDIR="$w/tmp"
: >"$w/stdout"
: >"$w/stderr"

# The _pocl rows state what PoCL does (a CPU device); a GPU's OpenCL differs
# (a 256 MiB __local array is a build error there). Where another OpenCL
# driver is registered too (a GPU machine), the row sees PoCL alone: an ICD
# folder of its own that lists only PoCL's entry.
if [[ $name == *_pocl ]]; then
  . "$here/../pocl_only.sh"
  pocl_only "$w" || { echo "SKIPPED: $name describes PoCL, and $pocl_why"; exit 0; }
fi

case "$file" in
  @fifo) input="$w/in/k.gs"; mkfifo "$input" ;;
  @dir) input="$w/in/k.gs"; mkdir "$input" ;;
  @binary) input="$w/in/k.gs"; { printf 'GS_KERNEL\0\1\2\3'; head -c 4096 /dev/urandom; } >"$input" ;;
  @big) input="$w/in/k.gs"
        { cat "$examples/grid_stride.gs"; yes '/* padding padding padding padding */' | head -c 1100000; } >"$input" ;;
  @newline) input="$w/in/$(printf 'a\nb').gs"; cp "$examples/grid_stride.gs" "$input" ;;
  @escape) input="$w/in/$(printf 'x\033[2Jy').gs"; cp "$examples/grid_stride.gs" "$input" ;;
  *) input="$w/in/$file"; cp "$here/$file" "$input" ;;
esac

report="$w/report.json"
args=(check "$input" --backend "$backend" --format json)
has_output=0
if [ "$opts" != "-" ]; then
  read -r -a extra <<<"$opts"
  for a in "${extra[@]}"; do
    [ "$a" = "@self" ] && a=$input
    [ "$a" = "--output" ] && has_output=1
    args+=("$a")
  done
fi
[ $has_output = 1 ] || args+=(--output "$report")

sum() { if [ -f "$1" ] && [ ! -L "$1" ]; then sha256sum <"$1"; else stat -c '%F %i' "$1"; fi; }
before=$(sum "$input")
probe=/tmp/gridstride-hostile-was-here
rm -rf "$probe"
marker="gs-hostile-$$-$RANDOM$RANDOM"
t0=$(date +%s%N)
# A secret of the grader's in check's environment: no kernel may see it
# (grader_env.gs turns it into a wrong element's index when it does).
secret=$((100 + RANDOM % 400))
# A kernel that types into the grader's terminal (tiocsti.gs): check runs
# with a pty made here as its controlling terminal, and what reached that
# pty's input is kept in $w/injected.
wrap=()
[ "$file" = tiocsti.gs ] && wrap=("${GS_PYTHON:-python3}" "$here/in_pty.py" "$w/injected")
env GS_HOSTILE_MARK="$marker" GRADER_SECRET="$secret" timeout -s KILL $((deadline + 30)) \
  "${wrap[@]}" "$gs" "${args[@]}" >"$w/stdout" 2>"$w/stderr" </dev/null
code=$?
t1=$(date +%s%N)
ms=$(((t1 - t0) / 1000000))

[ "$code" = "$want_exit" ] || fail "exit $code, expected $want_exit"
[ $ms -le $((deadline * 1000)) ] || fail "took $ms ms, the deadline is $deadline s"
# The JSON verdict: in --output when it was written, else on stdout.
src="$w/stdout"
if [ $has_output = 0 ] && [ -s "$report" ]; then
  src="$report"
  [ ! -s "$w/stdout" ] || fail "stdout is not empty although the report went to --output"
fi
# One Python for the report: valid JSON (its verdict and class printed);
# and, for a kernel that hangs at one size, only the cases at that size
# failed: every later case ran, and passed, in a fresh worker. Its schema
# (docs/schema/check.schema.json) is checked for every case at once by the
# test hostile_schema (tests/schema_check.py --reports), from the copy left
# in GS_HOSTILE_REPORTS (ctest sets it): one Python with jsonschema instead
# of one a case.
py=${GS_PYTHON:-python3}
once=0
[[ $name == *_once_* ]] && once=1
got=$("$py" -S - "$src" "$once" 2>"$w/py.err" <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
    verdict, cls = d["verdict"], d["class"]
except Exception as exc:
    print("the report is not valid JSON: %s" % exc, file=sys.stderr)
    sys.exit(3)
if sys.argv[2] == "1":
    for b in d["backends"]:
        for c in b["results"]:
            want = "did-not-finish" if c["n"] == 31 else "ok"
            if c["class"] != want:
                print("the cases after the killed one did not all pass: n = %d <<<%d, %d>>>: %s"
                      % (c["n"], c["grid"], c["block"], c["class"]), file=sys.stderr)
                sys.exit(5)
print(verdict, cls)
PY
) || fail "$(tail -1 "$w/py.err")"
if [ -n "${GS_HOSTILE_REPORTS:-}" ]; then
  mkdir -p "$GS_HOSTILE_REPORTS"
  cp "$src" "$GS_HOSTILE_REPORTS/$name.json"
fi
read -r verdict got_class <<<"$got"
[ "$got_class" = "$class" ] || fail "class $got_class, expected $class"
case "$class" in
  ok) [ "$verdict" = ok ] || fail "verdict $verdict with class ok" ;;
esac
[ "$(sum "$input")" = "$before" ] || fail "the input changed"
[ -z "$(ls -A "$TMPDIR")" ] || fail "left in TMPDIR: $(ls -A "$TMPDIR")"
[ ! -e "$probe" ] || { rm -rf "$probe"; fail "the kernel created $probe"; }
[ ! -s "$w/injected" ] || fail "input reached the terminal: $(head -c 200 "$w/injected" | od -c | head -3)"
if grep -q "GRADER_SECRET" "$src"; then fail "the grader's environment reached the report"; fi
# A process of this run still there: looked for now and, where one is found
# (it may be exiting), once more 0.1 s later, as the only look used to be.
# A worker has an environment of its own (not the marker): it is found by its
# working directory, in its private folder under this run's TMPDIR.
marked() {
  { grep -l "GS_HOSTILE_MARK=$marker" /proc/[0-9]*/environ 2>/dev/null
    for c in /proc/[0-9]*/cwd; do
      case "$(readlink "$c" 2>/dev/null)" in "$w"/*) echo "$c" ;; esac
    done; } | head -5
}
left=$(marked)
[ -z "$left" ] || { sleep 0.1; left=$(marked); }
[ -z "$left" ] || fail "processes left behind: $left"
ls "$w"/in/*.tmp.* >/dev/null 2>&1 && fail "a temporary left beside the input"

# A name with control characters: the text report shows it escaped (in its
# header, below the verdict; the name has no space, so no wrap splits it).
if [ "$file" = @newline ] || [ "$file" = @escape ]; then
  "$gs" check "$input" --backend "$backend" --no-speed --sizes 0,611,4097 >"$w/stdout" 2>"$w/stderr" ||
    fail "text run exit $?"
  if LC_ALL=C grep -q $'\033' "$w/stdout"; then fail "an escape character reached the report"; fi
  LC_ALL=C grep -qF "$(printf '%s' "$input" | sed 's/\x1b/\\x1b/g; :a;N;$!ba;s/\n/\\n/g')" "$w/stdout" ||
    fail "the header does not name the file escaped"
fi
echo "ok $name: class $got_class, exit $code, $ms ms"
