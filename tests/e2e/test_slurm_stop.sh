# launcher: slurm, stopping: a run that times out and a Ctrl-C to hprun cancel what they started in
# Slurm (its own job, or the step and the session's allocation), so that squeue is empty after, and
# the app's processes are gone. Against the real one-node Slurm of tests/cluster/slurm.sh.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../cluster/lib.sh"
cluster_use
RANKAPP="$BUILD/apps/rankapp"
# The pid file is not in the plan's folder (the runs' cwd), whose new files move into the run folder.
mkdir -p "$T/p"

# Our jobs only: every job hprun starts is named hprun-<session folder>...
our_jobs() { squeue -h -o '%i %j %T' | grep " hprun-$1" || true; }

# 1. A timeout: each run is its own job (no allocation); the hanging step is cancelled.
cat >"$T/timeout.yaml" <<YAML
name: sto
output: sessions
app:
  command: [$RANKAPP, --hang, --pidfile, $T/p/pids]
  timeout: 2s
launcher: {kind: slurm, ntasks: 1, time: 5m}
metrics:
  - {name: time_ms, pattern: 'time_ms=([0-9.]+)'}
passes: [normal]
YAML
start=$(date +%s)
expect_exit 3 "$HPRUN" --quiet --grace 1 "$T/timeout.yaml"
[ $(($(date +%s) - start)) -lt 30 ] || fail "stopping took too long"
S=$(session_dir "$T/sessions")
assert_eq "$(json_get "$S/summary.json" "d['passes'][0]['runs'][0]['timed_out']")" True "timed out"
grep -q 'SLURM_JOB_ID=[0-9]' "$S/normal/1/stdout.txt" || fail "the run's stdout names no job"
wait_no_jobs 10
[ -z "$(our_jobs sto)" ] || fail "a job was left after the timeout: $(our_jobs sto)"
assert_no_jobs
[ -s "$T/p/pids" ] || fail "the app never started"
sleep 0.5
assert_pids_gone "$T/p/pids"
ok "a timeout cancels the run's job"

# 2. Ctrl-C: hprun holds an allocation (allocation: session) and a step runs in it; SIGINT cancels
# the step and releases the allocation.
rm -f "$T/p/pids"
cat >"$T/int.yaml" <<YAML
name: sint
output: sessions2
repeat: 3
app:
  command: [$RANKAPP, --hang, --pidfile, $T/p/pids]
launcher: {kind: slurm, ntasks: 1, allocation: session}
metrics:
  - {name: time_ms, pattern: 'time_ms=([0-9.]+)'}
passes: [normal]
YAML
set +e
"$HPRUN" --quiet --grace 1 "$T/int.yaml" >"$T/out.txt" 2>"$T/err.txt" &
pid=$!
i=0
# Wait until the step runs (its app wrote its pid), 20 s at most.
while [ ! -s "$T/p/pids" ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
[ -n "$(squeue -h -s -o %i)" ] || { kill "$pid"; fail "no step running: $(cat "$T/err.txt")"; }
kill -INT "$pid"
wait "$pid"
code=$?
set -e
[ "$code" = 130 ] || { cat "$T/err.txt"; fail "expected exit 130, got $code"; }
S=$(session_dir "$T/sessions2")
assert_eq "$(json_get "$S/summary.json" "d['passes'][0]['runs'][0]['interrupted']")" True "interrupted"
grep -q 'Granted job allocation' "$S/salloc.txt" || fail "no allocation was made"
wait_no_jobs 10
[ -z "$(squeue -h -s -o %i)" ] || fail "a step was left running: $(squeue -h -s)"
assert_no_jobs
sleep 0.5
assert_pids_gone "$T/p/pids"
ok "SIGINT cancels the step and releases the allocation"

# 3. Fail-fast: the baseline's first run fails (the app is `false`),
# the session stops, and its allocation is released.
cat >"$T/ff.yaml" <<YAML
name: sff
output: sessions3
repeat: 3
app:
  command: ["false"]
launcher: {kind: slurm, allocation: session}
metrics:
  - {name: time_ms, pattern: 'time_ms=([0-9.]+)'}
passes: [normal]
YAML
expect_exit 3 "$HPRUN" --quiet "$T/ff.yaml"
S=$(session_dir "$T/sessions3")
assert_eq "$(json_get "$S/summary.json" "len(d['passes'][0]['runs'])")" 1 "runs before the stop"
assert_eq "$(json_get "$S/summary.json" "d['passes'][0]['runs'][0]['launch']['ranks'][0]['exit_status']")" 1 \
  "rank 0's exit status"
grep -q 'Granted job allocation' "$S/salloc.txt" || fail "no allocation was made"
wait_no_jobs 10
assert_no_jobs
ok "fail-fast releases the allocation"

# 4. Nothing left queued: while another job holds every CPU, the run's own job waits in the
# queue; Ctrl-C cancels it there, and only the other job is left.
blocker=$(salloc --no-shell --ntasks="$(nproc)" --job-name=blocker 2>&1 | sed -n 's/.*Granted job allocation \([0-9]*\).*/\1/p')
[ -n "$blocker" ] || fail "could not take the node"
cat >"$T/q.yaml" <<YAML
name: sq
output: sessions4
app:
  command: [$RANKAPP, --ms, "10"]
launcher: {kind: slurm, ntasks: 1}
metrics:
  - {name: time_ms, pattern: 'time_ms=([0-9.]+)'}
passes: [normal]
YAML
set +e
"$HPRUN" --quiet --grace 1 "$T/q.yaml" >"$T/out.txt" 2>"$T/err.txt" &
pid=$!
i=0
while [ -z "$(our_jobs sq | grep PENDING)" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -n "$(our_jobs sq | grep PENDING)" ] || { kill "$pid"; scancel "$blocker"; fail "the run's job never queued: $(squeue -h)"; }
kill -INT "$pid"
wait "$pid"
code=$?
set -e
[ "$code" = 130 ] || { scancel "$blocker"; cat "$T/err.txt"; fail "expected exit 130, got $code"; }
i=0
while [ -n "$(our_jobs sq)" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
left=$(our_jobs sq)
scancel "$blocker"
[ -z "$left" ] || fail "the queued job was left: $left"
wait_no_jobs 10
assert_no_jobs
ok "SIGINT cancels a job still in the queue"
