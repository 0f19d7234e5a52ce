# On AMD and DCU the device-memory sampler reads amdgpu's mem_info_vram_used in-process (here a
# stand-in tree under HPRUN_TEST_SYSFS_ROOT), for the app's visible GPU, and starts no process:
# a hy-smi on PATH is never called. Without the file, hy-smi is preferred to rocm-smi.
. "$(dirname "$0")/lib.sh"
FAKES="$(cd "$(dirname "$0")/../fake" && pwd)"

mkdir -p "$T/sys/class/drm/card0/device" "$T/sys/class/drm/card1/device" "$T/sys/class/drm/card1-DP-1" "$T/bin"
echo 1073741824 >"$T/sys/class/drm/card0/device/mem_info_vram_used"
echo 3221225472 >"$T/sys/class/drm/card1/device/mem_info_vram_used"
# Loop-tool stand-ins: hy-smi reports 1 GiB in use; rocm-smi, made from it, 2 GiB, so the mean
# says which one sampled.
cp "$FAKES/hy-smi.sh" "$T/bin/hy-smi"
sed 's/card0,68702699520,1073741824/card0,68702699520,2147483648/' "$FAKES/hy-smi.sh" >"$T/bin/rocm-smi"
chmod +x "$T/bin/hy-smi" "$T/bin/rocm-smi"
cat >"$T/plan.yaml" <<YAML
name: vram
output: sessions
repeat: 2
app:
  command: [$FAKEAPP, --noise, "0", --sleep, "200"]
  env: {HIP_VISIBLE_DEVICES: "1"}
metrics: [mean_kernel_ms]
passes: [normal]
sampler: {tool: auto, interval: 10ms}
YAML
PATH="$T/bin:$PATH" HPRUN_TEST_SYSFS_ROOT="$T/sys" expect_exit 0 "$HPRUN" --quiet "$T/plan.yaml"
S=$(session_dir "$T/sessions")
J="$S/summary.json"
n=$(pass_get "$J" normal "p['runs'][0]['memory']['samples']")
[ "$n" -ge 5 ] || fail "expected a reading every 10 ms of a 200 ms run, got $n"
assert_close "$(pass_get "$J" normal "p['memory']['sampled_mean_mib']")" 3072 0.001 "card1's 3 GiB (HIP_VISIBLE_DEVICES=1)"
# A sampler command's output would be kept in hprun-memory.txt: there is none.
[ ! -e "$S/normal/1/hprun-memory.txt" ] || fail "a sampler command ran: $(head -2 "$S/normal/1/hprun-memory.txt")"
ok "sysfs read in-process for the visible GPU; no process started"

# Without the sysfs file, hy-smi (first on the list for a DTK node) is the loop tool.
rm -rf "$T/sessions"
PATH="$T/bin:$PATH" HPRUN_TEST_SYSFS_ROOT="$T/empty" expect_exit 0 "$HPRUN" --quiet "$T/plan.yaml"
S=$(session_dir "$T/sessions")
[ -s "$S/normal/1/hprun-memory.txt" ] || fail "no loop tool sampled without sysfs"
assert_close "$(pass_get "$S/summary.json" normal "p['memory']['sampled_mean_mib']")" 1024 0.001 "hy-smi's 1 GiB, not rocm-smi's 2"
ok "fallback to hy-smi over rocm-smi without sysfs"

# An explicit `sampler: sysfs` without the file says why memory is absent.
rm -rf "$T/sessions"
sed 's/tool: auto/tool: sysfs/' "$T/plan.yaml" >"$T/plan2.yaml"
HPRUN_TEST_SYSFS_ROOT="$T/empty" expect_exit 0 "$HPRUN" --quiet "$T/plan2.yaml"
S=$(session_dir "$T/sessions")
pass_get "$S/summary.json" normal "p['memory']['note']" | grep -q "mem_info_vram_used" || fail "no reason given"
ok "sampler: sysfs without the file is a note"
