# No process outlives hprun (issue 9, item 5): not when hprun is SIGKILLed mid-run, not a daemon
# that left the run's process group with setsid() (holding stdout, or not; with its environment
# cleared, or not), not after a crash or a timeout; SIGTERM to hprun acts like Ctrl-C; and nothing
# is written outside the session folder.
#
# Every process hprun starts, the watchdog included, inherits ESCAPE_MARK=$T from hprun's
# environment (unless it clears it): marked_alive lists the live ones.
. "$(dirname "$0")/lib.sh"

DAEMONAPP="$BUILD/apps/daemonapp"
W="$T/work"
mkdir -p "$W"

# The pids of live (not zombie) processes whose environment holds ESCAPE_MARK=$T.
marked_alive() {
  for d in /proc/[0-9]*; do
    { tr '\0' '\n' <"$d/environ"; } 2>/dev/null | grep -qxF "ESCAPE_MARK=$T" || continue
    st=$(sed -n 's/^State:[[:space:]]*//p' "$d/status" 2>/dev/null) || continue
    case "$st" in "" | Z*) continue ;; esac
    echo "${d#/proc/}"
  done
}

# wait_gone SECONDS PIDFILE: every pid in PIDFILE and every marked process is gone within SECONDS
# (tenths are checked), else the test fails naming what is left.
wait_gone() {
  n=0
  while [ "$n" -lt $(($1 * 10)) ]; do
    if [ -z "$(marked_alive)" ] && (assert_pids_gone "$2") 2>/dev/null; then
      return 0
    fi
    sleep 0.1
    n=$((n + 1))
  done
  assert_pids_gone "$2"
  left=$(marked_alive)
  [ -z "$left" ] || fail "processes of the session still alive after $1 s: $left"
}

# A plan in $W running the given app command (a YAML flow list), one pass, no profiler.
plan() {
  cat >"$W/plan.yaml" <<YAML
name: esc
output: sessions
repeat: ${REPEAT:-1}
app:
  command: $1
  timeout: ${TIMEOUT:-30s}
metrics: [mean_kernel_ms]
passes: [normal]
YAML
  rm -rf "$W/sessions" "$T/pids"
  : >"$T/pids"
  touch "$T/marker"
}

# Nothing new in $W but the session folder (the plan was written before the marker).
nothing_outside() {
  extra=$(find "$W" -mindepth 1 -newer "$T/marker" ! -path "$W/sessions" ! -path "$W/sessions/*")
  [ -z "$extra" ] || fail "$1: files written outside the session folder: $extra"
}

# hprun in $W with the mark, output to $T/out and $T/err.
hprun_marked() {
  (cd "$W" && ESCAPE_MARK="$T" "$HPRUN" --quiet "$@" plan.yaml)
}

# (a) SIGKILL to hprun mid-run: the watchdog stops the app, its grandchild and an escaped daemon.
for app in "[$FAKEAPP, --hang, --grandchild]" "[$DAEMONAPP, --pidfile, $T/pids, --then, hang]"; do
  plan "$app"
  set +e
  (cd "$W" && HPRUN_FAKE_PIDFILE="$T/pids" ESCAPE_MARK="$T" exec "$HPRUN" --quiet plan.yaml) \
    >"$T/out" 2>"$T/err" &
  pid=$!
  n=0
  while [ ! -s "$T/pids" ] && [ "$n" -lt 100 ]; do sleep 0.05; n=$((n + 1)); done
  [ -s "$T/pids" ] || fail "the app did not start: $(cat "$T/err")"
  sleep 0.2
  [ -n "$(marked_alive)" ] || fail "no process of the run found before the kill"
  kill -KILL "$pid"
  wait "$pid"
  code=$?
  set -e
  assert_eq "$code" 137 "hprun's status after SIGKILL"
  wait_gone 2 "$T/pids"
  grep -q "^hprun-watchdog: hprun ended in the middle of a run: stopped 2 processes of the run$" \
    "$T/err" || fail "the watchdog did not say what it stopped: $(cat "$T/err")"
  nothing_outside "SIGKILL"
done
ok "SIGKILL to hprun: the run's processes are gone within 2 s"

# (b) An app that leaves a setsid() daemon behind (holding stdout, with stdout closed, and
# without its environment and deaf to SIGTERM): the session neither stalls nor leaves it.
for extra in "" ", --close-stdout" ", --clean-env, --ignore-term"; do
  REPEAT=2 plan "[$DAEMONAPP, --pidfile, $T/pids$extra]"
  start=$(date +%s)
  expect_exit 0 hprun_marked
  end=$(date +%s)
  [ $((end - start)) -le 4 ] || fail "a daemon$extra stalled the session: $((end - start)) s"
  assert_eq "$(wc -l <"$T/pids" | tr -d ' ')" 2 "daemons started$extra"
  wait_gone 1 "$T/pids"
  S=$(session_dir "$W/sessions")
  assert_eq "$(json_get "$S/summary.json" "sum(1 for r in d['passes'][0]['runs'] if r['ok'])")" 2 \
    "runs measured$extra"
  grep -q "daemonapp: daemon started" "$S/normal/1/stdout.txt" || fail "stdout.txt lost its lines"
  grep -q "^hprun: run normal/1 left 1 process behind: killed$" "$T/err" ||
    { cat "$T/err"; fail "the session must say the run left a process behind ($extra)"; }
  nothing_outside "daemon$extra"
done
ok "escaped daemons are killed at the end of their run, without stalling the session"

# (c) A crash (SIGSEGV) after starting a daemon, and (d) a hang stopped at its timeout.
plan "[$DAEMONAPP, --pidfile, $T/pids, --then, segv]"
expect_exit 3 hprun_marked
wait_gone 1 "$T/pids"
S=$(session_dir "$W/sessions")
assert_eq "$(json_get "$S/summary.json" "d['passes'][0]['runs'][0]['signal']")" 11 "SIGSEGV"
nothing_outside "crash"
ok "a crashing app leaves nothing behind"

TIMEOUT=1s plan "[$DAEMONAPP, --pidfile, $T/pids, --then, hang]"
expect_exit 3 hprun_marked --grace 1
grep -q "timed out after 1 s" "$T/err" || fail "no timeout message: $(cat "$T/err")"
wait_gone 1 "$T/pids"
nothing_outside "timeout"
ok "a hanging app leaves nothing behind"

# (e) SIGTERM to hprun is Ctrl-C: the run is stopped, what was measured is kept, exit 130.
REPEAT=50 plan "[$FAKEAPP, --sleep, \"300\"]"
set +e
(cd "$W" && ESCAPE_MARK="$T" exec "$HPRUN" --quiet plan.yaml) >"$T/out" 2>"$T/err" &
pid=$!
sleep 1
kill -TERM "$pid"
wait "$pid"
code=$?
set -e
assert_eq "$code" 130 "exit status after SIGTERM"
grep -q "SIGTERM received" "$T/err" || fail "no SIGTERM message: $(cat "$T/err")"
S=$(session_dir "$W/sessions")
assert_eq "$(json_get "$S/summary.json" "d['interrupted']")" True "interrupted"
wait_gone 1 "$T/pids"
nothing_outside "SIGTERM"
ok "SIGTERM acts like SIGINT"

# A normal session: the watchdog ends with hprun, and nothing is written outside the session.
plan "[$FAKEAPP, --noise, \"0\", --sleep, \"1\"]"
expect_exit 0 hprun_marked
left=$(marked_alive)
[ -z "$left" ] || fail "processes outlived a normal session: $left"
! grep -q "hprun-watchdog" "$T/err" || fail "the watchdog spoke after a normal session"
nothing_outside "normal"
ok "a normal session leaves no watchdog behind"
