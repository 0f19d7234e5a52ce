# summary.json read back by `hprun report` and `hprun compare`: a seed that needs all 64 bits (or
# more than a double's 53) comes back digit for digit through run, summary.json and report; a
# summary.json with a bad member is refused with exit 4 and an error that names the member, also
# the reproducers that once crashed the reader (tests/fuzz/corpus/fuzz_summary/).
. "$(dirname "$0")/lib.sh"
CORPUS=$(cd "$(dirname "$0")/../fuzz/corpus/fuzz_summary" && pwd)

plan() { # NAME SEED
  cat >"$T/$1.yaml" <<YAML
name: $1
output: sessions
repeat: 2
seed: $2
app:
  command: [$FAKEAPP, --noise, "0", --sleep, "1"]
profiler: {path: $FAKE_HIPPROF}
metrics: [mean_kernel_ms]
passes: [normal, stats]
YAML
}

for seed in 18446744073709551615 9007199254740993; do
  plan "s$seed" "$seed"
  (cd "$T" && expect_exit 0 "$HPRUN" --quiet "s$seed.yaml")
  S=$(ls -d "$T"/sessions/"s$seed"-latest)
  grep -qx "  \"seed\": $seed," "$S/summary.json" || { grep seed "$S/summary.json"; fail "summary.json: seed $seed"; }
  grep -q "seed $seed," "$S/report.md" || fail "report.md: seed $seed"
  expect_exit 0 "$HPRUN" report --format json "$S"
  grep -qx "  \"seed\": $seed," "$T/out" || fail "report --format json: seed $seed"
  expect_exit 0 "$HPRUN" report --format md "$S"
  grep -q "seed $seed," "$T/out" || fail "report --format md: seed $seed"
done
ok "64-bit seeds round-trip"

# A good session with one member broken: report and compare exit 4 and name it.
GOOD=$(ls -d "$T"/sessions/s9007199254740993-latest)
cp -rL "$GOOD" "$T/bad"
"$PY" - "$T/bad/summary.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
del d["passes"][1]["runs"][0]["exit_status"]
json.dump(d, open(sys.argv[1], "w"), indent=2)
PY
WANT="$T/bad/summary.json: error: passes[1].runs[0].exit_status: missing or not an integer"
expect_exit 4 "$HPRUN" report "$T/bad"
grep -qxF "$WANT" "$T/err" || { cat "$T/err"; fail "report: the bad member named"; }
[ ! -s "$T/out" ] || fail "report of a bad summary.json printed a report"
expect_exit 4 "$HPRUN" compare "$GOOD" "$T/bad"
grep -qxF "$WANT" "$T/err" || { cat "$T/err"; fail "compare: the bad member named"; }
expect_exit 4 "$HPRUN" compare "$T/bad/summary.json" "$GOOD"
grep -qxF "$WANT" "$T/err" || { cat "$T/err"; fail "compare (old side): the bad member named"; }

# The reproducers that crashed the reader: refused, each with its member named.
check_repro() { # FILE MESSAGE
  mkdir -p "$T/repro"
  cp "$CORPUS/$1" "$T/repro/summary.json"
  expect_exit 4 "$HPRUN" report "$T/repro"
  grep -qxF "$T/repro/summary.json: error: $2" "$T/err" || { cat "$T/err"; fail "$1: message"; }
}
check_repro no-schema.json "schema: missing or not an integer"
check_repro run-without-dir.json "passes[1].runs[0].dir: missing or not a string"
check_repro run-without-exit-status.json "passes[0].runs[0].exit_status: missing or not an integer"
check_repro rss-out-of-range.json \
  "passes[0].runs[0].max_rss_kb: 1e300 is out of range (0 to 9223372036854775807)"
check_repro app-launches-out-of-range.json \
  "passes[0].crosscheck.app_launches: 1e300 is out of range (0 to 9223372036854775807)"
check_repro more-metrics-than-baseline.json \
  'passes[1].metrics: pass "stats" has 2 metrics, but pass "normal" (passes[0]) has 1: every pass measures the same metrics'
# The seed an older hprun wrote as -1 is 2^64 - 1.
cp "$CORPUS/seed-negative.json" "$T/repro/summary.json"
expect_exit 0 "$HPRUN" report --format json "$T/repro"
grep -qx '  "seed": 18446744073709551615,' "$T/out" || fail "seed -1 reads as 2^64 - 1"
ok "bad summary.json refused with exit 4"
