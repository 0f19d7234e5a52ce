# Ctrl-C (SIGINT) mid-session: children stopped, a readable partial summary, exit 130, nothing left.
. "$(dirname "$0")/lib.sh"

cat >"$T/plan.yaml" <<YAML
name: int
output: sessions
repeat: 50
app:
  command: [$FAKEAPP, --sleep, "300"]
profiler: {path: $FAKE_HIPPROF}
metrics: [mean_kernel_ms]
passes: [normal, stats]
YAML
set +e
"$HPRUN" --quiet "$T/plan.yaml" >"$T/out.txt" 2>"$T/err.txt" &
pid=$!
sleep 2
kill -INT "$pid"
wait "$pid"
code=$?
set -e
[ "$code" = 130 ] || { cat "$T/err.txt"; fail "expected exit 130, got $code"; }
S=$(session_dir "$T/sessions")
J="$S/summary.json"
assert_eq "$(json_get "$J" "d['complete']")" False "complete"
assert_eq "$(json_get "$J" "d['interrupted']")" True "interrupted"
n=$(json_get "$J" "sum(1 for p in d['passes'] for r in p['runs'] if r['ok'])")
[ "$n" -ge 2 ] || fail "expected some measured runs kept, got $n"
grep -q "INCOMPLETE" "$T/out.txt" || fail "the table must say the session is incomplete"
sleep 0.2
assert_no_process "$FAKEAPP --sleep 300"
ok "SIGINT keeps what was measured"
