#!/bin/sh
# A real one-node Slurm cluster for the tests, owned by one folder: munged, slurmctld and slurmd run
# as background processes of root with their configuration, state, spool, sockets and logs under
# DIR, on ports derived from DIR (so several checkouts on one machine do not clash). Nothing outside
# DIR is written and no system service is touched.
#
#   sh tests/cluster/slurm.sh start DIR   write DIR/slurm.conf, start the daemons, wait until the node
#                                         is idle; on success DIR/env.sh sets SLURM_CONF; on failure
#                                         print the daemons' logs and exit 1 (DIR/failed says why)
#   sh tests/cluster/slurm.sh stop DIR    stop the daemons by their PIDs (DIR/*.pid), then cancel nothing
#                                         else: jobs die with slurmd's steps
#   sh tests/cluster/slurm.sh logs DIR    print the daemons' logs (for a failing test)
#
# Why each setting is what it is: docs/cluster.md, section "CI".
set -u

cmd=${1:-}
DIR=${2:-}
[ -n "$cmd" ] && [ -n "$DIR" ] || { echo "usage: slurm.sh start|stop|logs DIR" >&2; exit 2; }

logs() {
  for f in "$DIR"/log/munged.log "$DIR"/log/slurmctld.log "$DIR"/log/slurmd.log; do
    [ -f "$f" ] || continue
    echo "---- $f (last 40 lines)"
    tail -n 40 "$f"
  done
}

stop() {
  for d in slurmd slurmctld munged; do
    f="$DIR/run/$d.pid"
    [ -f "$f" ] || continue
    pid=$(cat "$f")
    # Only a process that still runs the daemon we started: a recycled PID is left alone.
    if [ -n "$pid" ] && grep -q "$d" "/proc/$pid/cmdline" 2>/dev/null; then
      kill "$pid" 2>/dev/null
      i=0
      while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
      kill -9 "$pid" 2>/dev/null
    fi
    rm -f "$f"
  done
}

fail() {
  echo "cluster: $*" >&2
  echo "$*" >"$DIR/failed"
  logs >&2
  stop
  exit 1
}

# Two free TCP ports, starting from a number derived from DIR: the same folder gets the same ports
# while they are free, another folder (another checkout, CI's clone) most likely others.
ports() {
  python3 - "$DIR" <<'PY'
import socket, sys, zlib
base = 20000 + zlib.crc32(sys.argv[1].encode()) % 20000
def free(p):
    s = socket.socket()
    try:
        s.bind(("", p)); return True
    except OSError:
        return False
    finally:
        s.close()
p = base
while not (free(p) and free(p + 1)):
    p += 2
    if p > 60000: p = 20000
print(p, p + 1)
PY
}

start() {
  for b in munged slurmctld slurmd sinfo srun; do
    command -v "$b" >/dev/null 2>&1 || PATH="$PATH:/usr/sbin"
    command -v "$b" >/dev/null 2>&1 || fail "$b not found (make deps installs slurm-wlm and munge)"
  done
  stop
  rm -rf "$DIR"
  mkdir -p "$DIR/munge" "$DIR/run" "$DIR/log" "$DIR/state" "$DIR/spool" || exit 1
  DIR=$(cd "$DIR" && pwd)
  chmod 700 "$DIR/munge"
  host=$(hostname -s)
  cpus=$(nproc)
  set -- $(ports)
  ctld_port=$1 slurmd_port=$2

  # munged refuses a key that others can read, and a socket folder that others can write.
  dd if=/dev/urandom of="$DIR/munge/munge.key" bs=1024 count=1 2>/dev/null
  chmod 400 "$DIR/munge/munge.key"
  sock="$DIR/munge/munge.socket"
  # In the foreground, like slurmctld and slurmd below: a daemon that forks away leaves the test
  # run's process group, and a killed `make check` (a CI timeout) would leave it running.
  munged --foreground --force --socket="$sock" --key-file="$DIR/munge/munge.key" \
    --pid-file="$DIR/munge/munged.pid" --log-file="$DIR/log/munged.log" \
    --seed-file="$DIR/munge/munged.seed" </dev/null >>"$DIR/log/munged.log" 2>&1 &
  echo $! >"$DIR/run/munged.pid"
  i=0
  while [ ! -S "$sock" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
  [ -S "$sock" ] || fail "munged did not start"

  cat >"$DIR/slurm.conf" <<CONF
# One-node test cluster written by tests/cluster/slurm.sh; see docs/cluster.md ("CI").
ClusterName=hprun-test
SlurmctldHost=$host
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool/slurmd-%n
SlurmctldPidFile=$DIR/run/slurmctld.pidfile
SlurmdPidFile=$DIR/run/slurmd.pidfile
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=2
KillWait=2
UnkillableStepTimeout=30
MessageTimeout=10
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=dcu Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
CONF
  SLURM_CONF="$DIR/slurm.conf"
  export SLURM_CONF
  echo "SLURM_CONF='$SLURM_CONF'; export SLURM_CONF" >"$DIR/env.sh"

  # -D keeps each daemon in the foreground of its own background process, so $! is its PID.
  slurmctld -D -c -f "$SLURM_CONF" >>"$DIR/log/slurmctld.out" 2>&1 &
  echo $! >"$DIR/run/slurmctld.pid"
  slurmd -D -N "$host" -f "$SLURM_CONF" >>"$DIR/log/slurmd.out" 2>&1 &
  echo $! >"$DIR/run/slurmd.pid"

  i=0
  while :; do
    state=$(sinfo -h -N -n "$host" -o '%t' 2>/dev/null | head -n 1)
    [ "$state" = idle ] && break
    for d in slurmctld slurmd; do
      kill -0 "$(cat "$DIR/run/$d.pid")" 2>/dev/null || fail "$d exited while starting"
    done
    i=$((i + 1))
    [ $i -ge 300 ] && fail "node $host not idle after 30 s (state: ${state:-none})"
    sleep 0.1
  done
  rm -f "$DIR/failed"
  echo "cluster: node $host idle (slurmctld port $ctld_port, slurmd port $slurmd_port, $cpus CPUs)"
}

case "$cmd" in
  start) start ;;
  stop) stop ;;
  logs) logs ;;
  *) echo "usage: slurm.sh start|stop|logs DIR" >&2; exit 2 ;;
esac
