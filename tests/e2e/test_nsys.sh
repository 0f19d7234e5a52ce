# The nsys driver with its stand-in (tests/fake/nsys.c, which refuses any other command line): each
# mode's options reach `nsys profile`, the report lands in the run folder, `nsys stats` runs after
# the run and outside its timing, and its CSVs are parsed into the run's profile.
. "$(dirname "$0")/lib.sh"

cat >"$T/nsys.yaml" <<YAML
name: nsys
output: sessions
app:
  command: [$FAKEAPP, --noise, "0", --sleep, "1"]
profiler: {tool: nsys, path: $BUILD/fake/nsys}
metrics: [mean_kernel_ms]
passes: [normal, cuda, osrt, sample]
YAML
expect_exit 0 "$HPRUN" --quiet "$T/nsys.yaml"
S=$(session_dir "$T/sessions")
J="$S/summary.json"
assert_close "$(pass_get "$J" cuda "p['overhead']['ratio']")" 1.05 1e-6 "nsys cuda ratio"
assert_close "$(pass_get "$J" osrt "p['overhead']['ratio']")" 1.1 1e-6 "nsys osrt ratio"
assert_close "$(pass_get "$J" sample "p['overhead']['ratio']")" 1.25 1e-6 "nsys sample ratio"
pass_get "$J" osrt "p['runs'][0]['command']" | grep -q -- "profile --trace=cuda,nvtx,osrt --sample=none -o $S/osrt/1/report" ||
  fail "nsys osrt command: $(pass_get "$J" osrt "p['runs'][0]['command']")"
pass_get "$J" sample "p['runs'][0]['command']" | grep -q -- "--sample=process-tree" || fail "sampling"
[ -s "$S/cuda/1/report.nsys-rep" ] || fail "report.nsys-rep not in the run folder"
[ -s "$S/cuda/1/stats_cuda_gpu_kern_sum.csv" ] || fail "nsys stats did not run after the run"
grep -q "^Generating SQLite" "$S/cuda/1/nsys-after.stdout.txt" || fail "nsys stats output not kept"
assert_eq "$(pass_get "$J" cuda "p['crosscheck']['profiler_calls']")" 120 "nsys kernel launches parsed"
[ ! -e "$S/normal/1/stats_cuda_gpu_kern_sum.csv" ] || fail "nsys stats ran after the baseline"
ok "nsys"
