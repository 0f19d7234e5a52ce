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

# `other` above 10% of kernel time: the terminal, report.md and report.html name the largest
# uncategorised kernels and give a `categories:` snippet; pasted into the plan, it loads and the
# kernel leaves `other`, so the hint is gone. (The stand-in's one kernel is vector_add, which this
# plan's only rule does not match: `other` is 100%.)
hintplan() { # FILE CATEGORIES
  printf 'name: hint\noutput: sessions-%s\napp: {command: [%s, --noise, "0", --sleep, "0"]}\nprofiler: {tool: nsys, path: %s}\nmetrics: [mean_kernel_ms]\npasses: [normal, cuda]\n%s\n' \
    "$1" "$FAKEAPP" "$BUILD/fake/nsys" "$2" >"$T/$1.yaml"
}
hintplan other 'categories: [{name: gemm, patterns: [gemm]}]'
expect_exit 0 "$HPRUN" --repeat 2 "$T/other.yaml"
grep -q '^  cuda: `other` holds 100.0% of kernel time; its largest kernels: `vector_add` (100.0%)\. To name them' "$T/out" \
  || { cat "$T/out"; fail "the terminal's hint"; }
grep -q '^    categories:$' "$T/out" && grep -q '^      - {name: "custom", patterns: \["vector_add"\]}$' "$T/out" \
  || { cat "$T/out"; fail "the terminal's snippet"; }
S=$(session_dir "$T/sessions-other")
grep -q '^`other` holds 100.0% of kernel time' "$S/report.md" || fail "report.md's hint"
grep -q '<p class="hint">`other` holds 100.0% of kernel time' "$S/report.html" || fail "report.html's hint"
grep -q '^  - {name: &quot;custom&quot;, patterns: \[&quot;vector_add&quot;\]}$' "$S/report.html" \
  || fail "report.html's snippet"
# The snippet as report.md gives it, pasted in place of the plan's categories.
SNIP=$(sed -n '/^```yaml$/,/^```$/p' "$S/report.md" | sed '1d;$d')
hintplan pasted "$SNIP"
expect_exit 0 "$HPRUN" check --no-preflight "$T/pasted.yaml"
expect_exit 0 "$HPRUN" --repeat 2 "$T/pasted.yaml"
grep -q '`other` holds' "$T/out" && fail "the hint stayed after pasting the snippet"
P=$(session_dir "$T/sessions-pasted")
assert_eq "$(pass_get "$P/summary.json" cuda "[c['name'] for c in p['profile']['categories']]")" "['custom']" "the pasted category"
ok "nsys: other above 10% gives a hint with a categories snippet that loads and names the kernel"
