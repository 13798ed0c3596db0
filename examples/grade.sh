#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A grader's loop: `gridstride check` on every submission in a folder, one
# JSON verdict each, and a summary.
#
#   examples/grade.sh SUBMISSIONS OUT [check options...]
#
# SUBMISSIONS holds the students' files (.cu, .cl or .gs; any names, also
# with spaces or newlines); OUT gets NAME.json for each (the verdict of
# docs/schema/check.schema.json) and summary.tsv (file, exit status, verdict,
# class), and the summary is printed. GRIDSTRIDE names the binary (default:
# gridstride on PATH, else ./build/gridstride), PYTHON the Python 3 that reads
# each JSON (default python3). Options after OUT go to every check, e.g.
# --backend host --timeout 5.
#
# Exit status (docs/check.md): 0 ok, 1 wrong (a case wrong, faulted or did not
# finish), 2 not judged (refused, compile error, bad signature, bad usage),
# anything else is the harness's own failure, and this script counts it so.
set -u
if [ $# -lt 2 ]; then
  echo "usage: examples/grade.sh SUBMISSIONS OUT [check options...]" >&2
  exit 2
fi
subs=$1
out=$2
shift 2
gs=${GRIDSTRIDE:-$(command -v gridstride || echo ./build/gridstride)}
py=${PYTHON:-python3}
[ -d "$subs" ] || { echo "grade.sh: $subs is not a folder; give the folder of submissions" >&2; exit 2; }
mkdir -p "$out" || exit 2
summary="$out/summary.tsv"
printf 'file\texit\tverdict\tclass\n' >"$summary"
declare -A count=()
while IFS= read -r -d '' f; do
  name=$(basename "$f")
  safe=$(printf '%s' "$name" | tr -c 'A-Za-z0-9._-' '_')
  json="$out/$safe.json"
  "$gs" check "$f" --format json --output "$json" "$@" 2>"$out/$safe.stderr"
  code=$?
  verdict=harness-failure
  class=harness-failure
  if [ $code -le 2 ] && [ -s "$json" ]; then
    read -r verdict class < <("$py" -S -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["verdict"], d["class"])' "$json" 2>/dev/null || echo "invalid-json invalid-json")
  fi
  printf '%s\t%s\t%s\t%s\n' "$safe" "$code" "$verdict" "$class" >>"$summary"
  count[$class]=$((${count[$class]:-0} + 1))
done < <(find "$subs" -maxdepth 1 -type f \( -name '*.cu' -o -name '*.cl' -o -name '*.gs' \) -print0 | sort -z)
column -t -s $'\t' "$summary" 2>/dev/null || cat "$summary"
echo
for c in "${!count[@]}"; do printf '%5d  %s\n' "${count[$c]}" "$c"; done | sort -k2
