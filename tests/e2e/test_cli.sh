# --help, --version, check, --dry-run, option parsing of every subcommand, and a session folder
# that is never reused.
. "$(dirname "$0")/lib.sh"

expect_exit 0 "$HPRUN" --version
grep -q "^hprun [0-9]" "$T/out" || fail "--version"
expect_exit 0 "$HPRUN" --help
grep -q "summarize" "$T/out" || fail "--help lists commands"

# Every subcommand takes -h and --help anywhere: its usage on stdout, nothing on stderr, exit 0.
for c in run check summarize report compare; do
  for h in -h --help; do
    expect_exit 0 "$HPRUN" "$c" "$h"
    grep -q "^usage: hprun .*$c" "$T/out" || { cat "$T/out"; fail "$c $h: no usage line"; }
    [ ! -s "$T/err" ] || { cat "$T/err"; fail "$c $h wrote to stderr"; }
  done
  # After an argument, too: options may follow the positional ones.
  expect_exit 0 "$HPRUN" "$c" some-path --help
  grep -q "^usage: hprun " "$T/out" || fail "$c some-path --help: no usage line"
done

# An unknown option exits 2 and names the option, long or short, in hprun's own words (the
# summarize wording is its own and is followed by its usage).
for c in run check report compare; do
  expect_exit 2 "$HPRUN" "$c" --no-such-option
  grep -qx "hprun: unknown option '--no-such-option' (hprun $c --help)" "$T/err" ||
    { cat "$T/err"; fail "$c: message for an unknown long option"; }
  expect_exit 2 "$HPRUN" "$c" -Z
  grep -qx "hprun: unknown option '-Z' (hprun $c --help)" "$T/err" ||
    { cat "$T/err"; fail "$c: message for an unknown short option"; }
  [ ! -s "$T/out" ] || fail "$c: an unknown option printed to stdout"
done
expect_exit 2 "$HPRUN" summarize --no-such-option x
grep -qx "hprun summarize: unknown option: --no-such-option" "$T/err" || { cat "$T/err"; fail "summarize: unknown option"; }
grep -q "^usage: hprun summarize" "$T/err" || fail "summarize: usage after an unknown option"
expect_exit 2 "$HPRUN" summarize x -Z
grep -qx "hprun summarize: unknown option: -Z" "$T/err" || { cat "$T/err"; fail "summarize: unknown short option"; }
# An option that takes no value, given one, is refused as written.
expect_exit 2 "$HPRUN" run --dry-run=yes x.yaml
grep -qx "hprun: unknown option '--dry-run=yes' (hprun run --help)" "$T/err" || { cat "$T/err"; fail "--dry-run=yes"; }

# A missing value: the generic line, then the option's own where it has one.
expect_exit 2 "$HPRUN" run x.yaml --output
grep -qx "hprun: option --output needs a value" "$T/err" || { cat "$T/err"; fail "run --output without a value"; }
expect_exit 2 "$HPRUN" run x.yaml --repeat
[ "$(cat "$T/err")" = "hprun: option --repeat needs a value
hprun: --repeat needs an integer from 1 to 100000" ] || { cat "$T/err"; fail "run --repeat without a value"; }
expect_exit 2 "$HPRUN" compare a b --tolerance
[ "$(cat "$T/err")" = "hprun: option --tolerance needs a value
hprun: --tolerance needs a fraction or a percentage (0.05 or 5%)" ] || { cat "$T/err"; fail "compare --tolerance"; }
expect_exit 2 "$HPRUN" summarize x --top
grep -qx "hprun summarize: --top needs a value" "$T/err" || { cat "$T/err"; fail "summarize --top"; }
# Both spellings of a value, and errors in the order they were written.
expect_exit 2 "$HPRUN" run x.yaml --repeat=0
grep -qx "hprun: --repeat needs an integer from 1 to 100000" "$T/err" || fail "--repeat=0"
expect_exit 2 "$HPRUN" run a.yaml b.yaml --no-such-option
grep -qx "hprun: one plan at a time ('a.yaml' and 'b.yaml')" "$T/err" || { cat "$T/err"; fail "two plans"; }
expect_exit 2 "$HPRUN" compare a b c
grep -qx "hprun: compare takes two sessions" "$T/err" || fail "compare with three sessions"
# Arguments after `--` are never options: here a path that does not exist.
expect_exit 4 "$HPRUN" summarize -- --top
grep -qx "hprun summarize: --top: no such file or folder" "$T/err" || { cat "$T/err"; fail "summarize -- --top"; }

# The run help lists every tool with its modes, read from the driver table.
expect_exit 0 "$HPRUN" run --help
for tool in hipprof rocprofv3 rocprof ncu; do
  grep -q "^  $tool  *normal, command, " "$T/out" || { cat "$T/out"; fail "run --help does not list $tool"; }
done
grep -q "^  ncu  *normal, command, time, basic, full, default$" "$T/out" || fail "ncu's modes"
grep -q "kernel-stack" "$T/out" && grep -q "hiptx-trace" "$T/out" || fail "hipprof's modes (wrapped)"

# Every plan shipped in configs/ is valid (with --no-preflight, check needs no program to exist).
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
expect_exit 0 "$HPRUN" check --no-preflight "$ROOT"/configs/*.yaml "$ROOT"/configs/examples/*.yaml

# The preflight: check refuses what the run would refuse, with the run's message and exit 2, and
# --no-preflight checks the plan alone.
cat >"$T/noprog.yaml" <<YAML
name: noprog
app: {command: [hprun-no-such-program, "1"]}
passes: [normal]
YAML
printf 'name: noprof\napp: {command: [%s]}\nprofiler: {tool: hipprof}\npasses: [normal, stats]\n' \
  "$FAKEAPP" >"$T/noprof.yaml"
for p in noprog noprof; do
  expect_exit 2 env PATH=/usr/bin:/bin "$HPRUN" check "$T/$p.yaml"
  cp "$T/err" "$T/check-err"
  expect_exit 2 env PATH=/usr/bin:/bin "$HPRUN" --output "$T/pf-out" "$T/$p.yaml"
  cmp -s "$T/err" "$T/check-err" || { diff "$T/check-err" "$T/err"; fail "check and run differ on $p"; }
  [ ! -e "$T/pf-out" ] || fail "the preflight or the refused run created $T/pf-out"
  expect_exit 0 env PATH=/usr/bin:/bin "$HPRUN" check --no-preflight "$T/$p.yaml"
done
grep -q "^$T/noprof.yaml:4: error: pass 'stats': profiler 'hipprof' not found on PATH" "$T/check-err" \
  || { cat "$T/check-err"; fail "the profiler preflight's message"; }

cat >"$T/plan.yaml" <<YAML
name: cli
output: sessions
repeat: 2
app:
  command: [$FAKEAPP, --noise, "0", --sleep, "1"]
profiler: {path: $FAKE_HIPPROF}
metrics: [mean_kernel_ms]
passes: [normal, stats, {name: cg, command: [env, "OUT={dir}/x", "{app}"]}]
YAML
expect_exit 0 "$HPRUN" check "$T/plan.yaml"
expect_exit 0 "$HPRUN" --dry-run "$T/plan.yaml"
# (The stand-in's help lists -o and -d, so each stats run writes into its own folder.)
[ "$(grep -c -- "--hip-trace --stats -o '[^ ]*/stats/[0-9]/' -d '[^ ]*/stats/[0-9]' $FAKEAPP" "$T/out")" = 2 ] || { cat "$T/out"; fail "dry run lines"; }
grep -q "OUT=.*/cg/1/x" "$T/out" || { cat "$T/out"; fail "{dir} not expanded"; }
[ ! -d "$T/sessions" ] || fail "dry run created the output folder"
# Options after the plan, with no subcommand and with `run`: the same dry run.
cp "$T/out" "$T/dry-before"
expect_exit 0 "$HPRUN" "$T/plan.yaml" --dry-run
cmp -s "$T/out" "$T/dry-before" || { diff "$T/dry-before" "$T/out"; fail "hprun PLAN --dry-run differs"; }
expect_exit 0 "$HPRUN" run "$T/plan.yaml" -n --repeat 3
[ "$(grep -c -- "--hip-trace --stats -o '[^ ]*/stats/[0-9]/' -d '[^ ]*/stats/[0-9]' $FAKEAPP" "$T/out")" = 3 ] || { cat "$T/out"; fail "run PLAN -n --repeat 3"; }
[ ! -d "$T/sessions" ] || fail "dry run created the output folder"

expect_exit 0 "$HPRUN" --quiet "$T/plan.yaml"
expect_exit 0 "$HPRUN" "$T/plan.yaml" --quiet
n=$(find "$T/sessions" -mindepth 1 -maxdepth 1 -type d | wc -l)
[ "$n" = 2 ] || fail "two sessions in the same second must get two folders, got $n"
ok "cli"
