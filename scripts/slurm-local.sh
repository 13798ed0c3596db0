#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The ReFrame test library through a real Slurm, started for the purpose on
# this machine and removed afterwards:
#
#   scripts/slurm-local.sh [BUILD]     (default: build; runs BUILD/gridstride)
#
# As root (or with sudo): installs Debian's slurm-wlm and munge when missing,
# writes a one-node configuration for this machine's short hostname
# (proctrack/linuxproc, task/none, select/cons_tres, SlurmUser root, no
# accounting) with its state, spool, logs and munge socket in a temporary
# folder, starts munged, slurmctld and slurmd, waits (bounded) for the node
# to be idle, then runs contrib/reframe's tests with --system ci-slurm:
# every test a batch job (sbatch), watched with ReFrame's squeue scheduler
# (the slurm one calls sacct, which needs accounting). On every exit the
# daemons it started are stopped and their folder removed. Prints the jobs
# Slurm ran, from slurmctld's log, and the wall time.
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

state=$(mktemp -d)
pids=()
rfm=""
# shellcheck disable=SC2317  # run by the traps below
stop() {
  local rc=$?
  # ReFrame first (it cancels its own jobs), then anything left in the queue
  # of this private cluster, then the daemons.
  if [ -n "${rfm:-}" ] && kill -0 "$rfm" 2>/dev/null; then
    kill -TERM "$rfm" 2>/dev/null || true
    wait "$rfm" 2>/dev/null || true
  fi
  if [ "${#pids[@]}" -ge 3 ]; then
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
  $sudo rm -rf "$state"
  exit "$rc"
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

host=$(hostname -s)
cpus=$(nproc 2>/dev/null || echo 1)
mkdir -p "$state/spool" "$state/ctld" "$state/munge"
chmod 700 "$state/munge"
# A key of its own: the machine's munge, if any, is left alone.
dd if=/dev/urandom of="$state/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$state/munge/munge.key"
cat > "$state/slurm.conf" <<CONF
ClusterName=gridstride-ci
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$state/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
SlurmctldPort=${GS_SLURMCTLD_PORT:-6817}
SlurmdPort=${GS_SLURMD_PORT:-6818}
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
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$state/slurm.conf

say "starting munged, slurmctld and slurmd for node $host"
$sudo munged --force --socket="$state/munge/munge.socket" --key-file="$state/munge/munge.key" \
  --pid-file="$state/munge/munged.pid" --log-file="$state/munge/munged.log" \
  --seed-file="$state/munge/munged.seed"
pids+=("$(cat "$state/munge/munged.pid")")
$sudo env SLURM_CONF="$SLURM_CONF" slurmctld
for _ in $(seq 50); do [ -s "$state/slurmctld.pid" ] && break; sleep 0.1; done
pids+=("$(cat "$state/slurmctld.pid")")
$sudo env SLURM_CONF="$SLURM_CONF" slurmd
for _ in $(seq 50); do [ -s "$state/slurmd.pid" ] && break; sleep 0.1; done
pids+=("$(cat "$state/slurmd.pid")")

node_state=""
for _ in $(seq 60); do
  node_state=$(sinfo -h -n "$host" -o %T 2>/dev/null || true)
  [ "$node_state" = "idle" ] && break
  sleep 0.5
done
if [ "$node_state" != "idle" ]; then
  echo "slurm-local: node $host is '${node_state:-unknown}', not idle, after 30 s; the logs:" >&2
  tail -20 "$state/slurmctld.log" "$state/slurmd.log" >&2 || true
  exit 1
fi
say "node $host idle"
sinfo

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
   --report-file "$out/report.json" -r --performance-report) &
rfm=$!
wait "$rfm"
rc=$?
rfm=""
set -e
say "ReFrame exited $rc"
echo "== the jobs Slurm ran (slurmctld's log)"
grep -E 'sched: Allocate JobId|backfill: Started JobId|_job_complete: JobId=[0-9]+ done' \
  "$state/slurmctld.log" || true
echo "== which test each job was (ReFrame's report)"
"$venv/bin/python" - "$out/report.json" <<'PY' || true
import json, sys
for t in json.load(open(sys.argv[1]))["runs"][0]["testcases"]:
    if t["jobid"]:
        print(f'JobId={t["jobid"]}: {t["display_name"]}: {t["result"]}')
PY
ran=$(grep -c '_job_complete: JobId=[0-9]* done' "$state/slurmctld.log" || true)
say "$ran jobs ran through Slurm"
exit "$rc"
