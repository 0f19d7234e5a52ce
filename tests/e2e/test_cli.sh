# --help, --version, check, --dry-run, and a session folder that is never reused.
. "$(dirname "$0")/lib.sh"

expect_exit 0 "$HPRUN" --version
grep -q "^hprun [0-9]" "$T/out" || fail "--version"
expect_exit 0 "$HPRUN" --help
grep -q "summarize" "$T/out" || fail "--help lists commands"

# Every plan shipped in configs/ is valid (check does not need the programs to exist).
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
expect_exit 0 "$HPRUN" check "$ROOT"/configs/*.yaml "$ROOT"/configs/examples/*.yaml

cat >"$T/plan.yaml" <<YAML
name: cli
output: sessions
repeat: 2
app:
  command: [$FAKEAPP, --noise, "0", --sleep, "1"]
profiler: {path: $FAKE_HIPPROF}
metrics: [mean_kernel_ms]
passes: [normal, stats, {name: cg, command: [env, "OUT={dir}/x", "{app}"]}]
YAML
expect_exit 0 "$HPRUN" check "$T/plan.yaml"
expect_exit 0 "$HPRUN" --dry-run "$T/plan.yaml"
[ "$(grep -c -- "--hip-trace --stats $FAKEAPP" "$T/out")" = 2 ] || { cat "$T/out"; fail "dry run lines"; }
grep -q "OUT=.*/cg/1/x" "$T/out" || { cat "$T/out"; fail "{dir} not expanded"; }
[ ! -d "$T/sessions" ] || fail "dry run created the output folder"

expect_exit 0 "$HPRUN" --quiet "$T/plan.yaml"
expect_exit 0 "$HPRUN" --quiet "$T/plan.yaml"
n=$(find "$T/sessions" -mindepth 1 -maxdepth 1 -type d | wc -l)
[ "$n" = 2 ] || fail "two sessions in the same second must get two folders, got $n"
ok "cli"
