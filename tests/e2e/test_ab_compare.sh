# A/B variants with a numeric gate, JUnit output, `hprun report` and `hprun compare`.
. "$(dirname "$0")/lib.sh"

cat >"$T/ab.yaml" <<YAML
name: ab
output: sessions
repeat: 6
order: abba
seed: 7
app:
  command: [$FAKEAPP, --base, "1.0", --noise, "0.005", --proxy, "33.900791", --sleep, "1"]
metrics:
  - mean_kernel_ms
  - {name: proxy, pattern: 'proxy=([0-9.eE+-]+)'}
passes: [normal]
variants:
  - name: reference
    command: [$FAKEAPP, --base, "1.0", --noise, "0.005", --proxy, "33.900791", --sleep, "1"]
  - name: fused-right
    command: [$FAKEAPP, --base, "0.939", --noise, "0.005", --proxy, "33.894619", --sleep, "1"]
  - name: fused-wrong
    command: [$FAKEAPP, --base, "0.95", --noise, "0.005", --proxy, "33.44", --sleep, "1"]
gates:
  - {metric: proxy, max_abs_delta: 0.01}
YAML
# fused-wrong is outside the gate: the session fails (exit 1), and says why.
expect_exit 1 "$HPRUN" --quiet "$T/ab.yaml" --junit "$T/junit.xml"
S=$(session_dir "$T/sessions")
J="$S/summary.json"
assert_eq "$(pass_get "$J" reference "p['reference']")" True "reference"
assert_eq "$(pass_get "$J" fused-right "p['verdict']")" accepted "right and faster"
assert_eq "$(pass_get "$J" fused-wrong "p['verdict']")" "rejected (numerics)" "faster but wrong"
assert_eq "$(pass_get "$J" fused-right "p['metrics'][0]['overhead']['significant']")" yes "significance"
# The article's A-B-B-A line: time and every other metric against the reference.
pass_get "$J" fused-right "p['advice']" | grep -q "proxy -0.006172" || fail "variant summary: $(pass_get "$J" fused-right "p['advice']")"
# ABBA: the second round runs the units backwards.
assert_eq "$(pass_get "$J" normal "[r['round'] for r in p['runs']][:2]")" "[1, 8]" "abba order"
grep -q "fused-wrong .*rejected (numerics)" "$T/out" || { cat "$T/out"; fail "table verdicts"; }
grep -q "^fail: fused-wrong: rejected (numerics): proxy moved by" "$T/out" || { cat "$T/out"; fail "gate cause"; }

# JUnit: the structure CI servers read (testsuites > testsuite > testcase with name/classname).
"$PY" - "$T/junit.xml" <<'PY' || fail "junit structure"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "testsuites", root.tag
suites = root.findall("testsuite")
assert len(suites) == 1
s = suites[0]
for a in ("name", "tests", "failures", "errors", "skipped", "time"):
    assert a in s.attrib, a
cases = s.findall("testcase")
assert int(s.attrib["tests"]) == len(cases) == 4, (s.attrib, len(cases))
assert all("name" in c.attrib and "classname" in c.attrib and "time" in c.attrib for c in cases)
assert int(s.attrib["failures"]) == sum(1 for c in cases if c.find("failure") is not None) == 1
assert [c.attrib["name"] for c in cases if c.find("failure") is not None] == ["fused-wrong"]
assert cases[3].find("failure").attrib["type"] == "gate"
PY

# report re-renders without running anything.
expect_exit 1 "$HPRUN" report "$S"
grep -q "fused-right .*accepted" "$T/out" || { cat "$T/out"; fail "report table"; }
expect_exit 1 "$HPRUN" report "$S/summary.json" --format json
"$PY" -c "import json,sys; json.load(open(sys.argv[1]))" "$T/out" || fail "report --format json"
ok "A/B verdicts, JUnit, report"

# compare: an injected 10% regression exits 1; the same program again exits 0. The plans differ
# (name and command line), which compare refuses without --force.
mkplan() { # NAME BASE [METRICS]
  cat >"$T/$1.yaml" <<YAML
name: $1
output: cmp
repeat: 6
app:
  command: [$FAKEAPP, --base, "$2", --noise, "0.005", --sleep, "1"]
metrics: ${3:-[mean_kernel_ms]}
passes: [normal]
YAML
  expect_exit 0 "$HPRUN" --quiet "$T/$1.yaml"
}
mkplan old 1.0
mkplan same 1.0
mkplan slow 1.10
OLD=$(ls -d "$T"/cmp/old-latest)
expect_exit 1 "$HPRUN" compare "$OLD" "$(ls -d "$T"/cmp/slow-latest)" --tolerance 5% --force
grep -q "| \*\*regression\*\* |$" "$T/out" || { cat "$T/out"; fail "compare table"; }
expect_exit 0 "$HPRUN" compare "$OLD" "$(ls -d "$T"/cmp/same-latest)/summary.json" --tolerance 5% --force
grep -q "0 regression" "$T/out" || { cat "$T/out"; fail "compare same"; }
# A metric's own tolerance in the plan (20%) applies when the command line gives none: +10% is
# no regression; --tolerance 5% on the command line wins over it, and the row says so.
mkplan slowtol 1.10 "[{name: mean_kernel_ms, tolerance: 20%}]"
expect_exit 0 "$HPRUN" compare "$OLD" "$(ls -d "$T"/cmp/slowtol-latest)" --force
grep -q "| 6/6 | 20% (plan) | unchanged |$" "$T/out" || { cat "$T/out"; fail "plan tolerance"; }
expect_exit 1 "$HPRUN" compare "$OLD" "$(ls -d "$T"/cmp/slowtol-latest)" --tolerance 5% --force
grep -q "| 6/6 | 5% (command line) | \*\*regression\*\* |$" "$T/out" || { cat "$T/out"; fail "command-line tolerance"; }
expect_exit 4 "$HPRUN" compare "$OLD" "$T/nope"
ok "compare"
