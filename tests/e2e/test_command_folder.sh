# A folder given as app.command can never run: `hprun check` and the run itself refuse it with
# exit 2 and an error at the key (file:line:col), and no session folder is made.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/p/tool.d"
cat >"$T/p/plan.yaml" <<YAML
name: folder
output: $T/sessions
app:
  command: ./tool.d --n 3
metrics: [m]
passes: [normal]
YAML
expect_exit 2 "$HPRUN" check "$T/p/plan.yaml"
grep -q "plan.yaml:4:12: error: \`app.command\`: './tool.d' is a folder, not a program" "$T/err" ||
  fail "check: $(cat "$T/err")"
expect_exit 2 "$HPRUN" --quiet "$T/p/plan.yaml"
grep -q "is a folder, not a program" "$T/err" || fail "run: $(cat "$T/err")"
[ -z "$(ls -A "$T/sessions" 2>/dev/null)" ] || fail "a session folder was made: $(ls -R "$T/sessions")"
# The same through app.cwd, and as an absolute path.
mkdir -p "$T/p/sub/bin.d"
sed -i "s|command: ./tool.d --n 3|command: bin.d/x\n  cwd: sub|" "$T/p/plan.yaml"
mkdir -p "$T/p/sub/bin.d/x"
expect_exit 2 "$HPRUN" check "$T/p/plan.yaml"
grep -q "'bin.d/x' is a folder, not a program" "$T/err" || fail "cwd: $(cat "$T/err")"
sed -i "s|command: bin.d/x|command: $T/p/tool.d|" "$T/p/plan.yaml"
expect_exit 2 "$HPRUN" check "$T/p/plan.yaml"
grep -q "is a folder, not a program" "$T/err" || fail "absolute: $(cat "$T/err")"
ok "a folder as app.command is refused by check and by the run, exit 2"
