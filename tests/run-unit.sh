#!/bin/sh
# Runs every cmocka unit-test program given as an argument and prints one closing line that CI reads.
# Each program's own output (cmocka's [ RUN ] / [ OK ] lines) is shown as it comes.
set -u
pass=0; fail=0; failed=""
for t in "$@"; do
  if "$t"; then pass=$((pass + 1)); else fail=$((fail + 1)); failed="$failed $t"; fi
done
echo "unit: $pass passed, $fail failed"
[ -n "${COUNTS:-}" ] && echo "$pass $fail" >"$COUNTS"
[ "$fail" = 0 ] || { echo "unit: failed programs:$failed" >&2; exit 1; }
