# hipprof's files go straight into the run folder where its help text offers -o and -d (DTK
# 26.04's real `hipprof -h` is the fixture), --follow-fork is passed for a wrapper app, and a
# version without them still gets its files moved in from the app's folder.
. "$(dirname "$0")/lib.sh"
HELP="$(dirname "$0")/../fixtures/real/hipprof/dtk-26.04-help/hipprof_help.txt"

# The stand-in's -h lists exactly the real help's options.
opts() { sed -n 's/^[[:space:]]*\(--*[a-z][a-z-]*\).*/\1/p' | sort -u; }
opts <"$HELP" >"$T/real.opts"
"$FAKE_HIPPROF" -h | opts >"$T/fake.opts"
[ "$(wc -l <"$T/real.opts")" -ge 60 ] || fail "the fixture's option list looks cut: $(wc -l <"$T/real.opts")"
diff "$T/real.opts" "$T/fake.opts" >"$T/opts.diff" || { cat "$T/opts.diff"; fail "the stand-in's options differ from DTK 26.04's help"; }
ok "the stand-in hipprof lists DTK 26.04's $(wc -l <"$T/real.opts") options"

mkdir -p "$T/app"
cat >"$T/plan.yaml" <<YAML
name: out
output: sessions
repeat: 1
warmup: 0
app:
  cwd: app
  command: [$FAKEAPP, --noise, "0"]
  timeout: 30s
profiler: {tool: hipprof, path: $FAKE_HIPPROF}
metrics: [mean_kernel_ms]
passes: [normal, stats, pmc]
YAML
expect_exit 0 "$HPRUN" run -n "$T/plan.yaml"
grep -q -- "--stats -o '*[^ ]*/stats/1/'* -d '*[^ ]*/stats/1'* $FAKEAPP" "$T/out" || { cat "$T/out"; fail "no -o DIR/ -d DIR in the stats command"; }
if grep -q -- "--follow-fork" "$T/out"; then fail "--follow-fork for an app that is no wrapper"; fi
expect_exit 0 "$HPRUN" -v "$T/plan.yaml"
S=$(session_dir "$T/sessions")
ls "$S/stats/1" | grep -q '\.hiptrace\.csv$' || fail "stats/1 lacks the API CSV: $(ls "$S/stats/1")"
ls "$S/pmc/1" | grep -q '^pmc_results_.*\.csv$' || fail "pmc/1 lacks the PMC CSV: $(ls "$S/pmc/1")"
grep -q "stats run 1: $FAKE_HIPPROF --hip-trace --stats -o $S/stats/1/ -d $S/stats/1 $FAKEAPP" "$T/err" || { cat "$T/err"; fail "the run's stats command lacks -o DIR/ -d DIR"; }
[ -z "$(ls "$T/app")" ] || fail "hipprof wrote into the app's folder: $(ls "$T/app")"
ok "with -o and -d the files are written in the run folder, none moved"

# A version whose help lacks -o and -d: the files land in the app's folder and are moved in.
rm -rf "$T/sessions"
HIPPROF_FAKE_HELP=old expect_exit 0 "$HPRUN" -v "$T/plan.yaml"
S=$(session_dir "$T/sessions")
ls "$S/stats/1" | grep -q '\.hiptrace\.csv$' || fail "fallback: stats/1 lacks the API CSV: $(ls "$S/stats/1")"
grep -q "stats run 1: $FAKE_HIPPROF --hip-trace --stats $FAKEAPP" "$T/err" || { cat "$T/err"; fail "fallback: the stats command still has -o or -d"; }
[ -z "$(ls "$T/app")" ] || fail "fallback: files left in the app's folder: $(ls "$T/app")"
ok "without -o the files are moved in, as before"

# A wrapper app (a shell) gets --follow-fork in every hipprof mode.
sed "s|command: \[$FAKEAPP, --noise, \"0\"\]|command: [sh, -c, 'exec \"\$0\" --noise 0', $FAKEAPP]|" "$T/plan.yaml" >"$T/wrap.yaml"
expect_exit 0 "$HPRUN" run -n "$T/wrap.yaml"
assert_eq "$(grep -c -- "--follow-fork" "$T/out")" 2 "--follow-fork in the stats and pmc commands"
ok "a wrapper app gets --follow-fork"
