# Issue 10 items 5, 7 and 8: the built-in wall_ms metric (a plan may have no metrics at all), the
# app's prepare and cleanup hooks around each run and outside its timing, and <name>-latest, the
# stable link to the newest complete session.
. "$(dirname "$0")/lib.sh"

# A plan with no metrics: wall_ms is the only, hence primary, metric, with an overhead ratio.
# The prepare sleeps 0.5 s and counts its calls; neither it nor the cleanup is timed.
cat >"$T/plan.yaml" <<YAML
name: wall
output: sessions
repeat: 2
app:
  command: [$FAKEAPP, --sleep, "10"]
  prepare: "sh -c 'sleep 0.5; echo x >>$T/prepared; echo prep in \$HPRUN_RUN_DIR'"
  cleanup: [sh, -c, "echo x >>$T/cleaned; echo clean >&2"]
profiler: {path: $FAKE_HIPPROF}
passes: [normal, stats]
YAML
expect_exit 0 "$HPRUN" --quiet "$T/plan.yaml"
L="$T/sessions/wall-latest"
[ -L "$L" ] || fail "no wall-latest link"
J="$L/summary.json"
assert_eq "$(pass_get "$J" normal "[m['name'] for m in p['metrics']]")" "['wall_ms']" "metrics"
assert_eq "$(pass_get "$J" normal "p['metrics'][0]['n']")" 2 "wall_ms n"
assert_eq "$(pass_get "$J" normal "p['metrics'][0]['unit']")" ms "wall_ms unit"
med=$(pass_get "$J" normal "p['metrics'][0]['median']")
"$PY" -c "import sys; sys.exit(0 if 10 <= float(sys.argv[1]) < 300 else 1)" "$med" ||
  fail "wall_ms median $med is not a 10 ms app's time (the 0.5 s prepare must not count)"
ratio=$(pass_get "$J" stats "p['metrics'][0]['overhead']['ratio']")
"$PY" -c "import sys; sys.exit(0 if float(sys.argv[1]) > 0 else 1)" "$ratio" || fail "ratio $ratio"
ok "no metrics: wall_ms is primary, with statistics and a ratio"

assert_eq "$(wc -l <"$T/prepared" | tr -d ' ')" 4 "prepare runs once per run"
assert_eq "$(wc -l <"$T/cleaned" | tr -d ' ')" 4 "cleanup runs once per run"
R="$L/normal/1"
grep -q "prep in $(readlink -f "$T/sessions")/wall-.*/normal/1" "$R/prepare.stdout.txt" ||
  fail "prepare's output (with HPRUN_RUN_DIR) is not in the run folder: $(cat "$R/prepare.stdout.txt")"
assert_eq "$(cat "$R/cleanup.stderr.txt")" clean "cleanup's stderr"
[ -f "$R/prepare.stderr.txt" ] && [ -f "$R/cleanup.stdout.txt" ] || fail "hook files missing"
ok "prepare and cleanup run once per run, outside the timing, logging into the run folder"

# A user metric keeps its place as the primary; wall_ms follows it.
cat >"$T/plan2.yaml" <<YAML
name: wall
output: sessions
app: {command: [$FAKEAPP, --sleep, "10"]}
metrics: [mean_kernel_ms]
passes: [normal]
YAML
sleep 1 # a new session folder name (they are stamped to the second)
expect_exit 0 "$HPRUN" --quiet "$T/plan2.yaml"
J2="$L/summary.json"
assert_eq "$(pass_get "$J2" normal "[m['name'] for m in p['metrics']]")" "['mean_kernel_ms', 'wall_ms']" \
  "user metric then wall_ms"
assert_eq "$(pass_get "$J2" normal "sorted(p['runs'][0]['values'])")" "['mean_kernel_ms', 'wall_ms']" \
  "run values"
[ "$(readlink "$L")" != "$(basename "$(dirname "$J")")" ] || true
newest=$(ls -d "$T"/sessions/wall-2* | sort | tail -1)
assert_eq "$(readlink "$L")" "$(basename "$newest")" "wall-latest points at the newest session"
ok "a user metric also gets wall_ms; wall-latest moved to the newest session"

# compare accepts the link.
expect_exit 0 "$HPRUN" compare "$L" "$L"
ok "compare NAME-latest NAME-latest"

# An interrupted session does not move the link.
cat >"$T/plan3.yaml" <<YAML
name: wall
output: sessions
app: {command: [$FAKEAPP, --sleep, "5000"]}
passes: [normal]
YAML
sleep 1
"$HPRUN" --quiet "$T/plan3.yaml" >"$T/out3" 2>"$T/err3" &
pid=$!
sleep 1
kill -INT "$pid"
set +e
wait "$pid"
set -e
[ "$(ls -d "$T"/sessions/wall-2* | wc -l)" = 3 ] || fail "the interrupted session has no folder"
assert_eq "$(readlink "$L")" "$(basename "$newest")" "an interrupted session leaves wall-latest"
ok "an interrupted session does not move wall-latest"

# A failing prepare fails its run, with the reason, and the app is not started.
cat >"$T/plan4.yaml" <<YAML
name: bad
output: sessions
app:
  command: [$FAKEAPP, --touch, started]
  prepare: [sh, -c, "echo no cache >&2; exit 7"]
passes: [normal]
YAML
expect_exit 3 "$HPRUN" --quiet "$T/plan4.yaml"
# The baseline's first run failed, so the session stopped (fail fast) and bad-latest never moved.
[ ! -e "$T/sessions/bad-latest" ] || fail "an incomplete session moved bad-latest"
B4=$(ls -d "$T"/sessions/bad-2*)
J4="$B4/summary.json"
err=$(pass_get "$J4" normal "p['runs'][0]['error']")
case "$err" in *"prepare"*"exit status 7"*) ;; *) fail "run error: $err" ;; esac
assert_eq "$(pass_get "$J4" normal "p['runs'][0]['ok']")" False "run not ok"
[ ! -e "$B4/normal/1/started" ] && [ ! -e "$T/started" ] || fail "the app started after a failed prepare"
assert_eq "$(cat "$B4/normal/1/prepare.stderr.txt")" "no cache" "prepare stderr"
ok "a failing prepare fails the run with the reason"
