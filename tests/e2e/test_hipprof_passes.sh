# The core issue's acceptance test: normal, stats, kernel-stack, pmc and memory-usage with the
# stand-in hipprof; one folder per run holding only that run's files; ratios equal to the
# stand-in's factors; pmc flagged distorted.
. "$(dirname "$0")/lib.sh"

cat >"$T/plan.yaml" <<YAML
name: va
output: sessions
repeat: 2
app:
  command: [$FAKEAPP, --noise, "0", --sleep, "5"]
  timeout: 30s
profiler:
  tool: hipprof
  path: $FAKE_HIPPROF
metrics:
  - name: mean_kernel_ms
    pattern: 'mean_kernel_ms=([0-9.eE+-]+)'
    unit: ms
passes:
  - normal
  - stats
  - kernel-stack
  - {name: pmc, mode: pmc, kernel: vector_add, expect: distorted}
  - memory-usage
YAML

expect_exit 0 "$HPRUN" --quiet "$T/plan.yaml"
cp "$T/out" "$T/table"
S=$(session_dir "$T/sessions")
J="$S/summary.json"
[ -f "$J" ] && [ -f "$S/report.md" ] || fail "summary.json and report.md must exist"
case "$(basename "$S")" in va-[0-9]*-[0-9]*) ;; *) fail "session folder name: $S" ;; esac

# One folder per run, each with the run's own output.
for p in normal stats kernel-stack pmc memory-usage; do
  for k in 1 2; do
    [ -s "$S/$p/$k/stdout.txt" ] || fail "$p/$k/stdout.txt missing or empty"
    [ -f "$S/$p/$k/stderr.txt" ] || fail "$p/$k/stderr.txt missing"
  done
done
# Each folder holds only its own pass's files.
[ "$(ls "$S/normal/1")" = "$(printf 'stderr.txt\nstdout.txt')" ] || fail "normal/1 holds extra files: $(ls "$S/normal/1")"
ls "$S/stats/1" | grep -q '\.hiptrace\.csv$' || fail "stats/1 lacks the API CSV"
ls "$S/stats/1" | grep -q '\.kernel\.csv$' || fail "stats/1 lacks the kernel CSV"
ls "$S/kernel-stack/1" | grep -q '\.stack\.csv$' || fail "kernel-stack/1 lacks the stack CSV"
ls "$S/pmc/1" | grep -q '^pmc_results_.*\.csv$' || fail "pmc/1 lacks the PMC CSV"
if ls "$S/pmc/1" | grep -q -e hiptrace -e stack; then fail "pmc/1 holds another pass's files"; fi
if ls "$S/stats/1" | grep -q -e pmc_results -e stack; then fail "stats/1 holds another pass's files"; fi

# Ratios equal the stand-in's factors (the app's noise is 0, so they are exact).
assert_close "$(pass_get "$J" stats "p['overhead']['ratio']")" 1.0127 1e-6 "stats ratio"
assert_close "$(pass_get "$J" kernel-stack "p['overhead']['ratio']")" 1.0207 1e-6 "kernel-stack ratio"
assert_close "$(pass_get "$J" pmc "p['overhead']['ratio']")" 79.83 1e-6 "pmc ratio"
assert_close "$(pass_get "$J" memory-usage "p['overhead']['ratio']")" 1.004 1e-6 "memory-usage ratio"
assert_close "$(pass_get "$J" normal "p['metrics'][0]['median']")" 0.0185488 1e-12 "baseline median"
assert_eq "$(pass_get "$J" normal "p['flag']")" baseline "normal flag"
assert_eq "$(pass_get "$J" stats "p['flag']")" unconfirmed "stats flag (2 runs: too few for an interval)"
assert_eq "$(pass_get "$J" pmc "p['flag']")" unconfirmed "pmc flag (2 runs: no interval, so not yet distorted)"
assert_eq "$(json_get "$J" "d['complete']")" True "complete"
assert_eq "$(json_get "$J" "len(d['passes'][0]['runs'])")" 2 "runs per pass"
assert_eq "$(pass_get "$J" pmc "p['runs'][0]['exit_status']")" 0 "pmc exit status"
# The pmc pass was given the kernel filter and the CSV form, as the article runs it.
pass_get "$J" pmc "p['runs'][0]['command']" | grep -q -- '--pmc --pmc-type 3 --kernel-name vector_add' \
  || fail "pmc command line: $(pass_get "$J" pmc "p['runs'][0]['command']")"
# Interleaved order: run 1 of every pass, then run 2 of every pass.
assert_eq "$(pass_get "$J" normal "[r['round'] for r in p['runs']]")" "[1, 6]" "interleaved rounds"
# What each profiler wrote is parsed into the session: tables in summary.json and report.md, and
# the cross-check of the profiler's kernel time and launch count against the app's own.
assert_eq "$(pass_get "$J" stats "p['profile']['kernels'][0]['calls']")" 120 "stats kernel calls"
assert_eq "$(pass_get "$J" stats "p['crosscheck']['app_launches']")" 120 "app launches"
assert_close "$(pass_get "$J" stats "p['crosscheck']['profiler_avg_ms']")" 0.0187844 1e-6 "profiler avg"
assert_eq "$(pass_get "$J" kernel-stack "p['profile']['stacks'][0]['user_frame']")" "vector_add()" "user frame"
assert_eq "$(pass_get "$J" pmc "p['profile']['pmc'][0]['dispatches']")" 120 "pmc dispatches"
assert_eq "$(pass_get "$J" memory-usage "len(p['profile']['leakcheck']['entries'])")" 2 "leak-check lines parsed"
grep -q "## Profiler output: stats" "$S/report.md" || fail "report.md lacks the profiler tables"
expect_exit 0 "$HPRUN" summarize "$S"
grep -q "vector_add()" "$T/out" || { cat "$T/out"; fail "summarize on a session folder"; }
# The terminal table gives the pmc pass's ratio and flag (2 runs: too few for an interval).
grep -q 'pmc .*79.83x .*unconfirmed' "$T/table" || { cat "$T/table"; fail "table lacks the pmc line"; }
ok "hipprof passes"
