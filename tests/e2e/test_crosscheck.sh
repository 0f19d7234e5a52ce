# The cross-check (docs/summary.md "Cross-check"): the whole profile's kernel time and launches,
# the time per iteration and the GPU busy fraction against the baseline, launch-bound below 60%;
# app.region reaches ncu as --nvtx --nvtx-include NAME/. Expectations are computed here with
# python3 from the files the runs left (ncu.csv, stdout.txt), not read from hprun.
. "$(dirname "$0")/lib.sh"

# 40 launches of 0.1 ms each (the ncu double reports the app's own mean_kernel_ms per launch), 10
# iterations of a 2 ms step: 0.4 ms of kernels per 2 ms iteration, 20% busy, launch-bound.
cat >"$T/plan.yaml" <<YAML
name: xc
output: sessions
repeat: 3
app:
  command: [$FAKEAPP, --noise, "0", --base, "0.1", --launches, "40", --print, "step_ms=2", --print, "iterations=10"]
  iterations_metric: iterations
  region: timed
profiler: {tool: ncu, path: $BUILD/fake/ncu}
metrics:
  - {name: step_ms, pattern: 'step_ms=([0-9.]+)', unit: ms}
  - {name: iterations, pattern: 'iterations=([0-9]+)'}
passes:
  - normal
  - {name: time, mode: time}
YAML
expect_exit 0 "$HPRUN" "$T/plan.yaml"
S=$(session_dir "$T/sessions")
J="$S/summary.json"
pass_get "$J" time "p['runs'][0]['command']" | grep -q -- "--nvtx --nvtx-include timed/" ||
  fail "app.region did not reach ncu"

# The expectations, from the profiled run's ncu.csv and the baseline runs' stdout.
RUN=$(pass_get "$J" time "p['runs'][0]['dir']")
"$PY" - "$S/$RUN/ncu.csv" "$S" >"$T/want" <<'PY'
import csv, glob, re, statistics, sys
lines = [l for l in open(sys.argv[1]) if l.startswith('"')]
rows = list(csv.DictReader(lines))
unit = {"nsecond": 1e-6, "usecond": 1e-3, "msecond": 1}[rows[0]["gpu__time_duration.sum"]]
ms = sum(float(r["gpu__time_duration.sum"].replace(",", "")) * unit for r in rows[1:])
base = statistics.median(float(re.search(r"step_ms=([0-9.]+)", open(f).read()).group(1))
                         for f in glob.glob(sys.argv[2] + "/normal/*/stdout.txt"))
print(ms, len(rows) - 1, ms / 10, ms / 10 / base)
PY
read -r WANT_MS WANT_N WANT_ITER WANT_BUSY <"$T/want"
assert_close "$(pass_get "$J" time "p['crosscheck']['kernel_ms']")" "$WANT_MS" 1e-9 "kernel_ms"
assert_eq "$(pass_get "$J" time "p['crosscheck']['launches']")" "$WANT_N" "launches"
assert_eq "$(pass_get "$J" time "p['crosscheck']['iterations']")" 10 "iterations from the metric"
assert_close "$(pass_get "$J" time "p['crosscheck']['kernel_ms_per_iteration']")" "$WANT_ITER" 1e-9 "per iteration"
assert_close "$(pass_get "$J" time "p['crosscheck']['busy_fraction']")" "$WANT_BUSY" 1e-9 "busy"
assert_close "$WANT_BUSY" 0.2 1e-9 "the plan's own arithmetic (4 ms / 10 / 2 ms)"
assert_eq "$(pass_get "$J" time "p['crosscheck']['launch_bound']")" True "launch-bound flag"
assert_eq "$(pass_get "$J" time "p['crosscheck']['span_ms']")" None "ncu has no timestamps"
ok "busy fraction"

# The terminal, report.md and a re-rendering say the same; no kernel average against the step.
grep -qxF "  time: kernels 4 ms in 40 launches; 10 iterations: 0.4 ms of kernels per iteration, 20.0% of the baseline's 2 ms: launch-bound (GPU busy below 60%)" "$T/out" ||
  { cat "$T/out"; fail "terminal cross-check"; }
grep -q "profiler says" "$T/out" && fail "one kernel's average compared with the whole step"
grep -qF -- "- **time**: kernels 4 ms in 40 launches; 10 iterations" "$S/report.md" ||
  fail "report.md cross-check"
grep -qF "<li><strong>time</strong>: kernels 4 ms in 40 launches; 10 iterations: 0.4 ms of kernels per iteration, 20.0% of the baseline&#39;s 2 ms: launch-bound (GPU busy below 60%)</li>" "$S/report.html" ||
  fail "report.html cross-check: $(grep -o '<ul class="crosscheck">.*' "$S/report.html" | head -3)"
expect_exit 0 "$HPRUN" report "$S"
grep -qF "20.0% of the baseline's 2 ms: launch-bound" "$T/out" || fail "hprun report re-renders it"
ok "terminal, report.md, report.html, hprun report"

# app.iterations as a number; above 60% busy there is no flag.
sed -e 's/  iterations_metric: iterations/  iterations: 1/' -e '/region: timed/d' "$T/plan.yaml" >"$T/p2.yaml"
rm -rf "$T/sessions"
expect_exit 0 "$HPRUN" "$T/p2.yaml"
J="$(session_dir "$T/sessions")/summary.json"
assert_close "$(pass_get "$J" time "p['crosscheck']['busy_fraction']")" 2 1e-9 "4 ms per 2 ms step"
assert_eq "$(pass_get "$J" time "p['crosscheck']['launch_bound']")" False "not launch-bound"
pass_get "$J" time "p['runs'][0]['command']" | grep -q -- "--nvtx" && fail "no region, no --nvtx"
ok "app.iterations"

# A pass that profiles only some launches (launch_count, or ncu's options in args) gives its
# kernel time but no time per iteration or busy fraction: they would be a fraction of the truth
# (the H200 PyTorch session's launch_count 40 of 560 launches read "1.2% busy" against 20.8%).
sed -e 's/  - {name: time, mode: time}/  - {name: time, mode: time, launch_count: 8}\
  - {name: skip, mode: time, args: [--launch-skip, "30"]}\
  - {name: whole, mode: time, args: [--cache-control, none]}/' "$T/p2.yaml" >"$T/p3.yaml"
rm -rf "$T/sessions"
expect_exit 0 "$HPRUN" "$T/p3.yaml"
J="$(session_dir "$T/sessions")/summary.json"
for p in time skip; do
  assert_eq "$(pass_get "$J" $p "p['crosscheck']['partial']")" True "$p: partial"
  assert_eq "$(pass_get "$J" $p "[p['crosscheck'][k] for k in ('iterations', 'kernel_ms_per_iteration', 'busy_fraction', 'launch_bound')]")" \
    "[None, None, None, None]" "$p: no per-iteration figures"
done
assert_eq "$(pass_get "$J" whole "p['crosscheck']['partial']")" False "an option that keeps every launch"
assert_close "$(pass_get "$J" whole "p['crosscheck']['busy_fraction']")" 2 1e-9 "whole: busy"
grep -qF "  time: kernels" "$T/out" && grep "  time: kernels" "$T/out" |
  grep -qF "(part of the run: no time per iteration or GPU busy fraction); note: the pass profiles only its first \`launch_count\` launches" ||
  { cat "$T/out"; fail "terminal: the partial capture"; }
ok "partial captures: kernel time, no busy fraction"

# Plan errors name the line.
printf 'app: {command: [x], iterations_metric: nope}\nmetrics: [t]\npasses: [normal]\n' >"$T/bad1.yaml"
expect_exit 2 "$HPRUN" check "$T/bad1.yaml"
grep -q "bad1.yaml:1:.*iterations_metric: nope. names no metric" "$T/err" || { cat "$T/err"; fail "unknown metric"; }
printf 'app: {command: [x], region: "a/b"}\nmetrics: [t]\npasses: [normal]\n' >"$T/bad2.yaml"
expect_exit 2 "$HPRUN" check "$T/bad2.yaml"
grep -q "bad2.yaml:1:.*app.region. may not hold" "$T/err" || { cat "$T/err"; fail "region"; }
printf 'app: {command: [x], iterations: 0}\nmetrics: [t]\npasses: [normal]\n' >"$T/bad3.yaml"
expect_exit 2 "$HPRUN" check "$T/bad3.yaml"
ok "plan errors"
