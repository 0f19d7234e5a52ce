# `hprun [options] -- COMMAND...` without a plan file: the plan is made in memory and run like any
# other (the baseline always included), and `--print-plan` writes it as YAML that loads back as
# the same plan: the same dry run, and the same plan.yaml in the session folder.
. "$(dirname "$0")/lib.sh"

mkdir "$T/w"
cd "$T/w"

# ---- The README's line: nothing but a command.
expect_exit 0 "$HPRUN" -- sh -c 'echo t=1'
S=$(session_dir "$T/w/hprun-out")
J="$S/summary.json"
assert_eq "$(json_get "$J" "[p['name'] for p in d['passes']]")" "['normal']" "passes without --mode"
assert_eq "$(pass_get "$J" normal "p['metrics'][0]['name']")" "wall_ms" "primary metric without --metric"
assert_eq "$(pass_get "$J" normal "len(p['runs'])")" 5 "runs without -r"
grep -q "^normal  *normal .* 5 .*baseline" "$T/out" || { cat "$T/out"; fail "the table names the baseline"; }
ok "hprun -- sh -c 'echo t=1' ran 5 baseline runs timed by wall_ms, with no plan file"
rm -r "$T/w/hprun-out"

# ---- Tool, modes, a metric and -r; the fake ncu is found on PATH as the real one would be.
mkdir "$T/bin"
ln -s "$BUILD/fake/ncu" "$T/bin/ncu"
set -- --tool ncu --mode time --mode full --metric mean_kernel_ms -r 3 -- \
  "$FAKEAPP" --noise 0 --sleep 1 --print "label=a b #c"
expect_exit 0 env PATH="$T/bin:$PATH" "$HPRUN" "$@"
S=$(session_dir "$T/w/hprun-out")
J="$S/summary.json"
assert_eq "$(json_get "$J" "[p['name'] for p in d['passes']]")" "['normal', 'time', 'full']" "passes from --mode"
assert_eq "$(pass_get "$J" normal "p['metrics'][0]['name']")" "mean_kernel_ms" "primary metric from --metric"
assert_eq "$(pass_get "$J" time "len(p['runs'])")" 3 "runs from -r"
# The fake ncu's factor for `time` (tests/e2e/test_other_tools.sh reads the same 1.9 from a plan).
assert_close "$(pass_get "$J" time "p['overhead']['ratio']")" 1.9 1e-6 "ncu time ratio"
pass_get "$J" normal "p['runs'][0]['command']" | grep -q -- "label=a b #c" || fail "an argument with spaces and # reached the app whole"
ok "--tool ncu --mode time --mode full --metric mean_kernel_ms -r 3 ran three passes of 3 runs"

# ---- --print-plan: the YAML loads back as the same plan.
expect_exit 0 "$HPRUN" --print-plan "$@"
cp "$T/out" "$T/w/printed.yaml"
[ ! -s "$T/err" ] || { cat "$T/err"; fail "--print-plan wrote to stderr"; }
grep -qx "  - normal" printed.yaml || fail "the printed plan has the baseline"
cmp -s printed.yaml "$S/plan.yaml" || { diff printed.yaml "$S/plan.yaml" || true; fail "the printed plan is not the session's plan.yaml"; }
expect_exit 0 env PATH="$T/bin:$PATH" "$HPRUN" check printed.yaml
expect_exit 0 env PATH="$T/bin:$PATH" "$HPRUN" --dry-run printed.yaml
cp "$T/out" "$T/dry.file"
expect_exit 0 env PATH="$T/bin:$PATH" "$HPRUN" --dry-run "$@"
cmp -s "$T/dry.file" "$T/out" || { diff "$T/dry.file" "$T/out" || true; fail "the printed plan's dry run differs"; }
ok "--print-plan's YAML is the session's plan.yaml, checks, and dry-runs the same commands"

# ---- The session's name: the program's, or an interpreter's script's, without the extension.
for c in "sh -c true:sh" "python3 dir/train.py --lr 1:train" "./a.out:a" "python3 -u t.py:python3"; do
  expect_exit 0 "$HPRUN" --print-plan -- ${c%%:*}
  assert_eq "$(grep '^name: ' "$T/out")" "name: ${c##*:}" "the name of ${c%%:*}"
done
ok "the session is named after the program, or the script an interpreter runs"

# ---- Mistakes: usage errors (exit 2), the loader's message for a bad mode.
expect_exit 2 "$HPRUN" --tool ncu --mode tme -- true
grep -q "^(command line):[0-9]*:[0-9]*: error: mode \`tme\` is not a mode of ncu.*did you mean \`time\`" "$T/err" || { cat "$T/err"; fail "a bad --mode"; }
grep -q "print-plan" "$T/err" || fail "a bad --mode points to --print-plan"
expect_exit 2 "$HPRUN" --tool ncu -- true
grep -q "needs at least one --mode" "$T/err" || { cat "$T/err"; fail "--tool without --mode"; }
expect_exit 2 "$HPRUN" --metric t --
grep -q "no command after" "$T/err" || { cat "$T/err"; fail "nothing after --"; }
expect_exit 2 "$HPRUN" printed.yaml -- true
grep -q "not both" "$T/err" || { cat "$T/err"; fail "a plan and a command"; }
[ ! -e "$T/w/hprun-out/true" ] || fail "a refused command line made a session folder"
ok "bad command lines exit 2 with a message"
