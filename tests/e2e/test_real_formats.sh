# Real profiler files from public repositories and the H200 (tests/fixtures/real/README.md):
# hprun's counts and totals against values tests/fixtures/real/check.py computes from the same
# files with Python's csv module. Then what a user sees: the DTK PMC text gives a table, a
# compute-sanitizer report gives counts, not its thousands of lines.
. "$(dirname "$0")/lib.sh"
R="$(cd "$(dirname "$0")/../fixtures/real" && pwd)"

"$PY" "$R/check.py" "$HPRUN" "$R" >"$T/check" 2>&1 || { cat "$T/check"; fail "real fixtures"; }
ok "$(tail -1 "$T/check")"

expect_exit 0 "$HPRUN" summarize "$R/hipprof/qwen-dcu/pmc_results_25232.txt"
grep -q "no profiler output" "$T/out" "$T/err" && fail "DTK pmc text not recognised"
grep -q "^kernel_time_us     avg 143131.333, min 143119.000, max 143150.000 (3 rows)" "$T/out" ||
  fail "DTK pmc kernel time (hand: (0.143125+0.143119+0.143150)/3 s)"
grep -q "^L2 cache hit rate (%) " "$T/out" || fail "DTK counter with its unit"
ok "DTK 26.04 pmc text"

expect_exit 0 "$HPRUN" summarize "$R/sanitizer/nvidia-samples/NvtxPermissions.txt"
grep -qxF "Invalid __global__ read         2  at 0x20 in IncrementTwice(unsigned int*); by thread (0,0,0) in block (0,0,0); Address 0x7f6f67000000 is not readable" "$T/out" ||
  fail "errors by kind with the first location"
grep -qxF "IncrementTwice(unsigned int*)       4  Invalid __global__ atomic,Invalid __global__ read,Invalid __global__ write" "$T/out" ||
  fail "errors by kernel"
ok "compute-sanitizer tables"

# hipprof -o X.csv writes X.csv.hipkernel.csv, X.csv.hiptrace.csv and X.csv.csv (profiler-formats.md
# §1.2): each is read as what it is.
mkdir -p "$T/o"
cp "$R/hipprof/qwen-dcu/result_23940.hipkernel.csv" "$T/o/run.csv.hipkernel.csv"
printf '"Name","Calls","TotalDurationNs","AverageNs","Percentage"\n"hipMalloc","3","240481148","80160382","97.8"\n"Total","3","240481148","80160382","100.0"\n' >"$T/o/run.csv.hiptrace.csv"
expect_exit 0 "$HPRUN" summarize --format json "$T/o"
assert_eq "$(json_get "$T/out" "sorted((f['path'].split('/')[-1], f['format']) for f in d['files'])")" \
  "[('run.csv.hipkernel.csv', 'hipprof-kernel-stats'), ('run.csv.hiptrace.csv', 'hipprof-api-stats')]" \
  "hipprof -o X.csv names"
assert_eq "$(json_get "$T/out" "d['api'][0]['calls']")" 3 "hiptrace rows, Total skipped"
ok "hipprof -o naming"
