# Issue 10 item 6: parameter sweeps. A 2x2 sweep runs four sessions, one per combination, each in
# its own folder with its own table; {n} and {dtype} are expanded in the app's argv, its env and a
# pass's command, which the test app writes into its run folder. The numbers are known in advance:
# the app prints m=<n>, and times <SLOW> under the `slow` pass, whose command sets SLOW={n}, so that
# pass's ratio is exactly n (2.00x for n=2, 3.00x for n=3).
. "$(dirname "$0")/lib.sh"

cat >"$T/app.sh" <<'SH'
#!/bin/sh
# Writes its argv and $N into its run folder, then its metric.
printf '%s\n' "$@" >"$HPRUN_RUN_DIR/argv.txt"
printf '%s\n' "$N" >"$HPRUN_RUN_DIR/env_n.txt"
case "$2" in bad) echo "no such size" >&2; exit 1 ;; esac
echo "m=$(( ${2} * ${SLOW:-1} ))"
SH
chmod +x "$T/app.sh"

cat >"$T/plan.yaml" <<'YAML'
name: sw
output: sessions
repeat: 2
parameters:
  n: [2, 3]
  dtype: [fp16, fp32]
app:
  command: [./app.sh, --n, "{n}", "--dtype={dtype}"]
  env: {N: "n is {n}"}
metrics: [{name: m, pattern: 'm=([0-9]+)'}]
passes:
  - normal
  - {name: slow, command: [env, "SLOW={n}", "{app}"]}
YAML

# The dry run lists each combination with its expanded command lines, and runs nothing.
expect_exit 0 "$HPRUN" "$T/plan.yaml" --dry-run
grep -q '^combination 1 of 4: n=2,dtype=fp16$' "$T/out" || fail "dry run: no combination 1: $(cat "$T/out")"
grep -q '^combination 4 of 4: n=3,dtype=fp32$' "$T/out" || fail "dry run: no combination 4"
grep -q "env SLOW=3 $T/app.sh --n 3 --dtype=fp32" "$T/out" || fail "dry run: slow pass not expanded"
[ ! -e "$T/sessions" ] || fail "the dry run created the session folder"
ok "the dry run lists each combination's expanded commands"

expect_exit 0 "$HPRUN" --quiet "$T/plan.yaml"
S=$(session_dir "$T/sessions")
for c in n=2,dtype=fp16 n=2,dtype=fp32 n=3,dtype=fp16 n=3,dtype=fp32; do
  [ -f "$S/$c/summary.json" ] && [ -f "$S/$c/report.md" ] && [ -f "$S/$c/manifest.json" ] ||
    fail "combination $c has no session files"
done
[ -f "$S/summary.json" ] && [ -f "$S/report.md" ] && [ -f "$S/plan.yaml" ] || fail "no sweep files"
cmp -s "$S/plan.yaml" "$T/plan.yaml" || fail "plan.yaml is not the plan"
[ "$(readlink "$T/sessions/sw-latest")" = "$(basename "$S")" ] || fail "sw-latest is not the sweep"
ok "four combinations, each a session of its own in its folder"

# {n} and {dtype} in argv and env, in every run of every pass.
R="$S/n=3,dtype=fp16/slow/2"
assert_eq "$(cat "$R/argv.txt" | tr '\n' ' ')" "--n 3 --dtype=fp16 " "argv of $R"
assert_eq "$(cat "$R/env_n.txt")" "n is 3" "env N of $R"
assert_eq "$(cat "$S/n=2,dtype=fp32/normal/1/argv.txt" | tr '\n' ' ')" "--n 2 --dtype=fp32 " "argv"
assert_eq "$(cat "$S/n=2,dtype=fp32/normal/1/env_n.txt")" "n is 2" "env"
ok "{n} and {dtype} expanded in argv and env"

# Each combination's summary.json names it and is a whole session: the slow pass reads n times
# the baseline.
J="$S/n=3,dtype=fp32/summary.json"
assert_eq "$(json_get "$J" "d['combination']")" "n=3,dtype=fp32" "combination"
assert_eq "$(json_get "$J" "d['parameters']")" "{'n': '3', 'dtype': 'fp32'}" "parameters"
assert_eq "$(pass_get "$J" slow "float(p['metrics'][0]['overhead']['ratio'])")" 3.0 "slow ratio, n=3"
assert_eq "$(pass_get "$J" normal "float(p['metrics'][0]['median'])")" 3.0 "normal median, n=3"

# The sweep's summary.json lists the combinations in order with each pass's ratio and flag.
J="$S/summary.json"
assert_eq "$(json_get "$J" "[c['name'] for c in d['sweep']['combinations']]")" \
  "['n=2,dtype=fp16', 'n=2,dtype=fp32', 'n=3,dtype=fp16', 'n=3,dtype=fp32']" "combinations"
assert_eq "$(json_get "$J" "d['sweep']['parameters']")" \
  "[{'name': 'n', 'values': ['2', '3']}, {'name': 'dtype', 'values': ['fp16', 'fp32']}]" "params"
assert_eq "$(json_get "$J" "[[float(p['ratio']) for p in c['passes'] if p['name'] == 'slow'][0] for c in d['sweep']['combinations']]")" \
  "[2.0, 2.0, 3.0, 3.0]" "slow ratios"
assert_eq "$(json_get "$J" "[c['complete'] and c['ran'] and c['exit_code'] == 0 for c in d['sweep']['combinations']]")" \
  "[True, True, True, True]" "complete"
assert_eq "$(json_get "$J" "(d['complete'], d['exit_code'], 'passes' in d)")" "(True, 0, False)" "sweep"
ok "summary.json: the sweep's lists the combinations and their ratios; each has its own"

# The terminal: four tables, then the overview (one row per pass, one column per combination).
[ "$(grep -c '^=== combination [1-4] of 4: ' "$T/out")" = 4 ] || fail "not four tables: $(cat "$T/out")"
[ "$(grep -c '^hprun session sw$' "$T/out")" = 4 ] || fail "not four session tables"
# Three combinations to a table within 100 columns, so the fourth starts a second table.
grep -q '^pass  *n=2,dtype=fp16  *n=2,dtype=fp32  *n=3,dtype=fp16 *$' "$T/out" ||
  fail "no overview header: $(cat "$T/out")"
grep -q '^pass  *n=3,dtype=fp32 *$' "$T/out" || fail "no second overview table"
grep -q '^slow  *2.00x  *2.00x  *3.00x *$' "$T/out" || fail "overview row: $(grep '^slow' "$T/out")"
grep -q '^slow  *3.00x *$' "$T/out" || fail "overview, second table: $(grep '^slow' "$T/out")"
ok "the terminal shows four tables and the overview"

# Two runs are too few for an interval: even a ratio of 2 or more is `unconfirmed`.
grep -q '^| slow | 2.00x unconfirmed | 2.00x unconfirmed | 3.00x unconfirmed | 3.00x unconfirmed |$' "$S/report.md" ||
  fail "report.md overview: $(grep slow "$S/report.md")"
[ "$(grep -c '^### `n=' "$S/report.md")" = 4 ] || fail "report.md: not four combination sections"
ok "report.md has the overview and one table per combination"

# hprun report re-renders the sweep as it was shown; compare matches combinations by name.
"$HPRUN" --quiet "$T/plan.yaml" >/dev/null 2>&1 || true # a second sweep, for compare (new folder)
expect_exit 0 "$HPRUN" report "$S"
grep -A3 '^overview' "$T/out" >"$T/ov1"
[ -s "$T/ov1" ] || fail "report: no overview"
expect_exit 0 "$HPRUN" report "$T/sessions/sw-latest" --format json
"$PY" -c "import json,sys; d=json.load(sys.stdin); assert len(d['sweep']['combinations']) == 4" <"$T/out" ||
  fail "report --format json is not the sweep's summary"
expect_exit 0 "$HPRUN" compare "$S" "$T/sessions/sw-latest"
[ "$(grep -c '^# combination `' "$T/out")" = 4 ] || fail "compare: not four sections: $(cat "$T/out")"
grep -q '0 failing comparisons over 4 combinations' "$T/out" || fail "compare: no total"
expect_exit 2 "$HPRUN" compare "$S" "$S/n=2,dtype=fp16"
grep -q 'is a parameter sweep and NEW is not' "$T/err" || fail "compare sweep/session: $(cat "$T/err")"
expect_exit 0 "$HPRUN" compare "$S/n=2,dtype=fp16" "$T/sessions/sw-latest/n=2,dtype=fp16"
ok "report re-renders a sweep; compare matches combinations, refuses a sweep against a session"

# A combination that NEW lacks is missing: exit 1 (0 with --allow-missing).
mkdir -p "$T/cut"
cp -r "$S" "$T/cut/s"
"$PY" - "$T/cut/s/summary.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d['sweep']['combinations'] = d['sweep']['combinations'][:3]
json.dump(d, open(sys.argv[1], 'w'))
PY
expect_exit 1 "$HPRUN" compare "$S" "$T/cut/s"
grep -q 'fail: n=3,dtype=fp32: it is missing in NEW' "$T/out" || fail "compare: missing: $(cat "$T/out")"
expect_exit 0 "$HPRUN" compare --allow-missing "$S" "$T/cut/s"
ok "a combination missing from NEW fails compare (unless --allow-missing)"

# Fail fast: the combination whose baseline fails stops the sweep (exit 3); the next is not run.
rm -rf "$T/sessions"
sed -e 's/n: \[2, 3\]/n: [2, bad, 3]/' -e 's/dtype: \[fp16, fp32\]/dtype: [x]/' "$T/plan.yaml" >"$T/fail.yaml"
expect_exit 3 "$HPRUN" --quiet "$T/fail.yaml"
S=$(session_dir "$T/sessions")
J="$S/summary.json"
assert_eq "$(json_get "$J" "[(c['name'], c['ran'], c['complete'], c['exit_code']) for c in d['sweep']['combinations']]")" \
  "[('n=2,dtype=x', True, True, 0), ('n=bad,dtype=x', True, False, 3), ('n=3,dtype=x', False, False, 3)]" \
  "fail-fast combinations"
assert_eq "$(json_get "$J" "(d['complete'], d['exit_code'])")" "(False, 3)" "fail-fast sweep"
json_get "$J" "[c['text'] for c in d['causes'] if c['pass'] == 'n=3,dtype=x']" | grep -q 'not run: the sweep stopped' ||
  fail "no cause for the combination not run"
[ ! -e "$S/n=3,dtype=x" ] || fail "the combination after the failed one ran"
[ ! -e "$T/sessions/sw-latest" ] || fail "an incomplete sweep moved sw-latest"
grep -q 'fail: n=3,dtype=x: not run' "$T/out" || fail "terminal: no not-run line: $(cat "$T/out")"
expect_exit 3 "$HPRUN" report "$S"
ok "a failed baseline stops the sweep with exit 3; the rest are listed as not run"

rm -rf "$T/sessions"
expect_exit 3 "$HPRUN" --quiet --keep-going "$T/fail.yaml"
S=$(session_dir "$T/sessions")
assert_eq "$(json_get "$S/summary.json" "[c['ran'] for c in d['sweep']['combinations']]")" \
  "[True, True, True]" "keep going runs every combination"
ok "--keep-going runs every combination; the exit code is still the worst (3)"

# Preflight: a program missing for one value fails before anything runs (exit 2).
rm -rf "$T/sessions"
cp "$T/app.sh" "$T/app_2.sh"
sed -e 's|command: \[./app.sh,|command: ["./app_{n}.sh",|' "$T/plan.yaml" >"$T/pre.yaml"
expect_exit 2 "$HPRUN" --quiet "$T/pre.yaml"
grep -q 'app_3.sh' "$T/err" && grep -q 'in combination 3 of 4 (n=3,dtype=fp16)' "$T/err" ||
  fail "preflight message: $(cat "$T/err")"
[ ! -e "$T/sessions" ] || fail "a session folder was made although a program is missing"
ok "a program missing in one combination fails the sweep before it starts (exit 2)"

# Plan errors in parameters exit 2 before anything runs, each at its file:line.
cat >"$T/bad.yaml" <<'YAML'
name: bad
output: sessions
parameters:
  n: [1, 1]
  dir: [a]
  2x: [a]
  empty: []
app:
  command: [./app.sh, "{n}", "{size}"]
passes: [normal]
YAML
expect_exit 2 "$HPRUN" "$T/bad.yaml"
grep -q "bad.yaml:4:[0-9]*: error: parameter \`n\` has the value '1' twice" "$T/err" || fail "dup value: $(cat "$T/err")"
grep -q "bad.yaml:5:[0-9]*: error: parameter name \`dir\` is taken" "$T/err" || fail "reserved name"
grep -q "bad.yaml:6:[0-9]*: error: parameter name '2x' is not a name" "$T/err" || fail "bad name"
grep -q "bad.yaml:7:[0-9]*: error: parameter \`empty\` must be a non-empty list" "$T/err" || fail "empty list"
grep -q "bad.yaml:9:[0-9]*: error: \`{size}\` in \`app.command\` is not a parameter" "$T/err" ||
  fail "unknown placeholder: $(cat "$T/err")"
expect_exit 2 "$HPRUN" check "$T/bad.yaml"
expect_exit 2 "$HPRUN" "$T/bad.yaml" --dry-run
printf 'name: big\nparameters:\n  a: [%s]\n  b: [%s]\napp: {command: ./app.sh}\npasses: [normal]\n' \
  "$(seq -s, 1 17)" "$(seq -s, 1 16)" >"$T/big.yaml"
expect_exit 2 "$HPRUN" check "$T/big.yaml"
grep -q 'big.yaml:2:1: error: the parameters make more than 256 combinations' "$T/err" ||
  fail "cap: $(cat "$T/err")"
[ ! -e "$T/sessions" ] || fail "a plan error made a session folder"
ok "bad parameters are plan errors at their line (exit 2); more than 256 combinations are refused"

# Ctrl-C during the first combination stops the sweep: exit 130, the first combination keeps what
# it measured, the second never starts, and the sweep is marked interrupted.
rm -rf "$T/sessions"
cat >"$T/int.yaml" <<YAML
name: int
output: sessions
repeat: 50
parameters: {ms: ["200", "201"]}
app: {command: [$FAKEAPP, --sleep, "{ms}"]}
metrics: [mean_kernel_ms]
passes: [normal]
YAML
set +e
"$HPRUN" --quiet "$T/int.yaml" >"$T/out" 2>"$T/err" &
pid=$!
sleep 1.5
kill -INT "$pid"
wait "$pid"
code=$?
set -e
[ "$code" = 130 ] || { cat "$T/err"; fail "sweep: expected exit 130, got $code"; }
S=$(session_dir "$T/sessions")
assert_eq "$(json_get "$S/summary.json" "(d['complete'], d['interrupted'], d['exit_code'], [c['ran'] for c in d['sweep']['combinations']])")" \
  "(False, True, 130, [True, False])" "interrupted sweep"
assert_eq "$(json_get "$S/ms=200/summary.json" "d['interrupted']")" True "the combination is interrupted"
[ ! -e "$S/ms=201" ] || fail "the second combination started after Ctrl-C"
ok "Ctrl-C stops the sweep (exit 130) and keeps what the running combination measured"
