# Device memory is sampled while each run lives (here with the stand-in nvidia-smi found on PATH),
# and is absent with a reason where no query tool exists.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/bin"
ln -s "$BUILD/fake/nvidia-smi" "$T/bin/nvidia-smi"
cat >"$T/plan.yaml" <<YAML
name: mem
output: sessions
repeat: 2
app:
  command: [$FAKEAPP, --noise, "0", --sleep, "200"]
metrics: [mean_kernel_ms]
passes: [normal]
sampler: {tool: auto, interval: 10ms}
YAML
PATH="$T/bin:$PATH" expect_exit 0 "$HPRUN" --quiet "$T/plan.yaml"
S=$(session_dir "$T/sessions")
J="$S/summary.json"
n=$(pass_get "$J" normal "p['runs'][0]['memory']['samples']")
[ "$n" -ge 3 ] || fail "expected several samples in a 200 ms run, got $n"
mean=$(pass_get "$J" normal "p['memory']['sampled_mean_mib']")
assert_close "$mean" 1025 30 "sampled mean (the stand-in reports 1000..1049 MiB)"
[ -s "$S/normal/1/hprun-memory.txt" ] || fail "raw sampler output not kept"
assert_eq "$(pass_get "$J" normal "p['runs'][0]['files']")" "[]" "the sampler file is not a profiler file"
assert_no_process "$T/bin/nvidia-smi"
ok "sampled with nvidia-smi"

rm -rf "$T/sessions"
sed 's/sampler: .*/sampler: {tool: nvidia-smi}/' "$T/plan.yaml" >"$T/plan2.yaml"
PATH="/usr/bin:/bin" expect_exit 0 "$HPRUN" --quiet "$T/plan2.yaml"
S=$(session_dir "$T/sessions")
pass_get "$S/summary.json" normal "p['memory']['note']" | grep -q "not found" || fail "no reason given"
assert_eq "$(pass_get "$S/summary.json" normal "p['memory']['sampled_mean_mib']")" None "mean absent"
ok "absent with a reason"
