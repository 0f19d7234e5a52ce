# Reports and gates that say what happened (issue 9): `report` re-renders exactly what `run`
# printed and wrote; the interval is labelled with its real level and absent below 3 runs; every
# exit 1 names its causes (a `fail` threshold, a gate), an unconfirmed pass only gets a note; and
# `compare` fails on what OLD has and NEW lacks, notes a changed plan and refuses sessions of
# different plans (names).
. "$(dirname "$0")/lib.sh"

# --- 1. `report` is `run`, byte for byte: a session with profiled passes, plan categories, A/B
# variants with a gate, and sampled memory (the stand-in nvidia-smi on PATH).
mkdir -p "$T/bin"
ln -s "$BUILD/fake/nvidia-smi" "$T/bin/nvidia-smi"
cat >"$T/ab.yaml" <<YAML
name: ab
output: sessions
repeat: 3
order: abba
seed: 11
app:
  command: [$FAKEAPP, --base, "1.0", --noise, "0.002", --proxy, "33.900791", --sleep, "20"]
profiler: {tool: hipprof, path: $FAKE_HIPPROF}
metrics:
  - {name: mean_kernel_ms, unit: ms}
  - {name: proxy, pattern: 'proxy=([0-9.eE+-]+)'}
passes: [normal, stats]
variants:
  - name: reference
    command: [$FAKEAPP, --base, "1.0", --noise, "0.002", --proxy, "33.900791", --sleep, "20"]
  - name: fused-right
    command: [$FAKEAPP, --base, "0.9", --noise, "0.002", --proxy, "33.900790", --sleep, "20"]
  - name: fused-wrong
    command: [$FAKEAPP, --base, "0.9", --noise, "0.002", --proxy, "33.44", --sleep, "20"]
gates:
  - {metric: proxy, max_abs_delta: 0.01}
categories:
  - {name: vec-kernels, patterns: [vector]}
sampler: {tool: nvidia-smi, interval: 5ms}
YAML
PATH="$T/bin:$PATH" expect_exit 1 "$HPRUN" --quiet "$T/ab.yaml" --junit "$T/run.xml" \
  --markdown "$T/run.md"
# The table as run printed it, without the closing line that only `run` prints.
sed '$d' "$T/out" >"$T/run.table"
tail -n 1 "$T/out" | grep -q '^summary: ' || fail "run's last line: $(tail -n 1 "$T/out")"
S=$(session_dir "$T/sessions")
J="$S/summary.json"
# What makes this session worth re-rendering: verdicts, advice, plan categories, memory.
assert_eq "$(pass_get "$J" fused-wrong "p['verdict']")" "rejected (numerics)" "gate verdict"
pass_get "$J" fused-right "p['advice']" | grep -q "proxy -1e-06" || fail "variant advice"
assert_eq "$(pass_get "$J" stats "p['profile']['categories'][0]['name']")" vec-kernels "plan categories"
[ "$(pass_get "$J" reference "p['memory']['sampled_mean_mib']")" != None ] || fail "memory sampled"
grep -q "^fail: fused-wrong: rejected (numerics): proxy moved by -0.460791 against the reference (gate: |delta| <= 0.01)$" "$T/run.table" \
  || { cat "$T/run.table"; fail "run names the gate that failed it"; }

expect_exit 1 "$HPRUN" report "$S" --junit "$T/rep.xml" --markdown "$T/rep.md"
[ ! -s "$T/err" ] || { cat "$T/err"; fail "report of an intact session warns"; }
diff -u "$T/run.table" "$T/out" || fail "report's table differs from run's"
diff -u "$T/run.md" "$T/rep.md" || fail "report's Markdown differs from run's"
diff -u "$S/report.md" "$T/rep.md" || fail "report's Markdown differs from the session's report.md"
diff -u "$T/run.xml" "$T/rep.xml" || fail "report's JUnit differs from run's"
expect_exit 1 "$HPRUN" report "$S" --format json
diff -u "$J" "$T/out" || fail "report's summary.json differs from the stored one"
ok "report re-renders exactly what run printed and wrote"

# Without its plan copy the session still renders, with one warning line saying what changed.
cp -r "$S" "$T/noplan"
rm "$T/noplan/plan.yaml"
expect_exit 1 "$HPRUN" report "$T/noplan"
assert_eq "$(wc -l <"$T/err" | tr -d ' ')" 1 "one warning line"
grep -q "noplan/plan.yaml: warning: the plan copy is missing: profiles are summarised with the built-in kernel categories" "$T/err" \
  || { cat "$T/err"; fail "the warning says what is used instead"; }
sed 's#/noplan#/SESSION#' "$T/out" >"$T/noplan.table"
sed "s#$S#$T/SESSION#" "$T/run.table" >"$T/run.table.s"
diff -u "$T/run.table.s" "$T/noplan.table" || fail "the stored verdicts and advice are shown"
ok "report without the plan copy"

# --- 2. The interval is labelled with its level (1 - alpha) and absent with fewer than 3 runs.
cat >"$T/ci.yaml" <<YAML
name: ci
output: ci
repeat: 3
app:
  command: [$FAKEAPP, --base, "1.0", --noise, "0.01", --sleep, "1"]
profiler: {tool: hipprof, path: $FAKE_HIPPROF}
metrics: [mean_kernel_ms]
passes: [normal, stats]
thresholds: {alpha: 0.1}
YAML
expect_exit 0 "$HPRUN" --quiet "$T/ci.yaml"
grep -q "vs baseline      90% CI       n    CV flag" "$T/out" || { cat "$T/out"; fail "90% CI in the table"; }
grep -q "| vs baseline | 90% CI |" "$(ls -d "$T"/ci/ci-latest)/report.md" || fail "90% CI in report.md"
if grep -q "95% CI" "$T/out"; then fail "no 95% label at alpha 0.1"; fi
rm -rf "$T/ci"
expect_exit 0 "$HPRUN" --quiet "$T/ci.yaml" --repeat 2
assert_eq "$(pass_get "$(ls -d "$T"/ci/ci-latest)/summary.json" stats "p['overhead']['ci95']")" "[None, None]" "no interval from 2 runs"
grep -q '^stats .* -   2 ' "$T/out" || { cat "$T/out"; fail "no interval in the table from 2 runs"; }
ok "interval level and minimum runs"

# --- 4. Every exit 1 names its cause; an unconfirmed pass never fails but says why not.
cat >"$T/gate.yaml" <<YAML
name: gate
output: gate
repeat: 5
app:
  command: [$FAKEAPP, --base, "1.0", --noise, "0", --sleep, "1"]
profiler: {tool: hipprof, path: $FAKE_HIPPROF}
metrics: [mean_kernel_ms]
passes: [normal, stats, {name: pmc, mode: pmc, expect: distorted}]
thresholds: {fail: 0.25}
YAML
HIPPROF_FAKE_FACTORS="stats=1.31" expect_exit 1 "$HPRUN" --quiet "$T/gate.yaml" --junit "$T/gate.xml"
grep -q '^fail: stats: mean_kernel_ms +31.00% > fail 25% (interval \[+31%, +31%\])$' "$T/out" \
  || { cat "$T/out"; fail "the threshold cause line"; }
assert_eq "$(grep -c '^fail: ' "$T/out")" 1 "one cause (pmc is expected to distort)"
G=$(ls -d "$T"/gate/gate-latest)
grep -q '^## Why this session failed$' "$G/report.md" || fail "report.md has the section"
grep -q '^- fail: stats: mean_kernel_ms +31.00% > fail 25% (interval ' "$G/report.md" || fail "report.md has the line"
grep -q '<failure type="threshold" message="mean_kernel_ms +31.00% &gt; fail 25% (interval ' "$T/gate.xml" \
  || { cat "$T/gate.xml"; fail "JUnit has the cause"; }
assert_eq "$(json_get "$G/summary.json" "d['causes'][0]['kind']")" threshold "summary.json cause"
rm -rf "$T/gate"
# Two runs: beyond `fail`, but too few to test. Not a failure; a note says the gate was not run.
HIPPROF_FAKE_FACTORS="stats=1.31" expect_exit 0 "$HPRUN" --quiet "$T/gate.yaml" --repeat 2
grep -q '^note: stats: mean_kernel_ms +31.00% is beyond fail 25%, but 2 run(s) against the baseline.s 2 are too few for an interval: the fail gate was not evaluated' "$T/out" \
  || { cat "$T/out"; fail "the unconfirmed note"; }
if grep -q '^fail: ' "$T/out"; then fail "unconfirmed must not fail"; fi
ok "cause lines and the unconfirmed rule"

# --- 3. compare: what OLD has and NEW lacks fails; a changed plan is noted; other names refused.
cmp_plan() { # FILE METRIC BASE PASSES
  cat >"$T/$1" <<YAML
name: cmp
repeat: 5
app:
  command: [$FAKEAPP, --base, "$3", --noise, "0.002", --sleep, "1"]
profiler: {tool: hipprof, path: $FAKE_HIPPROF}
metrics: [{name: $2, pattern: 'mean_kernel_ms=([0-9.eE+-]+)'}]
passes: $4
YAML
}
cmp_run() { # FILE OUTDIR: runs the plan into its own folder and prints the session folder
  expect_exit 0 "$HPRUN" --quiet "$T/$1" --output "$T/$2"
  session_dir "$T/$2"
}
cmp_plan old.yaml mean_kernel_ms 1.0 "[normal, stats]"
cmp_plan renamed.yaml kernel_ms 1.5 "[normal, stats]"
cmp_plan dropped.yaml mean_kernel_ms 1.5 "[normal]"
OLD=$(cmp_run old.yaml c-old)
SAME=$(cmp_run old.yaml c-same)
RENAMED=$(cmp_run renamed.yaml c-renamed)
DROPPED=$(cmp_run dropped.yaml c-dropped)
expect_exit 0 "$HPRUN" compare "$OLD" "$SAME"
grep -q "^0 regression(s).$" "$T/out" || { cat "$T/out"; fail "same plan, same program"; }
# A renamed metric changes the plan: compared on what both measured, the change of plan noted,
# and a failure naming what is missing.
expect_exit 1 "$HPRUN" compare "$OLD" "$RENAMED"
grep -q "^- note: the plan changed between OLD and NEW (sha256 [0-9a-f]\{12\}… and [0-9a-f]\{12\}…): compared what both measured$" "$T/out" \
  || { cat "$T/out"; fail "the plan change as a note"; }
grep -q "^- fail: normal: metric mean_kernel_ms is missing from NEW$" "$T/out" || { cat "$T/out"; fail "missing metric"; }
grep -q "^- fail: stats: metric mean_kernel_ms is missing from NEW$" "$T/out" || { cat "$T/out"; fail "missing metric (stats)"; }
expect_exit 0 "$HPRUN" compare "$OLD" "$RENAMED" --force --allow-missing
grep -q "^- note: normal: metric mean_kernel_ms is missing from NEW; allowed by --allow-missing$" "$T/out" \
  || { cat "$T/out"; fail "allowed missing metric"; }
# A pass removed (and the rest 50% slower): both are causes.
expect_exit 1 "$HPRUN" compare "$OLD" "$DROPPED" --force
grep -q "^- fail: stats: missing from NEW (OLD has this pass)$" "$T/out" || { cat "$T/out"; fail "missing pass"; }
grep -q "^- fail: normal: mean_kernel_ms +[0-9.]*%, tolerance 5% (default), 95% CI \[+[0-9.]*%, +[0-9.]*%\]: regression$" "$T/out" \
  || { cat "$T/out"; fail "regression line"; }
# Another session name is another plan, even with the same hash unknown (a bare summary.json).
sed 's/^name: cmp/name: other/' "$T/old.yaml" >"$T/other.yaml"
OTHER=$(cmp_run other.yaml c-other)
mkdir "$T/bare"
cp "$OTHER/summary.json" "$T/bare/"
expect_exit 2 "$HPRUN" compare "$OLD" "$T/bare/summary.json"
grep -q "OLD is session .cmp. and NEW is session .other." "$T/err" || { cat "$T/err"; fail "name check"; }
ok "compare: missing items and different plans"
