#!/bin/sh
# The H200 tensor-roofline validation (docs/validation/h200-tensor-roofline.md). From the
# repository root on an NVIDIA machine with python3+torch and ncu on PATH:
#   make static && OUT=/tmp/tr HPRUN=build/hprun-static sh docs/validation/h200-tensor-roofline/run.sh
# Captures app.py's second round under ncu with the three roofline sections, runs
# `hprun summarize --roofline` on it (text and JSON, ceilings from the capture and from the
# datasheet), checks hprun's TFLOP/s against hand.py's computation from the same CSV and against
# the known shapes, times the vendor GEMM with scripts/gemm_peaks.py, and runs `hprun peaks --vendor`
# when build/nvcc/roofline_peaks exists. At most 8 files in
# $OUT (results.tar.gz holds the rest), in about 4 minutes.
set -u
OUT=${OUT:-/tmp/hprun-tensor-roofline}
HPRUN=$(pwd)/${HPRUN:-build/hprun-static}
D=$(cd "$(dirname "$0")" && pwd)
W=$(mktemp -d)
mkdir -p "$OUT"
{
  echo "date: $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
  echo "gpu: $(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader 2>&1)"
  echo "ncu: $(ncu --version 2>&1 | tail -n 1)"
  echo "torch: $(python3 -c 'import torch; print(torch.__version__)' 2>&1)"
} >"$OUT/env.txt"
python3 "$D/app.py" >"$W/app.txt" 2>&1 || { cat "$W/app.txt"; echo "app.py failed" >>"$OUT/env.txt"; }
cp "$W/app.txt" "$OUT/app.txt"
# The second round only: every kernel of the first round is skipped by count.
n1=$(ncu --csv --page raw --metrics gpu__time_duration.sum python3 "$D/app.py" 2>/dev/null |
  grep -c '^"[0-9]')
start=$(date +%s)
timeout 300 ncu --csv --page raw --clock-control none --launch-skip $((n1 / 2)) \
  --section SpeedOfLight --section SpeedOfLight_RooflineChart \
  --section SpeedOfLight_HierarchicalTensorRooflineChart \
  python3 "$D/app.py" >"$W/ncu.csv" 2>"$W/ncu.err"
echo "ncu: exit $? in $(($(date +%s) - start)) s, $n1 launches in both rounds" >>"$OUT/env.txt"
"$HPRUN" summarize --roofline "$W/ncu.csv" >"$OUT/roofline-capture.txt" 2>&1
"$HPRUN" summarize --roofline --format json "$W/ncu.csv" >"$W/capture.json" 2>&1
"$HPRUN" summarize --roofline --peaks configs/peaks/nvidia-h200-datasheet.yaml "$W/ncu.csv" \
  >"$OUT/roofline-datasheet.txt" 2>&1
python3 "$D/hand.py" "$W/ncu.csv" "$W/capture.json" "$W/app.txt" >"$OUT/hand.txt" 2>&1
# The vendor-GEMM ceilings: gemm_peaks.py on its own, then beside roofline_peaks when it is built.
python3 scripts/gemm_peaks.py >"$OUT/gemm-peaks.txt" 2>&1
if [ -x build/nvcc/roofline_peaks ]; then
  "$HPRUN" peaks --vendor --output "$W/h200.peaks.yaml" >"$OUT/peaks.txt" 2>&1
else
  echo "build/nvcc/roofline_peaks not built (make hip-nvcc): no hprun peaks run" >"$OUT/peaks.txt"
fi
tar -C "$W" -czf "$OUT/results.tar.gz" .
rm -rf "$W"
