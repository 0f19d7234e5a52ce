# Issue 10 items 1-3: runs start in app.cwd (the plan's folder), so relative paths work; a file a
# run leaves there is moved into its run folder; a failing first run stops the session (baseline)
# or skips its pass's other runs, unless --keep-going; a misspelled wrapper fails before anything
# runs.
. "$(dirname "$0")/lib.sh"

P="$T/proj"
mkdir -p "$P/data" "$T/elsewhere"
echo 21 >"$P/data/x.txt"
# The app reads its input through a relative path and counts its runs in $COUNT.
cat >"$P/app.py" <<'PY'
import os, sys, time
with open(os.environ["COUNT"], "a") as f:
    f.write(os.environ.get("HPRUN_PASS", "?") + "\n")
time.sleep(float(os.environ.get("SLEEP", "0")))
if os.environ.get("FAIL"):
    sys.exit("app.py: cannot read data/missing.txt: No such file or directory")
v = float(open(sys.argv[sys.argv.index("--input") + 1]).read())
if os.environ.get("STRAY") and os.environ.get("HPRUN_RUN") == "2":
    open("results.csv", "w").write("x\n")
    open("stdout.txt", "w").write("not the run's\n")
print("m=%g" % (v * 2))
PY

cat >"$P/plan.yaml" <<YAML
name: cwd
output: $T/sessions
repeat: 2
app:
  command: python3 app.py --input data/x.txt
  env: {COUNT: $T/count}
metrics: [m]
passes: [normal]
YAML
cd "$T/elsewhere"
expect_exit 0 "$HPRUN" --quiet "$P/plan.yaml"
S=$(session_dir "$T/sessions")
assert_eq "$(pass_get "$S/summary.json" normal "p['runs'][1]['values']['m']")" 42 "metric"
ok "a relative script and input work from another cwd"

# A stray file is moved into its run's folder, with a warning; the plan's files stay.
rm -rf "$T/sessions"
# The stray stdout.txt cannot be moved (the run's own is there), which fails that run: exit 3.
STRAY=1 expect_exit 3 "$HPRUN" --quiet "$P/plan.yaml"
S=$(session_dir "$T/sessions")
[ ! -e "$P/results.csv" ] || fail "results.csv was left in the app's folder"
[ -f "$S/normal/2/results.csv" ] || fail "results.csv was not moved into normal/2/"
grep -q "warning: run normal/2 left 'results.csv' in .*: moved into normal/2/" "$T/err" ||
  fail "no warning: $(cat "$T/err")"
[ -f "$P/app.py" ] && [ -f "$P/plan.yaml" ] && [ -f "$P/data/x.txt" ] || fail "a plan file moved"
# A stray with the name of one of the run's own files replaces nothing: it stays, with an error,
# and its run fails, named in a fail: line.
grep -q "m=42" "$S/normal/2/stdout.txt" || fail "the run's stdout.txt was replaced"
[ -f "$P/stdout.txt" ] || fail "the stray stdout.txt vanished"
grep -q "error: run normal/2 left 'stdout.txt' in .*could not be moved into normal/2/ (File exists)" "$T/err" ||
  fail "no error for stdout.txt: $(cat "$T/err")"
grep -q "^fail: .*'stdout.txt' could not be moved" "$T/out" "$T/err" || fail "no fail: line for stdout.txt"
rm "$P/stdout.txt"
ok "a stray file is moved with a warning"

# app.workdir: run restores the old start folder: the relative input is then not found, and the
# hint says why.
rm -rf "$T/sessions"
sed 's/^  command: python3 app.py/  workdir: run\n  command: python3 '"$(printf '%s' "$P" | sed 's/[\/&]/\\&/g')"'\/app.py/' \
  "$P/plan.yaml" >"$P/plan-run.yaml"
expect_exit 3 "$HPRUN" --quiet "$P/plan-run.yaml"
grep -q "hint: .*app.workdir: run" "$T/err" || fail "no workdir hint: $(cat "$T/err")"
ok "app.workdir: run starts runs in their own folder"

# The baseline's first run fails: the session stops after it. The app counts its starts, so the
# test reads how many runs began (1, where warmup 1 + repeat 3 would be 4) instead of timing them.
rm -rf "$T/sessions" "$T/count"
FAIL=1 expect_exit 3 "$HPRUN" --quiet --repeat 3 "$P/plan.yaml"
assert_eq "$(wc -l <"$T/count")" 1 "runs started"
S=$(session_dir "$T/sessions")
assert_eq "$(json_get "$S/summary.json" "d['complete']")" False "complete"
grep -q "No such file or directory" "$T/err" || fail "stderr tail not shown: $(cat "$T/err")"
grep -q "hint: a file was not found: relative paths are relative to app.cwd" "$T/err" ||
  fail "no relative-path hint: $(cat "$T/err")"
ok "a failing baseline stops the session"

# A misspelled wrapper: exit 2, no run, no session folder; --dry-run says the same.
rm -rf "$T/sessions" "$T/count"
cat >"$P/plan-vg.yaml" <<YAML
name: vg
output: $T/sessions
app:
  command: python3 app.py --input data/x.txt
  env: {COUNT: $T/count}
metrics: [m]
passes:
  - normal
  - {name: vg, mode: command, command: [valgrnd, --tool=none, "{app}"]}
YAML
expect_exit 2 "$HPRUN" --quiet "$P/plan-vg.yaml"
grep -q "pass 'vg': 'valgrnd' was not found on PATH; did you mean 'valgrind'?" "$T/err" ||
  fail "message: $(cat "$T/err")"
[ ! -e "$T/sessions" ] || fail "a session folder was created"
[ ! -e "$T/count" ] || fail "a run started"
expect_exit 2 "$HPRUN" --dry-run "$P/plan-vg.yaml"
ok "a misspelled wrapper exits 2 before anything runs"

# A pass whose first run fails has its other runs skipped; --keep-going runs them all.
cat >"$P/plan-skip.yaml" <<YAML
name: skip
output: $T/sessions
repeat: 3
app:
  command: python3 app.py --input data/x.txt
  env: {COUNT: $T/count}
metrics: [m]
passes:
  - normal
  - {name: bad, mode: command, command: [sh, -c, 'echo "\$HPRUN_PASS" >>"\$COUNT"; exit 1', sh, "{app}"]}
YAML
rm -rf "$T/sessions" "$T/count"
expect_exit 3 "$HPRUN" --quiet "$P/plan-skip.yaml"
S=$(session_dir "$T/sessions")
assert_eq "$(grep -c bad "$T/count")" 1 "bad runs started"
assert_eq "$(grep -c normal "$T/count")" 3 "normal runs"
assert_eq "$(pass_get "$S/summary.json" bad "[r.get('skipped', False) for r in p['runs']]")" \
  "[False, True, True]" "skipped flags"
assert_eq "$(pass_get "$S/summary.json" normal "[r.get('skipped', False) for r in p['runs']]")" \
  "[False, False, False]" "normal not skipped"
grep -q "its other runs are skipped" "$T/err" || fail "no skip message: $(cat "$T/err")"
rm -rf "$T/sessions" "$T/count"
expect_exit 3 "$HPRUN" --quiet --keep-going "$P/plan-skip.yaml"
assert_eq "$(grep -c bad "$T/count")" 3 "bad runs with --keep-going"
ok "a failing pass skips its runs; --keep-going runs them"

# The app's folder is listed again only when its stamp changed (lib/session/cwdseen.c); in a folder
# last changed seconds ago the kept listing is trusted, and a file a later run leaves is still
# found and moved, also one left in the same clock tick as the look before the run.
Q="$T/quiet"
mkdir -p "$Q"
cat >"$Q/app.sh" <<'EOF2'
#!/bin/sh
case "$HPRUN_RUN" in 2 | 4) echo x >"stray-$HPRUN_RUN.txt" ;; esac
echo m=1
EOF2
chmod +x "$Q/app.sh"
printf 'name: quiet\noutput: %s\nrepeat: 5\napp: {command: [./app.sh]}\nmetrics: [m]\npasses: [normal]\n' \
  "$T/sessions" >"$Q/plan.yaml"
sleep 3
rm -rf "$T/sessions"
expect_exit 0 "$HPRUN" --quiet "$Q/plan.yaml"
S=$(session_dir "$T/sessions")
assert_eq "$(ls "$Q" | tr '\n' ' ')" "app.sh plan.yaml " "the app's folder after the session"
for k in 1 2 3 4 5; do
  want="[]"
  case $k in 2 | 4) want="['stray-$k.txt']" ;; esac
  [ "$k" = 2 ] || [ "$k" = 4 ] || [ ! -e "$S/normal/$k/stray-2.txt" ] || fail "stray-2.txt in normal/$k"
  assert_eq "$(pass_get "$S/summary.json" normal "p['runs'][$((k - 1))]['files']")" "$want" "run $k's files"
done
[ -f "$S/normal/2/stray-2.txt" ] && [ -f "$S/normal/4/stray-4.txt" ] || fail "the strays were not moved"
ok "in an app folder last changed seconds ago, what a run leaves is still moved"
