#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The ReFrame test library through a real Slurm of several nodes, all on
# this machine, started for the purpose and removed afterwards:
#
#   scripts/slurm-local.sh [BUILD]     (default: build; runs BUILD/gridstride)
#   GS_SLURM_NODES=N                   (default 4) the number of nodes
#
# As root (or with sudo): installs Debian's slurm-wlm and munge when missing,
# writes a configuration of N nodes n1..nN (proctrack/linuxproc, task/none,
# select/cons_tres, SlurmUser root, no accounting), each slurmd started as
# `slurmd -N nI` in a hostname namespace of its own (unshare --uts, hostname
# nI) on a port of its own, with its own spool, log and pid file; state and
# munge socket in a temporary folder. It waits (bounded) for every node to be
# idle, runs contrib/reframe's tests with --system ci-slurm and
# --distribute=idle (every test once per node, each a batch job pinned to
# its node, watched with ReFrame's squeue scheduler: the slurm one calls
# sacct, which needs accounting), then `gridstride compare --fleet` over
# every node's results files (<node>.<backend><index>.table.json and
# .bandwidth.json, kept in ReFrame's output folder) into
# BUILD/reframe-slurm/fleet.txt. On every exit the daemons it started, and
# any job step they left, are stopped, their folder removed, and the process
# table checked: a daemon still there fails the script. Prints the jobs Slurm
# ran per node, from slurmctld's log, and the wall time.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
build=$(cd "${1:-build}" && pwd)
started=$(date +%s)
say() { echo "slurm-local: $* ($(( $(date +%s) - started )) s)"; }

sudo=""
[ "$(id -u)" -ne 0 ] && sudo=sudo
if ! command -v slurmctld >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; then
  say "installing slurm-wlm and munge"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    slurm-wlm munge >/dev/null
fi

venv=$build/reframe-venv
contrib/reframe/install.sh "$venv"

nodes=${GS_SLURM_NODES:-4}
state=$(mktemp -d)
pids=()
rfm=""
# Slurm's and munge's processes that were there before: never touched; any
# other one left at the end is this script's, found and stopped by its id.
# (pgrep warns of a pattern longer than a process name; this one is a list.)
daemons='^(slurmctld|slurmscriptd|slurmd|slurmstepd|munged)$'
before=$(pgrep "$daemons" 2>/dev/null | sort || true)
# shellcheck disable=SC2317  # run by stop, from the traps below
ours_left() {
  comm -13 <(echo "$before") <(pgrep "$daemons" 2>/dev/null | sort || true) | grep . || true
}
# shellcheck disable=SC2317  # run by the traps below
stop() {
  local rc=$?
  # ReFrame first (it cancels its own jobs), then anything left in the queue
  # of this private cluster, then the daemons.
  if [ -n "${rfm:-}" ] && kill -0 "$rfm" 2>/dev/null; then
    kill -TERM "$rfm" 2>/dev/null || true
    wait "$rfm" 2>/dev/null || true
  fi
  if [ "${#pids[@]}" -ge 2 ]; then
    scancel --quiet --user="$(id -un)" 2>/dev/null || true
    for _ in $(seq 50); do
      [ -z "$(squeue -h 2>/dev/null)" ] && break
      sleep 0.1
    done
  fi
  for pid in "${pids[@]}"; do
    $sudo kill "$pid" 2>/dev/null || true
  done
  for pid in "${pids[@]}"; do
    for _ in $(seq 50); do
      $sudo kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    $sudo kill -9 "$pid" 2>/dev/null || true
  done
  # Job steps of a killed slurmd, by their ids.
  for pid in $(ours_left); do
    $sudo kill -9 "$pid" 2>/dev/null || true
  done
  sleep 0.2
  left=$(ours_left)
  if [ -n "$left" ]; then
    echo "slurm-local: still running after the stop:" >&2
    ps -o pid,args -p "$(echo "$left" | paste -sd, -)" >&2 || true
    rc=1
  else
    echo "slurm-local: no slurmctld, slurmscriptd, slurmd, slurmstepd or munged of this run is left (ps)"
  fi
  $sudo rm -rf "$state"
  exit "$rc"
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

host=$(hostname -s)
cpus=$(nproc 2>/dev/null || echo 1)
ctld_port=${GS_SLURMCTLD_PORT:-6817}
slurmd_port=${GS_SLURMD_PORT:-6818}
mkdir -p "$state/spool" "$state/ctld" "$state/munge"
chmod 700 "$state/munge"
# A key of its own: the machine's munge, if any, is left alone.
dd if=/dev/urandom of="$state/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$state/munge/munge.key"
node_lines=""
for i in $(seq "$nodes"); do
  # Every node is this machine (loopback), reached on a port of its own.
  node_lines+="NodeName=n$i NodeHostname=$host NodeAddr=127.0.0.1 Port=$((slurmd_port + i - 1)) CPUs=$cpus State=UNKNOWN"$'\n'
done
cat > "$state/slurm.conf" <<CONF
ClusterName=gridstride-ci
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$state/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool/%n
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.%n.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.%n.log
SlurmctldPort=$ctld_port
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
${node_lines}PartitionName=debug Nodes=n[1-$nodes] Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$state/slurm.conf

say "starting munged, slurmctld and $nodes slurmd (n1..n$nodes) on $host"
$sudo munged --force --socket="$state/munge/munge.socket" --key-file="$state/munge/munge.key" \
  --pid-file="$state/munge/munged.pid" --log-file="$state/munge/munged.log" \
  --seed-file="$state/munge/munged.seed"
pids+=("$(cat "$state/munge/munged.pid")")
$sudo env SLURM_CONF="$SLURM_CONF" slurmctld
for _ in $(seq 50); do [ -s "$state/slurmctld.pid" ] && break; sleep 0.1; done
pids+=("$(cat "$state/slurmctld.pid")")
for i in $(seq "$nodes"); do
  mkdir -p "$state/spool/n$i"
  # Its own hostname namespace: a job on nI sees the hostname nI, as on a
  # real cluster, while the machine's own name is left alone.
  $sudo env SLURM_CONF="$SLURM_CONF" unshare --uts sh -c "hostname n$i && exec slurmd -N n$i"
  for _ in $(seq 50); do [ -s "$state/slurmd.n$i.pid" ] && break; sleep 0.1; done
  pids+=("$(cat "$state/slurmd.n$i.pid")")
done

# The check at the end must see what it checks: every daemon started here.
seen=$(ours_left | grep -c . || true)
if [ "$seen" -lt $((nodes + 2)) ]; then
  echo "slurm-local: the process table shows $seen of the $((nodes + 2)) daemons started" >&2
  exit 1
fi
idle=0
for _ in $(seq 60); do
  idle=$(sinfo -h -N -t idle -o %N 2>/dev/null | sort -u | grep -c . || true)
  [ "$idle" -eq "$nodes" ] && break
  sleep 0.5
done
if [ "$idle" -ne "$nodes" ]; then
  echo "slurm-local: $idle of $nodes nodes idle after 30 s; the states and logs:" >&2
  sinfo -N >&2 || true
  tail -20 "$state/slurmctld.log" "$state"/slurmd.*.log >&2 || true
  exit 1
fi
say "$nodes nodes idle"
sinfo -N
echo "== srun -N$nodes hostname"
srun -N"$nodes" hostname | sort

out=$build/reframe-slurm
rm -rf "$out"
mkdir -p "$out"
# In the background, and waited for: a signal (timeout's TERM, ^C) is then
# handled at once, not when ReFrame has finished.
set +e
(cd "$out" && GRIDSTRIDE=$build/gridstride exec "$venv/bin/reframe" \
   -C "$repo/contrib/reframe/config/sites.py" --system ci-slurm \
   -c "$repo/contrib/reframe/checks" \
   -S GridstrideTable.sizes=0,1,31,32,611,1024,1025,4194304 \
   -S GridstrideBandwidth.bytes=1MiB -S GridstrideBandwidth.reps=5 \
   -S GridstridePitfalls.traps=block-stride,stride-32bit,int-loop,tile-loop \
   --distribute=idle --report-file "$out/report.json" \
   -r --performance-report) &
rfm=$!
wait "$rfm"
rc=$?
rfm=""
set -e
say "ReFrame exited $rc"
echo "== the jobs Slurm ran, per node (slurmctld's log)"
grep -oE 'sched: Allocate JobId=[0-9]+ NodeList=n[0-9]+' "$state/slurmctld.log" |
  awk '{split($4, n, "="); c[n[2]]++} END {for (k in c) print "  " k ": " c[k] " jobs"}' | sort || true
echo "== which test each job was (ReFrame's report)"
"$venv/bin/python" - "$out/report.json" <<'PY' || true
import json, sys
for t in json.load(open(sys.argv[1]))["runs"][0]["testcases"]:
    if t["jobid"]:
        print(f'JobId={t["jobid"]}: {t["display_name"]}: {t["result"]}')
PY
ran=$(grep -c '_job_complete: JobId=[0-9]* done' "$state/slurmctld.log" || true)
say "$ran jobs ran through Slurm"
# JUnit from ReFrame's report: a skipped test as skipped, each with its node.
"$venv/bin/python" "$repo/scripts/junit.py" reframe "$out/report.json" "$out/junit.xml" || true

# The fleet report over every node's results files (ReFrame's output folder).
# Its exit status gates on the tables only: a prediction that did not hold on
# any node fails CI, and two files that collide (exit 2) too; a bandwidth
# figure below its peers is shown (LOW) but does not fail here, since four
# nodes sharing two cores measure each other, not a slow GPU (as ReFrame's
# ci-slurm references have no bounds).
mapfile -t results < <(find "$out/output" -name '*.table.json' -o -name '*.bandwidth.json' | sort)
mapfile -t tables < <(printf '%s\n' "${results[@]}" | grep '\.table\.json$' || true)
say "compare --fleet over ${#results[@]} results files (${#tables[@]} tables)"
set +e
"$build/gridstride" compare --fleet --output "$out/fleet.txt" "${results[@]}"
"$build/gridstride" compare --fleet --output "$out/fleet-tables.txt" "${tables[@]}"
fleet=$?
set -e
cat "$out/fleet.txt" 2>/dev/null || true
say "compare --fleet over the tables exited $fleet"
[ "$rc" -eq 0 ] && rc=$fleet
exit "$rc"
