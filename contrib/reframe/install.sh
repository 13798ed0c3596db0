#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs ReFrame (reframe-hpc 4.10.4 and its requirements, pinned in
# requirements.txt) into a virtual environment:
#
#   contrib/reframe/install.sh [VENV]      (default: contrib/reframe/.venv)
#
# Then: VENV/bin/reframe -C contrib/reframe/config/sites.py -c contrib/reframe/checks -r
# An existing environment with the pinned ReFrame is kept (a second call
# costs nothing). Exit 77, with the reason on one line, when Python's venv
# module or the package index cannot be had (the ctest entry reports it as
# skipped); 1 on any other failure.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
venv=${1:-$here/.venv}
python=${PYTHON:-python3}
want=$(sed -n 's/^reframe-hpc==//p' "$here/requirements.txt")

# pip's record of the installed distribution says its version: asking
# `reframe --version` would import all of ReFrame (0.4 s) at every call.
if [ -x "$venv/bin/reframe" ] &&
   compgen -G "$venv/lib/python3*/site-packages/reframe_hpc-$want.dist-info" >/dev/null; then
  echo "install: ReFrame $want already in $venv"
  exit 0
fi
if ! command -v "$python" >/dev/null 2>&1; then
  echo "SKIPPED: no $python on PATH; install Python 3.9 or newer" >&2
  exit 77
fi
# A machine without the package index (offline CI, a compute node, a GPU
# machine) skips, asked first: a virtual environment takes seconds to make;
# pip's own exit code does not say why it failed, so ask the index first.
if ! "$python" - <<'PY' >/dev/null 2>&1
import urllib.request, os
url = os.environ.get("PIP_INDEX_URL", "https://pypi.org/simple/").rstrip("/") + "/reframe-hpc/"
urllib.request.urlopen(url, timeout=10).read(1)
PY
then
  echo "SKIPPED: the package index cannot be reached (${PIP_INDEX_URL:-https://pypi.org/simple/});" \
       "install from wheels as scripts/gpu-reframe.sh does" >&2
  exit 77
fi
rm -rf "$venv"
if ! "$python" -m venv "$venv" > "$venv.log" 2>&1; then
  echo "SKIPPED: $python -m venv failed ($(tail -1 "$venv.log")); install python3-venv" >&2
  rm -rf "$venv" "$venv.log"
  exit 77
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/requirements.txt"
got=$("$venv/bin/reframe" --version)
if [ "$got" != "$want" ]; then
  echo "install: expected ReFrame $want, got $got" >&2
  exit 1
fi
rm -f "$venv.log"
echo "install: ReFrame $got in $venv"
