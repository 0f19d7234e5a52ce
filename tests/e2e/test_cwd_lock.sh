# Two sessions on one app.cwd would take each other's files: the second refuses to start (exit 2),
# naming the first one's pid, unless runs start in their own folders (`app.workdir: run`). The
# lock is an flock on the folder app.cwd itself: nothing is written there, and a SIGKILLed
# session leaves no lock that holds.
. "$(dirname "$0")/lib.sh"

P="$T/app"
mkdir -p "$P"
cat >"$P/slow.sh" <<'SH'
[ -z "${MARK:-}" ] || touch "$MARK"
[ -z "${SLOW:-}" ] || sleep "$SLOW"
echo "m=1"
SH
plan() { # NAME [WORKDIR]
  cat >"$P/$1.yaml" <<YAML
name: $1
output: $T/sessions
repeat: 1
warmup: 0
app:
  command: sh $P/slow.sh
${2:+  workdir: $2}
metrics: [m]
passes: [normal]
YAML
}
plan a; plan b; plan c run
wait_lock() {
  i=0
  while [ ! -e "$T/started" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
  [ -e "$T/started" ] || fail "session a did not start its run"
  rm -f "$T/started"
}

MARK="$T/started" SLOW=4 "$HPRUN" --quiet "$P/a.yaml" >"$T/a.out" 2>&1 &
A=$!
wait_lock
expect_exit 2 "$HPRUN" --quiet "$P/b.yaml"
grep -q "another hprun session (pid $A) is running in $P" "$T/err" || fail "b: $(cat "$T/err")"
[ ! -e "$T/sessions" ] || ! ls "$T/sessions" | grep -q '^b-' || fail "b made a session folder"
expect_exit 0 "$HPRUN" --quiet "$P/c.yaml"
wait "$A" || fail "session a failed: $(cat "$T/a.out")"
[ "$(ls -A "$P" | sort | tr '\n' ' ')" = "a.yaml b.yaml c.yaml slow.sh " ] ||
  fail "something was left in app.cwd: $(ls -A "$P")"
expect_exit 0 "$HPRUN" --quiet "$P/b.yaml"
ok "a second session on one app.cwd refuses to start, unless app.workdir: run"

# A SIGKILLed session's lock file stays, but holds nothing: the next session starts.
MARK="$T/started" SLOW=30 "$HPRUN" --quiet "$P/a.yaml" >"$T/a.out" 2>&1 &
A=$!
wait_lock
kill -9 "$A"
wait "$A" 2>/dev/null || true
expect_exit 0 "$HPRUN" --quiet "$P/b.yaml"
ok "the lock of a SIGKILLed session does not hold"
