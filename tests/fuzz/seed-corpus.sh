#!/bin/sh
# Writes the seed corpora of the fuzz harnesses (tests/fuzz/corpus/<harness>/) from the project's
# own inputs: the plan fixtures, configs and the plans of the end-to-end tests (fuzz_plan); every
# profiler fixture, each prefixed with the layout byte that fuzz_profile turns into the file name
# the parser expects (layouts[] in fuzz_profile.c lists them); and summary.json files
# of four small sessions run with the test doubles (fuzz_summary). Big files are cut at a line
# boundary to MAX bytes, so that fuzzing stays fast and the corpus small.
#
#   sh tests/fuzz/seed-corpus.sh [BUILD]     (BUILD: a built tree, default build; make all first)
#
# Files are only added or replaced, never removed, so inputs that the fuzzer found and someone
# kept (and reproducers moved here once fixed) stay.
set -eu
BUILD=${1:-build}
ROOT=$(pwd)
C=tests/fuzz/corpus
MAX=4096
[ -x "$BUILD/hprun" ] || { echo "seed-corpus: $BUILD/hprun missing: run make first" >&2; exit 1; }
case "$BUILD" in /*) ;; *) BUILD="$ROOT/$BUILD" ;; esac
mkdir -p "$C/fuzz_plan" "$C/fuzz_summary" "$C/fuzz_profile"

# cut FILE: the file's first MAX bytes, ending at the last whole line within them.
cut_file() {
  if [ "$(wc -c <"$1")" -le $MAX ]; then cat "$1"; else head -c $MAX "$1" | sed '$d'; fi
}

# --- fuzz_plan: plan fixtures, configs, categories files, and the e2e tests' here-documents.
for f in tests/fixtures/plans/*/*.yaml configs/*.yaml configs/examples/*.yaml \
         configs/categories/*.yaml; do
  cut_file "$f" >"$C/fuzz_plan/$(echo "$f" | tr / _)"
done
for t in tests/e2e/test_*.sh; do
  awk -v out="$C/fuzz_plan/e2e_$(basename "$t" .sh)" '
    /<<.?YAML.?$/ { n++; on = 1; f = out "_" n ".yaml"; printf "" > f; next }
    on && /^YAML$/ { on = 0; close(f); next }
    on { print > f }' "$t"
done

# --- fuzz_profile: layout byte + file. The numbers are indices into layouts[] in fuzz_profile.c.
P=tests/fixtures/profile
prof() { # prof LAYOUT NAME FILE [SECOND-FILE]
  { printf "\\$(printf %03o "$1")"; cut_file "$3"
    if [ $# -ge 4 ]; then printf '\f'; cut_file "$4"; fi; } >"$C/fuzz_profile/$2"
}
prof 0 hipprof-hiptrace $P/hipprof/vector_add/stats/result_31415.hiptrace.csv
prof 1 hipprof-kernel $P/hipprof/vector_add/stats/result_31415.kernel.csv
prof 1 hipprof-kernel-weather $P/hipprof/weather/stats/result_2718.kernel.csv
prof 2 hipprof-hipkernel $P/hipprof/weather/stats/result_2718.kernel.csv
prof 3 hipprof-stack $P/hipprof/vector_add/stack/result_31416.stack.csv
prof 3 hipprof-stack-weather $P/hipprof/weather/stack/result_2719.stack.csv
prof 4 hipprof-pmc-csv $P/hipprof/vector_add/pmc/pmc_results_31417.csv
prof 5 hipprof-pmc-text $P/hipprof/pmctext/pmc_results_777.txt
prof 6 hipprof-memusage-stdout $P/hipprof/vector_add/memusage/stdout.txt
prof 6 hipprof-stats-stdout $P/hipprof/vector_add/stats/stdout.txt
prof 6 ncu-stdout $P/ncu/stdout/stdout.txt
prof 7 rocprof-results $P/rocprof/nostats/results.csv
prof 8 rocprof-stats $P/rocprof/results.stats.csv
prof 9 rocprof-hip-stats $P/rocprof/results.hip_stats.csv
prof 10 rocprof-hsa-stats $P/rocprof/results.hsa_stats.csv
prof 11 rocprof-copy-stats $P/rocprof/results.copy_stats.csv
prof 12 rocprofv3-kernel-stats $P/rocprofv3/stats/run_kernel_stats.csv
prof 13 rocprofv3-hip-api-stats $P/rocprofv3/stats/run_hip_api_stats.csv
prof 14 rocprofv3-hsa-api-stats $P/rocprofv3/stats/run_hip_api_stats.csv
prof 15 rocprofv3-memory-copy-stats $P/rocprofv3/stats/run_memory_copy_stats.csv
prof 16 rocprofv3-kernel-trace $P/rocprofv3/stats/run_kernel_trace.csv
prof 16 rocprofv3-kernel-trace-rocpd $P/rocprofv3/rocpd/out_kernel_trace.csv
prof 16 rocprofv3-kernel-trace-v6.2 $P/rocprofv3/v6.2/myhost/4000_kernel_trace.csv
prof 16 rocprofv3-kernel-trace-v6.4 $P/rocprofv3/v6.4/run_kernel_trace.csv
prof 17 rocprofv3-counters-v6.2 $P/rocprofv3/v6.2/myhost/4000_counter_collection.csv
prof 17 rocprofv3-counters-v6.4 $P/rocprofv3/v6.4/run_counter_collection.csv
prof 18 rocprofv3-agent-info $P/rocprofv3/v6.2/myhost/4000_agent_info.csv
prof 19 rocprofv3-hip-api-trace $P/rocprofv3/traces/run_hip_api_trace.csv
prof 20 rocprofv3-hsa-api-trace $P/rocprofv3/traces/run_hip_api_trace.csv
prof 21 rocprofv3-memory-copy-trace $P/rocprofv3/traces/run_memory_copy_trace.csv
prof 22 ncu-details $P/ncu/details/ncu.csv
MAX=16384 # the header line of this one alone is 10 kB
prof 22 ncu-h200 $P/ncu/h200-real/ncu.csv
MAX=4096
prof 23 ncu-raw-by-header $P/ncu/raw/ncu_raw.csv
prof 23 stack-by-header $P/hipprof/weather/stack/result_2719.stack.csv
prof 23 pmc-by-header $P/hipprof/vector_add/pmc/pmc_results_31417.csv
prof 23 counters-by-header $P/rocprofv3/v6.4/run_counter_collection.csv
prof 23 kernel-trace-by-header $P/rocprofv3/v6.2/myhost/4000_kernel_trace.csv
prof 23 agent-info-by-header $P/rocprofv3/v6.2/myhost/4000_agent_info.csv
prof 23 hip-api-trace-by-header $P/rocprofv3/traces/run_hip_api_trace.csv
prof 23 copy-trace-by-header $P/rocprofv3/traces/run_memory_copy_trace.csv
prof 23 domain-stats-by-header $P/rocprofv3/stats/run_domain_stats.csv
prof 24 rocprof-results-and-stats $P/rocprof/results.csv $P/rocprof/results.stats.csv
prof 25 rocprofv3-trace-and-stats $P/rocprofv3/stats/run_kernel_trace.csv \
  $P/rocprofv3/stats/run_kernel_stats.csv
prof 26 rocprofv3-api-trace-and-stats $P/rocprofv3/traces/run_hip_api_trace.csv \
  $P/rocprofv3/stats/run_hip_api_stats.csv
prof 27 rocprofv3-copy-trace-and-stats $P/rocprofv3/traces/run_memory_copy_trace.csv \
  $P/rocprofv3/stats/run_memory_copy_stats.csv
prof 28 hipprof-stack-and-kernel $P/hipprof/vector_add/stack/result_31416.stack.csv \
  $P/hipprof/vector_add/stats/result_31415.kernel.csv
# Kineto traces, the real ones (cut, so they end inside traceEvents) plain and gzip'd again, and
# one whole small trace with steps, escapes and events across kinds.
K=tests/fixtures/real/kineto
KT=$(mktemp -d)
for k in h200-layer/kineto.json.gz h200-gpt-decode/kineto-gpt.json.gz \
         hta-mi250-rocm/mi250_minitoy_train_ROCm6_2_kineto.json.gz; do
  n=kineto-$(dirname "$k")
  gzip -dc "$K/$k" >"$KT/t.json"
  prof 29 "$n" "$KT/t.json"
  cut_file "$KT/t.json" | gzip -n >"$KT/t.json.gz"
  { printf '\036'; cat "$KT/t.json.gz"; } >"$C/fuzz_profile/$n-gz"
done
cat >"$KT/small.json" <<'JSON'
{"schemaVersion": 1, "deviceProperties": [{"id": 0, "x": [1, {"a": "]}"}]}],
 "traceEvents": [
 {"ph": "M", "name": "process_name", "args": {"name": "x"}},
 {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#7", "ts": 100, "dur": 50},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "ts": 101.5, "dur": 2},
 {"ph": "X", "cat": "cuda_driver", "name": "cuLaunchKernel", "ts": 200, "dur": 2},
 {"ph": "s", "cat": "ac2g", "name": "ac2g", "id": 5, "ts": 101},
 {"args": {"grid": [1, 2, 3], "s": "\"}"}, "ph": "X", "cat": "kernel", "name": "k\"q\u00e9", "ts": 110, "dur": 10.0005},
 {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD", "ts": 111, "dur": 1},
 {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "ts": 100.25, "dur": 3},
 {"ph": "X", "cat": "kernel", "name": "k2", "ts": 115, "dur": 10}
 ], "traceName": "t"}
JSON
prof 29 kineto-small "$KT/small.json"
rm -rf "$KT"
# nsys stats: the real kernel summaries, alone and after a GPU trace's layout (35).
N=tests/fixtures/real/nsys
prof 31 nsys-kern-sum-decode $N/llm-perf-opt-decode/summary_cuda_gpu_kern_sum.csv
prof 31 nsys-kern-sum-sam $N/llm-perf-opt-sam/summary_cuda_gpu_kern_sum.csv
prof 35 nsys-trace-and-kern-sum $N/llm-perf-opt-sam/summary_cuda_gpu_kern_sum.csv \
  $N/llm-perf-opt-decode/summary_cuda_gpu_kern_sum.csv

# --- fuzz_summary: four small sessions with the test doubles (hipprof; A/B variants; failing
# runs; ncu and rocprofv3 with the memory sampler). The reader ignores each pass's "profile" (it parses the run folders again), so it is
# dropped to keep the seeds small.
W=$(mktemp -d "${TMPDIR:-/tmp}/hprun-seed.XXXXXX")
trap 'rm -rf "$W"' EXIT
APP="$BUILD/apps/fakeapp"
cat >"$W/hipprof.yaml" <<YAML
name: hipprof
repeat: 2
warmup: 1
app: {command: [$APP, --noise, "0", --sleep, "1"], timeout: 30s}
profiler: {tool: hipprof, path: $BUILD/fake/hipprof}
metrics: [{name: mean_kernel_ms, pattern: 'mean_kernel_ms=([0-9.eE+-]+)', unit: ms}]
passes: [normal, stats, kernel-stack, {name: pmc, mode: pmc, kernel: vector_add, expect: distorted},
         memory-usage]
thresholds: {warn: 5%, fail: 50%}
YAML
cat >"$W/ab.yaml" <<YAML
name: ab
repeat: 3
order: abba
seed: 7
app: {command: [$APP, --base, "1.0", --noise, "0.005", --proxy, "33.9", --sleep, "1"]}
metrics: [mean_kernel_ms, {name: proxy, pattern: 'proxy=([0-9.eE+-]+)', better: higher, tolerance: 1%}]
passes: [normal]
variants:
  - {name: reference, command: [$APP, --base, "1.0", --noise, "0.005", --proxy, "33.9"]}
  - {name: faster, command: [$APP, --base, "0.9", --noise, "0.005", --proxy, "33.9"]}
  - {name: wrong, command: [$APP, --base, "0.95", --noise, "0.005", --proxy, "33.4"]}
gates: [{metric: proxy, max_abs_delta: 0.01}]
YAML
cat >"$W/failing.yaml" <<YAML
name: failing
repeat: 2
app: {command: [$APP, --exit, "3"]}
metrics: [mean_kernel_ms]
passes: [normal, {name: cmd, mode: command, command: ["{app}"]}]
YAML
cat >"$W/tools.yaml" <<YAML
name: tools
app: {command: [$APP, --noise, "0", --sleep, "1"]}
profiler: {tool: ncu, path: $BUILD/fake/ncu}
metrics: [mean_kernel_ms]
passes:
  - normal
  - {name: time, mode: time, kernel: vector_add}
  - {name: trace, tool: rocprofv3, mode: kernel-trace}
YAML
# The test doubles on PATH: rocprofv3 for the trace pass, nvidia-smi for the memory sampler.
for p in hipprof ab failing tools; do
  PATH="$BUILD/fake:$PATH" "$BUILD/hprun" --quiet --output "$W/out-$p" "$W/$p.yaml" \
    >/dev/null 2>&1 || true
  s=$(find "$W/out-$p" -name summary.json | head -n 1)
  [ -n "$s" ] || { echo "seed-corpus: the $p session wrote no summary.json" >&2; exit 1; }
  # This machine's folders become /w (the scratch folder) and /build, so the seeds do not depend
  # on where they were made.
  python3 - "$s" "$C/fuzz_summary/session-$p.json" "$W" "$BUILD" <<'PY'
import json, sys
text = open(sys.argv[1]).read().replace(sys.argv[3], "/w").replace(sys.argv[4], "/build")
d = json.loads(text)
d["started"] = d["finished"] = "2026-01-01T00:00:00Z"
for p in d["passes"]:
    p.pop("profile", None)
json.dump(d, open(sys.argv[2], "w"))
PY
done
# The smallest summary.json the reader takes today: every number it casts to an integer is there.
cat >"$C/fuzz_summary/minimal.json" <<'JSON'
{"schema": 1, "name": "m", "seed": 1, "repeat": 1, "warmup": 0,
 "passes": [{"name": "normal", "mode": "normal", "baseline": true, "metrics": [{"name": "t"}],
   "runs": [{"index": 1, "round": 1, "dir": "normal/1", "exit_status": 0, "signal": 0,
             "ok": true, "values": {"t": 1}}]},
  {"name": "stats", "mode": "stats", "tool": "hipprof", "metrics": [{"name": "t"}],
   "runs": [{"index": 1, "round": 2, "dir": "stats/1", "exit_status": 0, "signal": 0,
             "ok": true, "values": {"t": 1.5}, "files": ["result_1.kernel.csv"]}]}]}
JSON
echo "seed-corpus: $(find $C -type f | wc -l) files, $(find $C -type f -exec cat {} + | wc -c) bytes in $C"
