#!/bin/sh
# SPDX-License-Identifier: MIT
# One gridstride run per device of each backend, each device's JSON named by
# the scheduler's node and the device, so that files of many nodes and of
# many GPUs of one node never collide in the fleet report:
#
#   gs_per_device.sh GRIDSTRIDE table|bandwidth BACKENDS [ARGS...]
#
# writes <node>.<backend><index>.table.json (gridstride ... --format json)
# or <node>.<backend><index>.bandwidth.json (gridstride bandwidth ... --json)
# for index 0, 1, ... of each backend's devices as `gridstride --list` shows
# them. The node is Slurm's name for it (SLURMD_NODENAME: several slurmd on
# one host are several nodes), else the short hostname. Exit status: the
# largest of the runs'; 3 when no backend had a device.
set -u
gs=$1 kind=$2 backends=$3
shift 3
node=${SLURMD_NODENAME:-$(hostname -s)}
worst=0 runs=0
for b in $(echo "$backends" | tr ',' ' '); do
  count=$("$gs" --list --backend "$b" 2>/dev/null | grep -c '^  \[')
  i=0
  while [ "$i" -lt "$count" ]; do
    out="$node.$b$i.$kind.json"
    echo "== $node $b device $i -> $out"
    if [ "$kind" = table ]; then
      "$gs" --backend "$b" --device "$i" "$@" --format json --output "$out"
    else
      "$gs" bandwidth --backend "$b" --device "$i" "$@" --json "$out"
    fi
    rc=$?
    [ "$rc" -gt "$worst" ] && worst=$rc
    runs=$((runs + 1))
    i=$((i + 1))
  done
done
[ "$runs" -eq 0 ] && { echo "no device on $backends"; exit 3; }
exit "$worst"
