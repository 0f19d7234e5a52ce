# A hanging app is stopped at its timeout with its whole process group, grandchildren included;
# under a profiler the app is signalled first so the profiler still writes its files.
. "$(dirname "$0")/lib.sh"

# The pid file is not at the top of the plan's folder (the runs' cwd): a file added there is moved
# into the run's folder.
mkdir -p "$T/p"
export HPRUN_FAKE_PIDFILE="$T/p/pids"
cat >"$T/plan.yaml" <<YAML
name: hang
output: sessions
app:
  command: [$FAKEAPP, --hang, --grandchild, --ignore-term]
  timeout: 1s
profiler: {path: $FAKE_HIPPROF}
metrics: [mean_kernel_ms]
passes:
  - normal
  - stats
YAML
start=$(date +%s)
# --keep-going: the stats pass must time out too, after the baseline did.
expect_exit 3 "$HPRUN" --quiet --keep-going --grace 1 "$T/plan.yaml"
end=$(date +%s)
[ $((end - start)) -lt 20 ] || fail "stopping took $((end - start)) s"
S=$(session_dir "$T/sessions")
J="$S/summary.json"
assert_eq "$(pass_get "$J" normal "p['runs'][0]['timed_out']")" True "normal timed out"
assert_eq "$(pass_get "$J" normal "p['flag']")" failed "normal flag"
assert_eq "$(pass_get "$J" stats "p['runs'][0]['timed_out']")" True "stats timed out"
[ -s "$T/p/pids" ] || fail "the app wrote no pids"
sleep 0.2
assert_pids_gone "$T/p/pids"
assert_no_process "$FAKEAPP --hang"
grep -q "timed out" "$S/report.md" || grep -q "timed out" "$J" || fail "report does not say timed out"
ok "timeout kills the group"

# The profiler case without --ignore-term: the app ends on the first SIGTERM and the stand-in
# hipprof, still alive, writes its CSVs.
rm -rf "$T/sessions" "$T/p/pids"
cat >"$T/plan2.yaml" <<YAML
name: hang2
output: sessions
app:
  command: [$FAKEAPP, --hang]
  timeout: 1s
profiler: {path: $FAKE_HIPPROF}
metrics: [mean_kernel_ms]
passes: [normal, stats]
YAML
# --keep-going: the normal pass times out first, which would stop the session before stats.
expect_exit 3 "$HPRUN" --quiet --keep-going --grace 2 "$T/plan2.yaml"
S=$(session_dir "$T/sessions")
ls "$S/stats/1" | grep -q '\.hiptrace\.csv$' || fail "hipprof was killed before writing its files: $(ls "$S/stats/1")"
assert_no_process "$FAKEAPP --hang"
ok "profiler files survive a timeout"
