# app.region with rocprofv3 (docs/summarize.md "Regions"): the pass gets --marker-trace, and its
# kernel tables, totals and cross-check keep only the dispatches inside the range's spans of the
# marker trace; a range the trace does not have leaves the whole run in the tables, with a
# warning in the terminal, summary.json and the cross-check note. The fake rocprofv3 writes the
# range row from ROCPROFV3_FAKE_RANGE (tests/README.md); the expectations are computed here with
# python3 from the files the run left.
. "$(dirname "$0")/lib.sh"

cat >"$T/plan.yaml" <<YAML
name: rg
output: sessions
repeat: 1
app:
  command: [$FAKEAPP, --noise, "0", --base, "0.05", --launches, "40", --print, "step_ms=2"]
  iterations: 10
  region: timed
profiler: {tool: rocprofv3, path: $BUILD/fake/rocprofv3}
metrics:
  - {name: step_ms, pattern: 'step_ms=([0-9.]+)', unit: ms}
passes: [normal, kernel-trace]
YAML
ROCPROFV3_FAKE_RANGE="timed 11 30" expect_exit 0 "$HPRUN" "$T/plan.yaml"
grep -q "not applied" "$T/out" "$T/err" && fail "the plan still warns about rocprofv3"
S=$(session_dir "$T/sessions")
J="$S/summary.json"
pass_get "$J" kernel-trace "p['runs'][0]['command']" | grep -q -- "--marker-trace" ||
  fail "app.region did not reach rocprofv3 as --marker-trace"
RUN="$S/$(pass_get "$J" kernel-trace "p['runs'][0]['dir']")"

# Dispatches inside any span of a marker row whose Function is exactly "timed".
cat >"$T/count.py" <<'PY'
import csv, glob, sys
d, name = sys.argv[1], sys.argv[2]
spans = [(int(r["Start_Timestamp"]), int(r["End_Timestamp"]))
         for f in glob.glob(d + "/**/*_marker_api_trace.csv", recursive=True)
         for r in csv.DictReader(open(f)) if r["Function"] == name]
ks = [(int(r["Start_Timestamp"]), int(r["End_Timestamp"]))
      for f in glob.glob(d + "/**/*_kernel_trace.csv", recursive=True) for r in csv.DictReader(open(f))]
kept = [(b, e) for b, e in ks if any(s <= b and e <= t for s, t in spans)] or ks
print(len(kept), sum(e - b for b, e in kept) / 1e6, (max(e for _, e in kept) - min(b for b, _ in kept)) / 1e6, len(ks))
PY
read -r WANT_N WANT_MS WANT_SPAN ALL <<EOF2
$("$PY" "$T/count.py" "$RUN" timed)
EOF2
assert_eq "$WANT_N" 20 "the fake's range holds dispatches 11..30 (python)"
assert_eq "$ALL" 40 "the kernel trace holds 40 dispatches (python)"
assert_eq "$(pass_get "$J" kernel-trace "p['crosscheck']['launches']")" "$WANT_N" "launches in the region"
assert_close "$(pass_get "$J" kernel-trace "p['crosscheck']['kernel_ms']")" "$WANT_MS" 1e-9 "kernel_ms"
assert_close "$(pass_get "$J" kernel-trace "p['crosscheck']['span_ms']")" "$WANT_SPAN" 1e-9 "span_ms"
assert_eq "$(pass_get "$J" kernel-trace "p['crosscheck']['note']")" None "no note when applied"
assert_eq "$(pass_get "$J" kernel-trace "p['profile']['region']['state']")" applied "region state"
assert_eq "$(pass_get "$J" kernel-trace "sum(k['calls'] for k in p['profile']['kernels'])")" "$WANT_N" \
  "kernel table calls"
assert_eq "$(pass_get "$J" kernel-trace "sum(c['calls'] for c in p['profile']['categories'])")" "$WANT_N" \
  "category calls"
ok "rocprofv3 pass kept to the region (20 of 40 dispatches)"

# hprun summarize --region on the run's files says the same.
expect_exit 0 "$HPRUN" summarize --format json --region timed "$RUN"
assert_eq "$("$PY" -c "import json,sys; d=json.load(open(sys.argv[1])); print(sum(k['calls'] for k in d['kernels']), d['region']['dispatches_kept'], d['region']['dispatches_read'])" "$T/out")" \
  "$WANT_N $WANT_N $ALL" "summarize --region"
ok "summarize --region"

# The range is not in the marker trace: the whole run, said in the terminal, summary.json and
# the cross-check.
rm -rf "$T/sessions"
expect_exit 0 "$HPRUN" "$T/plan.yaml"
grep -qF "region timed not found in the marker trace: the tables cover the whole run" "$T/out" "$T/err" ||
  { cat "$T/out" "$T/err"; fail "no warning in the terminal"; }
S=$(session_dir "$T/sessions")
J="$S/summary.json"
RUN="$S/$(pass_get "$J" kernel-trace "p['runs'][0]['dir']")"
read -r WANT_N WANT_MS WANT_SPAN ALL <<EOF2
$("$PY" "$T/count.py" "$RUN" timed)
EOF2
assert_eq "$WANT_N" 40 "no span: python keeps all"
assert_eq "$(pass_get "$J" kernel-trace "p['crosscheck']['launches']")" 40 "launches of the whole run"
pass_get "$J" kernel-trace "p['crosscheck']['note']" | grep -q "not found in the marker trace" ||
  fail "cross-check note"
assert_eq "$(pass_get "$J" kernel-trace "p['profile']['region']['state']")" not_found "region state"
pass_get "$J" kernel-trace "p['profile']['region']['note']" |
  grep -qF "region timed not found in the marker trace: the tables cover the whole run" || fail "summary note"
expect_exit 0 "$HPRUN" summarize --region timed "$RUN"
grep -qF "warning: region timed not found in the marker trace: the tables cover the whole run" "$T/out" ||
  fail "summarize's table output does not say it"
ok "region not found: whole run, warned"
