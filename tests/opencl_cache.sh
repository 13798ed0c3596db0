#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The OpenCL backend's program cache on a CPU device
# (backend_opencl/gs_opencl_cache.c), through gridstride itself: every run
# below must hold every prediction (exit 0: each value verified on the
# host), whether kernels/ came from source or from the cache.
#
#   opencl_cache.sh GRIDSTRIDE WORK_DIR
#
#   1. an empty cache: the run builds from source and leaves one entry;
#   2. the same run again loads that entry and does not write it again;
#   3. the trace build (another -D) is an entry of its own;
#   4. an entry whose binary is garbage, or whose key line differs (what a
#      hash collision would look like), is built from source again and
#      replaced, and the run still holds;
#   5. GRIDSTRIDE_CACHE=off writes nothing, there or in the default folder.
# Skipped (exit 77) without an OpenCL CPU device.
set -u
gs=$1 work=$2
case $gs in /*) ;; *) gs=$PWD/$gs ;; esac
rm -rf "$work"
mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }

unset GRIDSTRIDE_REQUIRE GRIDSTRIDE_DEVICE
export GRIDSTRIDE_CACHE="$work/cache"
# PoCL alone (a CPU device), as the hostile suite's _pocl rows see it: a GPU
# driver's builds are not cached.
. "$(dirname "$0")/pocl_only.sh"
pocl_only "$work" || { echo "SKIPPED: the cache is for CPU devices, and $pocl_why"; exit 77; }
list=$("$gs" --list --backend opencl 2>&1) || { echo "SKIPPED: no PoCL device: $list"; exit 77; }

table() {
  "$gs" --backend opencl --device 0 --grid 8 --sizes 0,611,4097 >"$work/out.txt" 2>&1
  local rc=$?
  [ $rc = 0 ] || { cat "$work/out.txt"; fail "$1: the table did not hold (exit $rc)"; }
}
entries() { find "$GRIDSTRIDE_CACHE/opencl" -name '*.bin' 2>/dev/null | sort; }

rm -rf "$GRIDSTRIDE_CACHE"
table "from source"
[ "$(entries | wc -l)" = 1 ] || fail "an empty cache left $(entries | wc -l) entries, not 1"
entry=$(entries)
head -c 27 "$entry" | grep -q "^gridstride opencl program 1" || fail "$entry has no header"
touch -d '2000-01-01' "$entry"
before=$(stat -c '%Y %s' "$entry")
table "from the cache"
[ "$(stat -c '%Y %s' "$entry")" = "$before" ] || fail "a hit wrote the entry again"
[ "$(entries | wc -l)" = 1 ] || fail "a hit added an entry"

"$gs" trace --backend opencl --device 0 --n 600 --grid 2 --block 128 >"$work/trace.txt" 2>&1 ||
  { cat "$work/trace.txt"; fail "trace did not run"; }
[ "$(entries | wc -l)" = 2 ] || fail "the trace build is not an entry of its own"

# Garbage after the header (the key and source kept): rebuilt, replaced.
python=${GS_PYTHON:-python3}
"$python" - "$entry" <<'PY' || fail "could not corrupt the entry"
import sys
p = sys.argv[1]
data = open(p, 'rb').read()
cut = data.index(b'\n', data.index(b'\n') + 1) + 1      # after the key line
count_end = data.index(b'\n', cut) + 1                   # the source's length line
src_len = int(data[cut:count_end])
head = count_end + src_len
open(p, 'wb').write(data[:head] + b'not a binary' * 1000)
PY
garbage=$(sha256sum <"$entry")
table "after a garbage binary"
[ "$(sha256sum <"$entry")" != "$garbage" ] || fail "a garbage entry was not replaced"

# Another key line under this file's name (a collision of the name's hash).
sed -i '2s/|/#/' "$entry"
other=$(sha256sum <"$entry")
table "after a foreign key line"
[ "$(sha256sum <"$entry")" != "$other" ] || fail "an entry of another key was not replaced"
head -2 "$entry" | tail -1 | grep -q '#' && fail "the foreign key line is still there"

# Off: nothing written, in the default folder either (PoCL's own cache is
# left where it is: it shares XDG_CACHE_HOME, and a cold one costs seconds).
default=${XDG_CACHE_HOME:-${HOME:-/nonexistent}/.cache}/gridstride
touch "$work/marker"
export GRIDSTRIDE_CACHE=off
(cd "$work" && table "with the cache off") || exit 1
[ -z "$(find "$default" -type f -newer "$work/marker" 2>/dev/null)" ] ||
  fail "GRIDSTRIDE_CACHE=off wrote into $default"
[ ! -e "$work/off" ] || fail "GRIDSTRIDE_CACHE=off was taken for a folder named off"
echo "ok: one entry from source, a hit that writes nothing, a second build's own entry, garbage and a foreign key replaced, off writes nothing"
