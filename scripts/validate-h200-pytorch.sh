#!/bin/sh
# Real-GPU validation of hprun on a PyTorch layer under ncu (docs/validation/h200-pytorch.md).
# Run from the repository root on an NVIDIA machine with python3+torch and ncu:
#   OUT=/tmp/v HPRUN=build/hprun-static sh scripts/validate-h200-pytorch.sh
# It runs configs/examples/pytorch-ncu.yaml through hprun, then the same measurements by hand:
# three uninstrumented runs, and ncu's time mode over the whole run (8 steps) as a CSV, so that the
# busy fraction can be computed from ncu's own numbers without hprun. It keeps summary.json,
# report.md, the pass CSV files and the hand files, with their sizes, in $OUT.
set -u
OUT=${OUT:-/tmp/hprun-pytorch}
HPRUN=$(pwd)/${HPRUN:-build/hprun-static}
mkdir -p "$OUT"
{
  echo "date: $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
  echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1)"
  echo "ncu: $(ncu --version 2>&1 | tail -n 1)"
  echo "torch: $(python3 -c 'import torch; print(torch.__version__)' 2>&1)"
  echo "hprun: $("$HPRUN" --version 2>&1 | head -n 1)"
} >"$OUT/env.txt"
start=$(date +%s)
"$HPRUN" configs/examples/pytorch-ncu.yaml --output "$OUT/sessions" >"$OUT/run.txt" 2>"$OUT/run.err"
echo "hprun: exit $? in $(($(date +%s) - start)) s" | tee -a "$OUT/env.txt"
S=$(ls -d "$OUT"/sessions/pytorch-ncu-2* | head -n 1)
wc -c "$S/summary.json" "$S/report.md" "$S/report.html" "$S"/*.profile.csv >"$OUT/sizes.txt"
cat "$OUT/sizes.txt"
(cd "$S" && tar czf "$OUT/session.tgz" summary.json report.md report.html *.profile.csv \
  runs/*/ncu* 2>/dev/null)
# By hand: the uninstrumented step, and ncu's time mode over the same range.
for i in 1 2 3; do python3 scripts/torch_layer.py 5 3; done >"$OUT/hand-normal.txt" 2>&1
ncu --clock-control none --target-processes all \
  --metrics gpu__time_duration.sum --csv --page raw --log-file "$OUT/hand-time.csv" \
  python3 scripts/torch_layer.py 5 3 >"$OUT/hand-time.txt" 2>&1
echo "hand: done in $(($(date +%s) - start)) s" | tee -a "$OUT/env.txt"
