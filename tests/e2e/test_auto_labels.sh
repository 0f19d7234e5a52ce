# Under `repeat: auto` every look's interval is at 1 - alpha / looks (docs/summary.md, "Flags"), so
# the interval column says that level, not "95% CI": min 3, max 8 looks at 3, 5 and 8 runs, and
# 1 - 0.05 / 3 is 98.33%. JUnit gives each pass's run count and why it stopped (summary.json's
# `stopped`). A fixed --repeat has one look: 95% CI, and no stop reason.
. "$(dirname "$0")/lib.sh"

cat >"$T/plan.yaml" <<'YAML'
name: auto
output: sessions
repeat: {min: 3, max: 8}
app:
  command: [sh, -c, 'if [ "$HPRUN_PASS" = slow ]; then echo "t=3.00$HPRUN_RUN"; else echo "t=1.00$HPRUN_RUN"; fi']
metrics:
  - {name: t, pattern: 't=([0-9.]+)', unit: ms}
passes:
  - normal
  - {name: slow, command: ["{app}"]}
YAML

expect_exit 0 "$HPRUN" --quiet "$T/plan.yaml" --junit "$T/junit.xml"
grep -q '^pass  *mode  *median  *vs baseline  *98.33% CI ' "$T/out" || fail "terminal: no 98.33% CI header: $(cat "$T/out")"
S=$(session_dir "$T/sessions")
grep -q '| vs baseline | 98.33% CI |' "$S/report.md" || fail "report.md: no 98.33% CI header"
grep -q 'class="n">98.33% CI</th>' "$S/report.html" || fail "report.html: no 98.33% CI header"
STOP=$(json_get "$S/summary.json" "[p.get('stopped') for p in d['passes'] if p['name'] == 'slow'][0]")
N=$(json_get "$S/summary.json" "[len([r for r in p['runs'] if not r.get('warmup')]) for p in d['passes'] if p['name'] == 'slow'][0]")
grep -q "name=\"slow\" .*" "$T/junit.xml" || fail "JUnit: no slow testcase"
grep -q "<system-out>flag=distorted median=[0-9.]* ratio=[0-9.]* change=[0-9.]*x \[[0-9.]*x, [0-9.]*x\] runs=$N stopped=$STOP" "$T/junit.xml" ||
  fail "JUnit: no runs=$N stopped=$STOP for slow: $(cat "$T/junit.xml")"
ok "repeat: auto: the 98.33% CI header on every surface, and JUnit's runs=$N stopped=$STOP"

rm -rf "$T/sessions"
expect_exit 0 "$HPRUN" --quiet --repeat 5 "$T/plan.yaml" --junit "$T/junit.xml"
grep -q '^pass  *mode  *median  *vs baseline  *95% CI ' "$T/out" || fail "--repeat 5: no 95% CI header: $(cat "$T/out")"
if grep -q 'stopped=' "$T/junit.xml"; then fail "--repeat 5: a stop reason in JUnit"; fi
ok "a fixed count: 95% CI, no stop reason"
