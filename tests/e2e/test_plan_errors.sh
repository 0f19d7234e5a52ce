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
