# Progress while a session runs (issue 10 item 4): off a terminal one line per finished run with
# its k/N and value and no carriage return; --quiet none; on a terminal (under script(1)) one
# status line redrawn in place with the elapsed time and a line per finished pass; TERM=dumb on a
# terminal gives the lines. Neither streams the app's output nor prints command lines unless
# --show-output or -v asks (issue 29 item 1).
. "$(dirname "$0")/lib.sh"

cat >"$T/plan.yaml" <<YAML
name: prog
output: sessions
repeat: 2
warmup: 1
keep_going: true   # the failing pass runs to its end, so its every line shows
app:
  command: [sh, -c, 'echo hello; sleep 0.3; if [ "\$HPRUN_PASS" = bad ]; then exit 3; fi; echo t=1.4812']
metrics:
  - name: t
    pattern: 't=([0-9.]+)'
    unit: ms
passes:
  - normal
  - name: bad
    command: ["{app}"]
YAML

# Off a terminal: the lines, nothing redrawn.
expect_exit 3 "$HPRUN" "$T/plan.yaml"
grep -q '^\[1/6\] normal warmup 1/1: 1.4812 ms, wall [0-9]\.[0-9][0-9] s$' "$T/err" || fail "no warmup line"
grep -q '^\[3/6\] normal run 1/2: 1.4812 ms, wall [0-9]\.[0-9][0-9] s$' "$T/err" || fail "no run line"
grep -q '^\[6/6\] bad run 2/2: exit 3, wall [0-9]\.[0-9][0-9] s$' "$T/err" || fail "no failure line"
assert_eq "$(grep -c '^\[[0-9]/6\]' "$T/err")" 6 "one line per run"
if grep -q 'hprun: normal run 1: ' "$T/err"; then fail "a command line without -v"; fi
if grep -q '^\[normal 1\] hello' "$T/err"; then fail "the app's output without --show-output"; fi
grep -q "^hprun: run bad/warmup-1 failed; its other runs go on$" "$T/err" || fail "the failed run was not reported"
grep -q "^hprun: its files: .*/bad/warmup-1/$" "$T/err" || fail "the failed run's folder was not named"
if grep -q "$(printf '\r')" "$T/err"; then fail "a carriage return off a terminal"; fi
ok "off a terminal: one line per finished run, no output, no command lines"

expect_exit 3 "$HPRUN" -v "$T/plan.yaml"
grep -q 'hprun: normal run 1: .*sh -c ' "$T/err" || fail "-v: no command line"
grep -q '^\[normal 1\] hello$' "$T/err" || fail "-v: the app's output is not streamed"
expect_exit 3 "$HPRUN" --show-output "$T/plan.yaml"
grep -q '^\[normal 1\] hello$' "$T/err" || fail "--show-output: the app's output is not streamed"
if grep -q 'hprun: normal run 1: ' "$T/err"; then fail "--show-output printed a command line"; fi
ok "--show-output streams the output, -v also the command lines"

# --quiet: no progress at all (the 2-run plan is enough).
sed -i 's/^repeat: 2/repeat: 1/; s/^warmup: 1/warmup: 0/' "$T/plan.yaml"
expect_exit 3 "$HPRUN" --quiet "$T/plan.yaml"
if grep -q '^\[[0-9]/' "$T/err"; then fail "--quiet printed progress"; fi
if grep -q 'elapsed' "$T/err"; then fail "--quiet printed a status line"; fi
ok "--quiet: no progress"

# On a terminal: the status line, redrawn in place, and the app's lines intact after a clear.
if ! command -v script >/dev/null 2>&1; then
  ok "script(1) not installed: terminal cases skipped"
  exit 0
fi
TERM=xterm script -qec "$HPRUN --show-output $T/plan.yaml" /dev/null >"$T/tty" 2>&1 || true
grep -q "$(printf '\r\033\\[K')\\[1/2\\] normal run 1/1 .* elapsed .* ETA" "$T/tty" ||
  fail "no status line on a terminal: $(cat -A "$T/tty" | head -20)"
grep -q "$(printf '\r\033\\[K')\\[normal 1\\] hello" "$T/tty" || fail "the app's line was not cleared for"
grep -q 'last exit 3' "$T/tty" || fail "no last value on the status line"
if grep -q '^\[1/2\] normal run 1/1: ' "$T/tty"; then fail "the line form on a terminal"; fi
grep -q "$(printf '\033')\\[Knormal: 1 run, median 1.481 ms$(printf '\r')\$" "$T/tty" || fail "no line for the finished pass: $(cat -A "$T/tty" | head -20)"
grep -q "$(printf '\033')\\[Kbad: 1 run, 1 failed, no value$(printf '\r')\$" "$T/tty" || fail "no line for the failed pass"
ok "on a terminal: the status line and a line per finished pass"

TERM=dumb script -qec "$HPRUN $T/plan.yaml" /dev/null >"$T/dumb" 2>&1 || true
grep -q '^\[1/2\] normal run 1/1: 1.4812 ms, wall' "$T/dumb" || fail "TERM=dumb: no line form"
if grep -q 'elapsed' "$T/dumb"; then fail "TERM=dumb: a status line"; fi
ok "TERM=dumb: the line form"
