#!/bin/sh
# The H200 validation of the torch tool (docs/validation/h200-torch.md). From the repository root
# on an NVIDIA machine with python3+torch and ncu on PATH:
#   make static && OUT=/tmp/torch HPRUN=build/hprun-static sh docs/validation/h200-torch/run.sh
# (the launcher is found as BIN/../share/hprun/hprun_torch.py, so run from the sources). It writes
# at most 8 files into $OUT: env.txt, hprun.txt (the session's terminal output), summary.json,
# hand.txt (the hand runs' step_ms), check.txt (kernel total and busy fraction by hand against
# hprun, on one trace), ncu.txt (per-kernel totals: ncu time mode against the trace), traces.tar.gz.
set -u
OUT=${OUT:-/tmp/hprun-torch}
HPRUN=$(pwd)/${HPRUN:-build/hprun-static}
D=$(cd "$(dirname "$0")" && pwd)
W=$(mktemp -d)
mkdir -p "$OUT"
{
  echo "date: $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
  echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1)"
  echo "torch: $(python3 -c 'import torch; print(torch.__version__, torch.version.cuda)' 2>&1)"
  echo "ncu: $(ncu --version 2>&1 | tail -n 1)"
  echo "hprun: $("$HPRUN" --version 2>&1 | head -n 1)"
} >"$OUT/env.txt"
start=$(date +%s)
"$HPRUN" "$D/plan.yaml" --output "$W/sessions" >"$OUT/hprun.txt" 2>&1
echo "hprun: exit $? in $(($(date +%s) - start)) s" >>"$OUT/env.txt"
S=$(ls -d "$W"/sessions/h200-torch-2* | head -n 1)
cp "$S/summary.json" "$OUT/summary.json"
# Hand runs, interleaved: plain, and torch.profiler written out by hand in the script.
cd "$D"
for r in 1 2 3 4 5; do
  for m in none cuda stack; do
    if [ $m = none ]; then v=$(python3 train.py 30 5); else v=$(HAND_PROFILE=$m HAND_TRACE="$W/hand-$m-$r.json" python3 train.py 30 5); fi
    echo "$m $r $v"
  done
done >"$OUT/hand.txt" 2>&1
echo "hand runs done at $(($(date +%s) - start)) s" >>"$OUT/env.txt"
T1="$S/torch-cuda/1/torch-trace.json"
{
  echo "== hand computation (tests/fixtures/real/kineto/hand_check.py) of $T1"
  python3 "$D/../../../tests/fixtures/real/kineto/hand_check.py" "$T1"
  echo "== hprun summarize of the same file (kernels total and timeline)"
  "$HPRUN" summarize --format json --top 0 "$T1" | python3 -c '
import json, sys
d = json.load(sys.stdin)
k = d["kernels"]; k = k["entries"] if isinstance(k, dict) else k
t = d["timeline"]; t = t["entries"] if isinstance(t, dict) else t
print("kernels: calls %d total_ns %d" % (sum(e["calls"] for e in k), sum(e["total_ns"] for e in k)))
print("timeline:", json.dumps(t))'
} >"$OUT/check.txt" 2>&1
# ncu time mode on 3 steps, against the per-kernel totals of one cuda trace scaled to 3 steps.
ncu --clock-control none --target-processes all --metrics gpu__time_duration.sum --csv --page raw \
  --log-file "$W/ncu.csv" python3 train.py 3 1 >/dev/null 2>&1
echo "ncu done at $(($(date +%s) - start)) s" >>"$OUT/env.txt"
{
  echo "== ncu (train.py 3 1: 4 steps measured by ncu, warmup included) per kernel"
  "$HPRUN" summarize --top 15 "$W/ncu.csv" 2>&1 | sed -n '/Kernel summary/,/^$/p'
  echo "== trace of torch-cuda run 1 (30 timed steps) per kernel"
  "$HPRUN" summarize --top 15 "$T1" 2>&1 | sed -n '/Kernel summary/,/^$/p'
} >"$OUT/ncu.txt"
# One trace of each kind and the ncu CSV, not every run's (the traces are tens of MB each).
cp "$T1" "$W/hprun-cuda-1.json"
cp "$S/torch-stack/1/torch-trace.json" "$W/hprun-stack-1.json" 2>/dev/null
tar -czf "$OUT/traces.tar.gz" -C "$W" hprun-cuda-1.json hprun-stack-1.json hand-cuda-1.json ncu.csv 2>/dev/null
rm -rf "$W"
echo "total $(($(date +%s) - start)) s" >>"$OUT/env.txt"
