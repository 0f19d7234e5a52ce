# Bad plans: file:line:col messages and exit 2; nothing is created.
. "$(dirname "$0")/lib.sh"

cat >"$T/bad.yaml" <<'YAML'
name: bad
repeat: zero
app:
  command: ./x
metrics: [mean_kernel_ms]
passes:
  - stats
YAML
expect_exit 2 "$HPRUN" "$T/bad.yaml"
grep -q "bad.yaml:2:9: error:" "$T/err" || { cat "$T/err"; fail "no line:col for repeat"; }
grep -q "bad.yaml:.*baseline" "$T/err" || { cat "$T/err"; fail "missing baseline not reported"; }
[ ! -e "$T/hprun-out" ] || fail "a bad plan must not create a session folder"

expect_exit 2 "$HPRUN" check "$T/bad.yaml"
expect_exit 2 "$HPRUN" "$T/does-not-exist.yaml"
grep -q "does-not-exist.yaml" "$T/err" || fail "missing plan file not named"
expect_exit 2 "$HPRUN" run --no-such-option "$T/bad.yaml"
expect_exit 2 "$HPRUN"

printf 'name: x\napp: {command: [a]}\napp: {command: [b]}\n' >"$T/dup.yaml"
expect_exit 2 "$HPRUN" check "$T/dup.yaml"
grep -q "dup.yaml:3:1: error:.*duplicate" "$T/err" || { cat "$T/err"; fail "duplicate key"; }

printf 'name: [unclosed\n' >"$T/syntax.yaml"
expect_exit 2 "$HPRUN" check "$T/syntax.yaml"
grep -q "syntax.yaml:[0-9]*:[0-9]*: error:" "$T/err" || { cat "$T/err"; fail "YAML syntax error"; }
ok "plan errors"

# Keys a pass's tool would drop are refused where they are written, with the reason.
cat >"$T/keys.yaml" <<'YAML'
name: keys
app: {command: [/bin/true]}
profiler: {tool: hipprof}
metrics: [mean_kernel_ms]
passes:
  - normal
  - {name: s, mode: stats, kernel: vector_add}
  - {name: p, mode: pmc, counters: [SQ_WAVES]}
  - {name: q, mode: pmc-read, launch_count: 3}
  - {name: n, mode: normal2, tool: ncu}
  - {name: r, mode: kernel-trace, tool: rocprofv3, counters: [SQ_WAVES]}
  - {name: c, mode: command, command: [strace, "{app}"], kernel: k}
  - {name: ok1, mode: pmc, kernel: vector_add}
  - {name: ok2, mode: time, tool: ncu, kernel: k, launch_count: 2, counters: [a]}
  - {name: ok3, mode: kernel-trace, tool: rocprofv3, kernel: k}
YAML
expect_exit 2 "$HPRUN" check "$T/keys.yaml"
grep -q "keys.yaml:7:36: error: .kernel. does not apply to hipprof mode .stats.: hipprof's --kernel-name filters only its counter modes" "$T/err" || { cat "$T/err"; fail "kernel on hipprof stats"; }
grep -q "keys.yaml:8:36: error: .counters. does not apply to hipprof mode .pmc.: .*--pmc, .*--pmc-read, .*--pmc-write" "$T/err" || { cat "$T/err"; fail "counters on hipprof"; }
grep -q "keys.yaml:9:45: error: .launch_count. does not apply to hipprof mode .pmc-read.: it is ncu's --launch-count" "$T/err" || { cat "$T/err"; fail "launch_count on hipprof"; }
grep -q "keys.yaml:11:62: error: .counters. does not apply to rocprofv3 mode .kernel-trace." "$T/err" || { cat "$T/err"; fail "counters on rocprofv3 kernel-trace"; }
grep -q "keys.yaml:12:66: error: .kernel. has no effect in mode .command." "$T/err" || { cat "$T/err"; fail "kernel on a command pass"; }
assert_eq "$(grep -c "error:" "$T/err")" 6 "errors (the five keys and the bad mode; ok1..ok3 are fine)"
ok "keys a tool would drop are plan errors"
