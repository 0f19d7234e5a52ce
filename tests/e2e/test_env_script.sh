# profiler.env_script is the node's environment: a plan whose only route to hipprof, hy-smi and
# hipcc is the script runs, in its build, hooks, sampler, profiler and app, and its dry run gives
# the run's answer. The manifest records the script and its SHA-256.
. "$(dirname "$0")/lib.sh"
FAKES="$(cd "$(dirname "$0")/../fake" && pwd)"

mkdir -p "$T/dtk/bin" "$T/app"
ln -s "$FAKE_HIPPROF" "$T/dtk/bin/hipprof"
cp "$FAKES/hy-smi.sh" "$T/dtk/bin/hy-smi"
cp "$FAKES/hipcc.sh" "$T/dtk/bin/hipcc"
cat >"$T/dtk/env.sh" <<SH
# A stand-in DTK env.sh: the only place that puts the DTK tools on PATH.
export PATH="$T/dtk/bin:\$PATH"
export HIPCC_FAKE_APP="$FAKEAPP"
export ROCM_PATH="$T/dtk"
echo "DTK environment loaded"
SH
echo "int main(void) { return 0; }" >"$T/app/vecadd.cpp"
cat >"$T/plan.yaml" <<YAML
name: dtk
output: sessions
repeat: 2
app:
  cwd: app
  build: [hipcc, -O3, -o, vecadd, vecadd.cpp]
  prepare: [hy-smi]
  command: [vecadd-run, --noise, "0", --sleep, "30"]
  timeout: 30s
profiler:
  tool: hipprof
  env_script: dtk/env.sh
metrics:
  - name: mean_kernel_ms
    pattern: 'mean_kernel_ms=([0-9.eE+-]+)'
    unit: ms
passes: [normal, stats]
sampler: {tool: auto, interval: 10ms}
YAML
# The app's program is a wrapper that env.sh's PATH alone reaches, and it starts what the build
# made: so the program lookup, the build and the app all depend on the script.
printf '#!/bin/sh\nexec "%s/app/vecadd" "$@"\n' "$T" >"$T/dtk/bin/vecadd-run"
chmod +x "$T/dtk/bin/vecadd-run"

# hprun's own PATH holds only the few system programs the runs use, so that a real hipcc or
# hy-smi on this machine cannot stand in for the script's.
mkdir -p "$T/bare"
for t in sh env sleep chmod cat; do ln -s "$(command -v "$t")" "$T/bare/$t"; done
BARE=$T/bare
for t in hipprof hy-smi hipcc vecadd-run; do
  if PATH=$BARE command -v "$t" >/dev/null 2>&1; then fail "$t is on the bare PATH: the test proves nothing"; fi
done

expect_exit 0 env PATH="$BARE" "$HPRUN" check "$T/plan.yaml"
ok "check accepts the plan"
expect_exit 0 env PATH="$BARE" "$HPRUN" run -n "$T/plan.yaml"
grep -q "$T/dtk/bin/hipprof" "$T/out" || { cat "$T/out"; fail "the dry run does not show env.sh's hipprof"; }
ok "the dry run finds hipprof where env.sh puts it"

expect_exit 0 env PATH="$BARE" "$HPRUN" --quiet "$T/plan.yaml"
S=$(session_dir "$T/sessions")
J="$S/summary.json"
[ -x "$T/app/vecadd" ] || fail "the build did not run hipcc from env.sh"
ls "$S/stats/1" | grep -q '\.hiptrace\.csv$' || fail "stats/1 lacks hipprof's API CSV: $(ls "$S/stats/1")"
grep -q "hy-smi (hprun test double)" "$S/normal/1/prepare.stdout.txt" || fail "the prepare hook did not reach hy-smi"
n=$(pass_get "$J" normal "p['runs'][0]['memory']['samples']")
[ "$n" -ge 1 ] || fail "hy-smi from env.sh gave no samples"
mean=$(pass_get "$J" normal "p['memory']['sampled_mean_mib']")
assert_close "$mean" 1024 0.5 "sampled mean (the stand-in hy-smi reports 1 GiB)"
ok "build, hook, sampler, profiler and app all found through env.sh"

M="$S/manifest.json"
assert_eq "$(json_get "$M" "d['env_script']['file']")" "$T/dtk/env.sh" "manifest env_script file"
want=$(sha256sum "$T/dtk/env.sh" | cut -d' ' -f1)
assert_eq "$(json_get "$M" "d['env_script']['sha256']")" "$want" "manifest env_script sha256"
assert_eq "$(json_get "$M" "d['gpu']['hy-smi']['exit_status']")" 0 "manifest probes hy-smi on env.sh's PATH"
assert_eq "$(json_get "$M" "d['environment']['ROCM_PATH']")" "$T/dtk" "manifest environment is env.sh's"
ok "the manifest records the script and its hash"

# Without the script, the same plan fails before anything runs, naming the profiler.
sed '/env_script/d' "$T/plan.yaml" >"$T/plan2.yaml"
expect_exit 2 env PATH="$BARE" "$HPRUN" --quiet "$T/plan2.yaml"
grep -q "not found on PATH" "$T/err" || { cat "$T/err"; fail "no reason for the missing program"; }
ok "without env_script the plan is refused before it runs"
