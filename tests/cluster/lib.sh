# Sourced by the end-to-end tests that need the one-node Slurm cluster (after tests/e2e/lib.sh).
# tests/e2e/run.sh starts one cluster for all of them (HPRUN_CLUSTER_DIR); a test run on its own
# starts its own and stops it when it ends. When the daemons could not start, the test FAILS with
# their logs: a machine without a working Slurm never passes these tests by skipping them.

CLUSTER_SH="$(cd "$(dirname "$0")/../cluster" && pwd)/slurm.sh"

cluster_use() {
  if [ -n "${HPRUN_CLUSTER_DIR:-}" ]; then
    if [ ! -f "$HPRUN_CLUSTER_DIR/env.sh" ] || [ -f "$HPRUN_CLUSTER_DIR/failed" ]; then
      sh "$CLUSTER_SH" logs "$HPRUN_CLUSTER_DIR" >&2
      fail "the test cluster did not start: $(cat "$HPRUN_CLUSTER_DIR/failed" 2>/dev/null || echo 'no env.sh')"
    fi
  else
    HPRUN_CLUSTER_DIR="$BUILD/cluster-$(basename "$0" .sh)"
    trap 'rc=$?; sh "$CLUSTER_SH" stop "$HPRUN_CLUSTER_DIR"; rm -rf "$T"; exit $rc' EXIT
    sh "$CLUSTER_SH" start "$HPRUN_CLUSTER_DIR" || fail "the test cluster did not start (logs above)"
  fi
  . "$HPRUN_CLUSTER_DIR/env.sh"
  PATH="$PATH:/usr/sbin"
  # A cluster started earlier must still answer.
  state=$(sinfo -h -o %t 2>&1) || {
    sh "$CLUSTER_SH" logs "$HPRUN_CLUSTER_DIR" >&2
    fail "the test cluster in $HPRUN_CLUSTER_DIR does not answer: $state"
  }
}

# No job of ours may be queued or running: squeue lists none.
assert_no_jobs() {
  left=$(squeue -h -o '%i %j %T' 2>&1) || fail "squeue failed: $left"
  [ -z "$left" ] || fail "jobs left in squeue: $left"
}

# Waits up to $1 seconds until squeue is empty (a cancelled job leaves the queue after MinJobAge).
wait_no_jobs() {
  i=0
  while [ -n "$(squeue -h -t PD,R,CF,S -o %i 2>/dev/null)" ] && [ $i -lt $(($1 * 10)) ]; do
    sleep 0.1; i=$((i + 1))
  done
}
