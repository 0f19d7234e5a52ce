# Issue 10 leftovers: --dry-run shows the prepare and cleanup hooks; report.md marks the runs that
# were skipped after their pass's first run failed, and counts them; `hprun --help` lists `help`.
. "$(dirname "$0")/lib.sh"

cat >"$T/plan.yaml" <<YAML
name: marks
output: sessions
repeat: 3
app:
  command: [$FAKEAPP, --base, "1.0"]
  prepare: [sh, -c, "echo preparing"]
  cleanup: "rm -f $T/scratch"
metrics: [mean_kernel_ms]
passes:
  - normal
  - {name: broken, command: [sh, -c, "exit 7", sh, "{app}"]}
YAML

expect_exit 0 "$HPRUN" "$T/plan.yaml" --dry-run
grep -A1 '^prepare (before each run' "$T/out" | grep -q "^  sh -c 'echo preparing'$" ||
  fail "dry run: no prepare hook: $(cat "$T/out")"
grep -A1 '^cleanup (after each run' "$T/out" | grep -q "^  rm -f $T/scratch$" ||
  fail "dry run: no cleanup hook: $(cat "$T/out")"
ok "the dry run shows the prepare and cleanup hooks"

# broken's first run fails: its other two runs are skipped (exit 3: a counted run failed).
expect_exit 3 "$HPRUN" --quiet "$T/plan.yaml"
S=$(session_dir "$T/sessions")
grep -q '^<details open><summary>broken: 3 runs, 1 failed, 2 skipped</summary>$' "$S/report.md" ||
  fail "report.md summary line: $(grep summary "$S/report.md")"
[ "$(grep -c '^| broken | [23] | `broken/[23]` | skipped |' "$S/report.md")" = 2 ] ||
  fail "report.md: skipped runs not marked: $(grep '^| broken' "$S/report.md")"
grep -q '^| broken | 1 | `broken/1` | 7 |' "$S/report.md" || fail "the failed run's exit status"
grep -q '^<details><summary>normal: 3 runs, all ok</summary>$' "$S/report.md" || fail "normal line"
ok "report.md marks skipped runs and counts them apart from failed ones"

expect_exit 0 "$HPRUN" --help
grep -q '^  help  *hprun help COMMAND' "$T/out" || fail "--help does not list help: $(cat "$T/out")"
ok "hprun --help lists the help command"
