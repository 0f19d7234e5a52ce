# Plan limits (issue 9): a plan too deep or too large is refused before libyaml parses it, quickly
# and with exit 2; a name the session needs for its own files is refused at its line; a folder
# given as the plan is named with the system's reason.
. "$(dirname "$0")/lib.sh"

head3='app: {command: ./app}
metrics: [m]
passes: [normal]'

# 100,000 levels of flow nesting: libyaml alone spends many seconds on this.
{ echo "$head3"; printf 'x: '; head -c 100000 /dev/zero | tr '\0' '['; echo; } >"$T/deep.yaml"
t0=$(date +%s%N)
expect_exit 2 "$HPRUN" check "$T/deep.yaml"
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
[ "$ms" -lt 2000 ] || fail "a 100,000-deep plan took $ms ms to refuse (at most 2000)"
grep -q "deep.yaml:4:67: error: nesting deeper than 64 levels" "$T/err" || { cat "$T/err"; fail "deep flow plan"; }
# `run` refuses it the same way, and creates nothing.
expect_exit 2 "$HPRUN" run "$T/deep.yaml"
grep -q "nesting deeper than 64 levels" "$T/err" || { cat "$T/err"; fail "run: deep plan"; }
[ ! -e "$T/hprun-out" ] || fail "a refused plan must not create a session folder"

# The same depth in block sequences, one `- ` inside another.
{ echo "$head3"; printf 'x:\n  '; i=0; while [ $i -lt 100000 ]; do printf -- '- - - - - - - - - - '; i=$((i + 10)); done; echo a; } >"$T/deep-block.yaml"
t0=$(date +%s%N)
expect_exit 2 "$HPRUN" check "$T/deep-block.yaml"
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
[ "$ms" -lt 2000 ] || fail "a 100,000-deep block plan took $ms ms to refuse (at most 2000)"
grep -q "deep-block.yaml:5:129: error: nesting deeper than 64 levels" "$T/err" || { cat "$T/err"; fail "deep block plan"; }

# 2 MiB of plan (a valid plan padded with a comment) is over the 1 MiB limit.
{ echo "$head3"; printf '#'; head -c $((2 * 1048576 - ${#head3} - 3)) /dev/zero | tr '\0' 'x'; echo; } >"$T/big.yaml"
[ "$(wc -c <"$T/big.yaml")" = 2097152 ] || fail "big.yaml is not 2 MiB"
expect_exit 2 "$HPRUN" check "$T/big.yaml"
grep -qx "$T/big.yaml: error: the plan is 2 MiB; plans are limited to 1 MiB" "$T/err" || { cat "$T/err"; fail "2 MiB plan"; }
expect_exit 2 "$HPRUN" "$T/big.yaml"
grep -q "plans are limited to 1 MiB" "$T/err" || { cat "$T/err"; fail "run: 2 MiB plan"; }

# A pass named like one of the session's own files.
cat >"$T/reserved.yaml" <<'YAML'
app: {command: ./app}
metrics: [m]
passes:
  - normal
  - name: summary.json
    mode: stats
YAML
expect_exit 2 "$HPRUN" check "$T/reserved.yaml"
grep -q "reserved.yaml:5:11: error: pass name 'summary.json' is reserved for the session's own files" "$T/err" \
  || { cat "$T/err"; fail "reserved pass name"; }
expect_exit 2 "$HPRUN" "$T/reserved.yaml"
[ ! -e "$T/hprun-out" ] || fail "a refused plan must not create a session folder"

# A folder given as the plan: the system's reason, not "input/output error"; a usage error (2).
mkdir "$T/plans"
expect_exit 2 "$HPRUN" check "$T/plans"
grep -qx "$T/plans: error: cannot read: Is a directory" "$T/err" || { cat "$T/err"; fail "folder as plan"; }
expect_exit 2 "$HPRUN" run "$T/plans"
grep -q "cannot read: Is a directory" "$T/err" || { cat "$T/err"; fail "run: folder as plan"; }

# A missing plan names the file and the reason.
expect_exit 2 "$HPRUN" check "$T/nope.yaml"
grep -qx "$T/nope.yaml: error: cannot read: No such file or directory" "$T/err" || { cat "$T/err"; fail "missing plan"; }

# An unreadable plan (only testable as another user than root, who reads anything): exit 4 for
# `run` (docs/ci.md: a file could not be read), 2 for `check`.
if [ "$(id -u)" != 0 ]; then
  echo "$head3" >"$T/locked.yaml"
  chmod 000 "$T/locked.yaml"
  expect_exit 2 "$HPRUN" check "$T/locked.yaml"
  grep -qx "$T/locked.yaml: error: cannot read: Permission denied" "$T/err" || { cat "$T/err"; fail "unreadable plan"; }
  expect_exit 4 "$HPRUN" run "$T/locked.yaml"
fi
ok "plan limits"
