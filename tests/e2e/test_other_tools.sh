# The ncu and rocprofv3 drivers with their stand-ins: the right options reach the tool (ncu refuses
# to run without an explicit --clock-control), ratios follow the stand-ins' factors, and what they
# wrote is parsed into the cross-check.
. "$(dirname "$0")/lib.sh"

cat >"$T/ncu.yaml" <<YAML
name: ncu
output: sessions
app:
  command: [$FAKEAPP, --noise, "0", --sleep, "1"]
profiler: {tool: ncu, path: $BUILD/fake/ncu}
metrics: [mean_kernel_ms]
passes:
  - normal
  - {name: time, mode: time, kernel: vector_add}
  - {name: full, mode: full, expect: distorted}
  - {name: limit, mode: time, launch_count: 10}
YAML
expect_exit 0 "$HPRUN" --quiet "$T/ncu.yaml"
S=$(session_dir "$T/sessions")
J="$S/summary.json"
assert_close "$(pass_get "$J" time "p['overhead']['ratio']")" 1.9 1e-6 "ncu metric ratio"
assert_close "$(pass_get "$J" full "p['overhead']['ratio']")" 40 1e-6 "ncu full ratio"
assert_eq "$(pass_get "$J" full "p['flag']")" unconfirmed "ncu full flag (one run: no interval)"
pass_get "$J" limit "p['runs'][0]['command']" | grep -q -- "-c 10" || fail "launch count not passed"
pass_get "$J" time "p['runs'][0]['command']" | grep -q -- "--clock-control none" || fail "clock control"
[ -s "$S/time/1/ncu.csv" ] || fail "ncu.csv not in the run folder"
assert_eq "$(pass_get "$J" time "p['crosscheck']['profiler_calls']")" 120 "ncu launches parsed"
assert_eq "$(pass_get "$J" limit "p['crosscheck']['profiler_calls']")" 10 "ncu launch limit parsed"
ok "ncu"

rm -rf "$T/sessions"
cat >"$T/v3.yaml" <<YAML
name: v3
output: sessions
app:
  command: [$FAKEAPP, --noise, "0", --sleep, "1"]
profiler: {tool: rocprofv3, path: $BUILD/fake/rocprofv3}
metrics: [mean_kernel_ms]
passes: [normal, kernel-trace, {name: pmc, mode: pmc, counters: [SQ_WAVES, GRBM_GUI_ACTIVE]}]
YAML
expect_exit 0 "$HPRUN" --quiet "$T/v3.yaml"
S=$(session_dir "$T/sessions")
J="$S/summary.json"
assert_close "$(pass_get "$J" kernel-trace "p['overhead']['ratio']")" 1.02 1e-6 "rocprofv3 ratio"
ls "$S/kernel-trace/1" | grep -q '_kernel_trace.csv$' || fail "rocprofv3 output not in the run folder"
[ "$(pass_get "$J" kernel-trace "p['crosscheck'] is not None")" = True ] || fail "kernel trace not parsed"
pass_get "$J" pmc "p['runs'][0]['command']" | grep -q -- "--pmc SQ_WAVES GRBM_GUI_ACTIVE" || fail "counters"
ok "rocprofv3"
