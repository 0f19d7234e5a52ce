#!/bin/sh
# Real-GPU validation of hprun on a PyTorch layer under ncu (docs/validation/h200-pytorch.md).
# Run from the repository root on an NVIDIA machine with python3+torch and ncu:
#   OUT=/tmp/v HPRUN=build/hprun-static sh scripts/validate-h200-pytorch.sh
# It runs configs/examples/pytorch-ncu.yaml through hprun, then the same ncu commands by hand
# (time mode and --set basic, as in tests/fixtures/real/ncu-h200-pytorch/capture.sh), and keeps
# summary.json, report.md, the pass CSV files and the hand CSVs, with their sizes, in $OUT.
set -u
OUT=${OUT:-/tmp/hprun-pytorch}
HPRUN=$(pwd)/${HPRUN:-build/hprun-static}
mkdir -p "$OUT"
{
  echo "date: $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
  echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1)"
  echo "ncu: $(ncu --version 2>&1 | tail -n 1)"
  echo "hprun: $("$HPRUN" --version 2>&1)"
} >"$OUT/env.txt"
start=$(date +%s)
"$HPRUN" configs/examples/pytorch-ncu.yaml --output "$OUT/sessions" >"$OUT/run.txt" 2>"$OUT/run.err"
echo "hprun: exit $? in $(( $(date +%s) - start )) s"
S=$(ls -d "$OUT"/sessions/pytorch-ncu-* | head -n 1)
wc -c "$S/summary.json" "$S/report.md" "$S"/*.profile.csv >"$OUT/sizes.txt"
cat "$OUT/sizes.txt"
tar czf "$OUT/session.tgz" -C "$S" summary.json report.md $(cd "$S" && ls *.profile.csv)
# By hand: the uninstrumented step and ncu's own CSVs, to check hprun's tables against.
N="ncu --clock-control none --target-processes all"
for i in 1 2 3; do python3 scripts/torch_layer.py 5 3; done >"$OUT/hand-normal.txt" 2>&1
$N --metrics gpu__time_duration.sum --csv --page raw --log-file "$OUT/hand-time.csv" \
  python3 scripts/torch_layer.py 5 3 >"$OUT/hand-time.txt" 2>&1
gzip -f "$OUT/hand-time.csv"
