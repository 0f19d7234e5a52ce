# Absolute references (`reference:`, docs/plan.md): a baseline 10% slower than its reference fails
# the run (exit 1) with a `fail:` line of kind `reference` in every report; one at its reference
# is a note that shows the reference next to the measured value; an entry for other hosts does not
# apply; a reference to an unknown pass or metric is a plan error at its line.
. "$(dirname "$0")/lib.sh"

refplan() { # FILE BASE REFERENCES
  cat >"$T/$1" <<YAML
name: ref
output: sessions
repeat: 6
app:
  command: [$FAKEAPP, --base, "$2", --noise, "0.002", --sleep, "1"]
metrics: [{name: mean_kernel_ms, unit: ms}]
passes: [normal]
reference:
$3
YAML
}
REFS='  - {metric: mean_kernel_ms, value: 5, tolerance: 5%, host: "hprun-no-such-host-*"}
  - {metric: mean_kernel_ms, value: 1.0, tolerance: 5%}'
refplan slow.yaml 1.10 "$REFS"
expect_exit 1 "$HPRUN" --quiet "$T/slow.yaml" --junit "$T/slow.xml"
grep -q '^fail: normal: mean_kernel_ms 1\.[01][0-9]* ms against reference 1 ±5%, 95% CI \[+[0-9.]*%, +[0-9.]*%\]: outside the reference$' "$T/out" \
  || { cat "$T/out"; fail "the reference's fail: line"; }
grep -q "against reference 5" "$T/out" && fail "a reference for other hosts applied"
grep -q '<failure type="reference" message="mean_kernel_ms 1\.[01]' "$T/slow.xml" || { cat "$T/slow.xml"; fail "JUnit"; }
S=$(ls -d "$T"/sessions/ref-latest)
grep -q '"kind": "reference"' "$S/summary.json" || fail "summary.json's cause kind"
grep -q '^- fail: normal: mean_kernel_ms 1\.[01][0-9]* ms against reference 1 ±5%' "$S/report.md" || fail "report.md"
expect_exit 1 "$HPRUN" report "$S"
grep -q '^fail: normal: mean_kernel_ms .* outside the reference$' "$T/out" || fail "hprun report"

refplan same.yaml 1.0 "$REFS"
expect_exit 0 "$HPRUN" --quiet "$T/same.yaml"
grep -q '^note: normal: mean_kernel_ms [01]\.[0-9]* ms against reference 1 ±5%, 95% CI \[.*\]: within the reference$' "$T/out" \
  || { cat "$T/out"; fail "the reference's note"; }
ok "reference: 10% slower than the reference fails (exit 1, kind reference); at it, a note"

refplan bad.yaml 1.0 '  - {pass: nomal, value: 1}
  - {metric: mean_kernel, value: 1}
  - {value: 0}'
expect_exit 2 "$HPRUN" check --no-preflight "$T/bad.yaml"
grep -q "bad.yaml:9:[0-9]*: error: reference to unknown pass \`nomal\` (the plan's passes: normal)" "$T/err" || { cat "$T/err"; fail "unknown pass"; }
grep -q "bad.yaml:10:[0-9]*: error: reference to unknown metric \`mean_kernel\`" "$T/err" || { cat "$T/err"; fail "unknown metric"; }
grep -q "bad.yaml:11:[0-9]*: error: a reference's \`value\` must be > 0, got '0'" "$T/err" || { cat "$T/err"; fail "value 0"; }
ok "reference: plan errors at their line"

# `gpu:` selectors match the GPU name the manifest records (gpu.name), read from the vendor tool
# that comes first on PATH: the stand-in nvidia-smi names "hprun test double GPU".
GREFS='  - {metric: mean_kernel_ms, value: 5, tolerance: 5%, gpu: "NVIDIA H200"}
  - {metric: mean_kernel_ms, value: 1.0, tolerance: 5%, gpu: "hprun test double*"}
  - {metric: mean_kernel_ms, value: 7, tolerance: 5%}'
refplan gpu.yaml 1.10 "$GREFS"
rm -rf "$T/sessions"
expect_exit 1 env PATH="$BUILD/fake:$PATH" "$HPRUN" --quiet "$T/gpu.yaml"
grep -q '^fail: normal: mean_kernel_ms 1\.[01][0-9]* ms against reference 1 ±5% (GPU hprun test double\*), 95% CI .*: outside the reference$' "$T/out" \
  || { cat "$T/out"; fail "the GPU's reference"; }
grep -q "against reference [57]" "$T/out" && fail "a reference for another GPU, or a later catch-all, applied"
S=$(ls -d "$T"/sessions/ref-latest)
assert_eq "$(json_get "$S/manifest.json" "d['gpu']['name']")" "hprun test double GPU" "manifest.json's gpu.name"

# No vendor tool names the GPU (both answer with an error): the gpu entries are passed over with
# one note, and the catch-all applies.
mkdir -p "$T/nogpu"
printf '#!/bin/sh\necho "NVIDIA-SMI has failed" >&2\nexit 9\n' >"$T/nogpu/nvidia-smi"
cp "$T/nogpu/nvidia-smi" "$T/nogpu/rocm-smi"
chmod +x "$T/nogpu/nvidia-smi" "$T/nogpu/rocm-smi"
expect_exit 1 env PATH="$T/nogpu:$PATH" "$HPRUN" --quiet "$T/gpu.yaml"
grep -q '^fail: normal: mean_kernel_ms .* against reference 7 ±5%, 95% CI' "$T/out" || { cat "$T/out"; fail "the catch-all"; }
grep -q "^note: references with a \`gpu\` pattern were not evaluated: no vendor tool named the GPU" "$T/out" \
  || { cat "$T/out"; fail "the unknown GPU's note"; }
ok "reference: a gpu pattern matches manifest.json's gpu.name; an unknown GPU is a note"

refplan launched.yaml 1.0 '  - {metric: mean_kernel_ms, value: 1, gpu: "H200*"}
launcher: {kind: mpirun}'
expect_exit 2 "$HPRUN" check --no-preflight "$T/launched.yaml"
grep -q "launched.yaml:9:[0-9]*: error: a reference's \`gpu\` cannot apply to a launched pass" "$T/err" || { cat "$T/err"; fail "gpu under a launcher"; }
ok "reference: a gpu pattern for a launched pass is a plan error"
