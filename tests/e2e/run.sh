#!/bin/sh
# Runs every end-to-end test (tests/e2e/test_*.sh) against the built hprun and the test doubles.
# Usage: sh tests/e2e/run.sh BUILD_DIR. Prints one closing line that CI reads.
set -u
BUILD=$(cd "${1:-build}" && pwd)
export BUILD
HERE=$(cd "$(dirname "$0")" && pwd)
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
