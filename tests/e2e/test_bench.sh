#!/bin/sh
# The benchmark's smoke run (scripts/bench --smoke): it runs end to end on 1 MB inputs and prints
# its table, one row per tool and format, and its per-run, idle and compare lines. The inputs it
# generated (scripts/bench-gen) are real profiles: hprun reads every launch of the kernel-stack
# file, counted here independently with Python's csv module.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

BENCH_DIR=$T/bench HPRUN=$HPRUN sh "$ROOT/scripts/bench" --smoke >"$T/out" 2>"$T/err" ||
  { cat "$T/out" "$T/err"; fail "scripts/bench --smoke failed"; }
grep -q '^| format | size | tool | MB/s | vs hprun | peak RSS |$' "$T/out" || fail "no table header"
for f in 'ncu raw CSV (H200 rows)' 'ncu raw CSV (PyTorch rows)' 'hipprof PMC CSV' 'rocprofv3 kernel trace' 'hipprof kernel-stack'; do
  grep -q "^| $f | 1 MB | hprun summarize | [0-9][0-9]* | 1 | " "$T/out" || fail "no hprun row for $f"
  grep -q "^| $f | 1 MB | cat | [0-9][0-9]* | " "$T/out" || fail "no cat row for $f"
done
grep -q "^| hipprof PMC CSV | 1 MB | seed's summarize_hipprof.py | " "$T/out" || fail "no peer row for PMC"
grep -q '^per run of /bin/true: hprun [0-9.]* ms (median of 1 rounds' "$T/out" || fail "no per-run line"
if command -v hyperfine >/dev/null 2>&1; then
  grep -q '^per run of /bin/true: hprun / hyperfine -N, wall, round by round: [0-9.]*x (median of 1 rounds.*: undecided' "$T/out" ||
    fail "no per-run ratio line, or one round was given a verdict"
fi
grep -q '^idle: hprun woke [0-9.]* times/s' "$T/out" || fail "no idle line"
grep -q '^compare: hprun compare of two 200-run sessions: [0-9.]* s$' "$T/out" || fail "no compare line"
grep -q '^analysis: hprun report of a 2 x 50-run session' "$T/out" || fail "no analysis line"
ok "the smoke run prints every part of its table"

# The per-run verdict's interval: the order statistics of the binomial, against textbook ranks.
"$PY" "$ROOT/scripts/bench-perrun" --selftest >"$T/self" 2>&1 || { cat "$T/self"; fail "bench-perrun --selftest failed"; }
ok "the per-run interval's ranks are the textbook ones (n = 6, 9, 15, 21, 30)"

for f in 1-ncu/ncu.csv 1-ncu-pytorch/ncu.csv 1-pmc/pmc_results_1.csv 1-rocprofv3/run_kernel_trace.csv 1-stack/result_1.stack.csv; do
  size=$(wc -c < "$T/bench/$f")
  [ "$size" -ge 1000000 ] || fail "$f has $size bytes, fewer than 1 MB"
  "$HPRUN" summarize --format json "$T/bench/$f" >"$T/one.json"
  fmt=$(json_get "$T/one.json" 'd["files"][0]["format"]')
  case "$f:$fmt" in
    *ncu.csv:ncu-csv | *pmc_results_1.csv:hipprof-pmc-csv | *run_kernel_trace.csv:rocprofv3-kernel-trace | *stack.csv:hipprof-stack) ;;
    *) fail "$f was read as $fmt" ;;
  esac
done
want=$("$PY" - "$T/bench/1-stack/result_1.stack.csv" <<'PY'
import csv, sys
with open(sys.argv[1], encoding="utf-8-sig", newline="") as f:
    print(len({(r["str_name"], r["index"]) for r in csv.DictReader(f)}))
PY
)
"$HPRUN" summarize --format json "$T/bench/1-stack/result_1.stack.csv" >"$T/sum.json"
got=$(json_get "$T/sum.json" 'sum(s["launches"] for s in d["stacks"])')
[ "$got" = "$want" ] || fail "hprun counted $got launches in the generated stack file, Python $want"
ok "the generated kernel-stack file holds $want launches, all read by hprun"

# The PyTorch rows: 35 kernels taking turns; every launch (one row each, IDs carried on) is read,
# and each kernel's duration sum is the one Python adds up from the generated file.
"$PY" - "$T/bench/1-ncu-pytorch/ncu.csv" >"$T/want" <<'PY'
import csv, sys
with open(sys.argv[1], encoding="utf-8", newline="") as f:
    rows = [r for r in csv.reader(f) if r and not r[0].startswith("==")]
h = rows[0]
data = [r for r in rows[2:] if len(r) == len(h)]
ids = [int(r[h.index("ID")]) for r in data]
assert len(set(ids)) == len(ids), "IDs repeat"
dur = {}
for r in data:
    k = r[h.index("Kernel Name")]
    dur[k] = dur.get(k, 0.0) + float(r[h.index("gpu__time_duration.sum")].replace(",", ""))
print(len(data), len(dur), "%.6g" % sum(dur.values()))
PY
"$HPRUN" summarize --format json "$T/bench/1-ncu-pytorch/ncu.csv" >"$T/pt.json" 2>/dev/null
got=$(json_get "$T/pt.json" '"%d %d %.6g" % (sum(k["launches"] for k in d["ncu"]), len(d["ncu"]), sum(m["sum"] for k in d["ncu"] for m in k["metrics"] if m["name"] == "gpu__time_duration.sum"))')
[ "$got" = "$(cat "$T/want")" ] || fail "PyTorch rows: hprun read launches, kernels, duration sum $got; Python $(cat "$T/want")"
ok "the generated PyTorch ncu file: $(cat "$T/want") (launches, kernels, duration sum), as Python reads it"
