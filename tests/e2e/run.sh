#!/bin/sh
# Runs every end-to-end test (tests/e2e/test_*.sh) against the built hprun and the test doubles.
# Usage: sh tests/e2e/run.sh BUILD_DIR. Prints one closing line that CI reads.
set -u
BUILD=$(cd "${1:-build}" && pwd)
export BUILD
HERE=$(cd "$(dirname "$0")" && pwd)
# The Slurm tests share one one-node cluster (tests/cluster/slurm.sh), started here once and stopped
# when the tests end. If it cannot start, those tests fail with the daemons' logs (tests/cluster/lib.sh).
HPRUN_CLUSTER_DIR="$BUILD/cluster"
export HPRUN_CLUSTER_DIR
trap 'sh "$HERE/../cluster/slurm.sh" stop "$HPRUN_CLUSTER_DIR"' EXIT
trap 'exit 130' INT TERM
sh "$HERE/../cluster/slurm.sh" start "$HPRUN_CLUSTER_DIR" >"$BUILD/cluster.log" 2>&1 ||
  echo "e2e: the test cluster did not start (the Slurm tests will fail): $BUILD/cluster.log"
pass=0; fail=0; failed=""
for t in "$HERE"/test_*.sh; do
  name=$(basename "$t" .sh)
  log=$(mktemp)
  if sh "$t" >"$log" 2>&1; then
    echo "[  PASSED  ] e2e $name"
    pass=$((pass + 1))
  else
    echo "[  FAILED  ] e2e $name; its output:"
    sed 's/^/    /' "$log" | tail -n 60
    fail=$((fail + 1)); failed="$failed $name"
  fi
  rm -f "$log"
done
echo "e2e: $pass passed, $fail failed"
[ -n "${COUNTS:-}" ] && echo "$pass $fail" >"$COUNTS"
[ "$fail" = 0 ]
