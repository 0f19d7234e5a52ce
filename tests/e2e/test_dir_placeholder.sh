# {dir}, the run's own folder, is filled in wherever the plan may hold it: app.command, app.env
# values, the prepare and cleanup hooks, and a pass's args, counters and command, as well as
# profiler.args. Each run gets its own folder there, never the literal text.
. "$(dirname "$0")/lib.sh"

cat >"$T/plan.yaml" <<YAML
name: dirs
output: sessions
repeat: 2
app:
  command: [sh, -c, 'echo "\$2" >"\$1/arg.txt"; echo "\$OUT" >"\$1/env.txt"; exec "\$0"', $FAKEAPP, "{dir}", "{dir}/x"]
  env: {OUT: "{dir}/from-env"}
  prepare: [sh, -c, 'echo "\$1" >"\$1/hook.txt"', sh, "{dir}"]
  timeout: 30s
profiler:
  tool: hipprof
  path: $FAKE_HIPPROF
  args: [--index-range, "0:1"]
metrics: [mean_kernel_ms]
passes:
  - normal
  - {name: st, mode: stats, args: [-d, "{dir}/tmp"]}
YAML
expect_exit 0 "$HPRUN" --quiet "$T/plan.yaml"
S=$(session_dir "$T/sessions")
for r in normal/1 normal/2 st/1 st/2; do
  assert_eq "$(cat "$S/$r/arg.txt")" "$S/$r/x" "app.command {dir} in $r"
  assert_eq "$(cat "$S/$r/env.txt")" "$S/$r/from-env" "app.env {dir} in $r"
  assert_eq "$(cat "$S/$r/hook.txt")" "$S/$r" "prepare {dir} in $r"
done
ok "app.command, app.env and hooks get the run folder"

# The profiler's command line, as the dry run shows it: the pass's args and counters get each
# run's folder too (rocprofv3 passes its counters on the command line).
expect_exit 0 "$HPRUN" run -n "$T/plan.yaml"
grep -q -- "-d '*[^ ]*/st/1/tmp" "$T/out" || { cat "$T/out"; fail "pass args {dir} not filled in"; }
# (The hooks are listed once, as written; each run's command line is indented by five.)
if grep "^     " "$T/out" | grep -q "{dir}"; then cat "$T/out"; fail "a literal {dir} is left in a run's command"; fi
cat >"$T/v3.yaml" <<YAML
name: v3
app: {command: [$FAKEAPP]}
profiler: {tool: rocprofv3, path: $BUILD/fake/rocprofv3}
metrics: [mean_kernel_ms]
passes:
  - normal
  - {name: c, mode: pmc, counters: ["{dir}"]}
YAML
expect_exit 0 "$HPRUN" run -n "$T/v3.yaml"
grep -q -- "--pmc '*[^ ]*/c/1" "$T/out" || { cat "$T/out"; fail "counters {dir} not filled in"; }
ok "pass args and counters get the run folder"
