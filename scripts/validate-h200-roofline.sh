#!/bin/sh
# Real-GPU validation of the roofline (docs/validation/h200-roofline.md).
#
# Run from the repository root on an NVIDIA machine with nvcc and ncu:
#   OUT=/tmp/roof sh scripts/validate-h200-roofline.sh
# 1. builds hip/roofline_peaks.hip, hip/vector_add.hip and hip/tests/roofline_mix.hip with nvcc;
# 2. runs roofline_peaks three times (the ceilings) into $OUT/peaks-run*.txt;
# 3. captures ncu's roofline counters (--page raw) of vector_add (16 Mi elements, 5 launches),
#    of roofline_mix (a tiled SGEMM and two elementwise kernels) and, when python3 has torch, of a
#    PyTorch FP32 matmul with elementwise ops; plus the SpeedOfLight_RooflineChart section of
#    vector_add, whose raw page carries ncu's own derived__* FLOP metrics;
# 4. with HPRUN (default build/hprun-static) present: `hprun peaks` and a session of
#    configs/roofline.ncu.yaml, packed into $OUT/session.tgz.
set -u
OUT=${OUT:-/tmp/hprun-roofline}
HPRUN=${HPRUN:-build/hprun-static}
mkdir -p "$OUT"
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
for op in fadd fmul ffma dadd dmul dfma hadd hmul hfma; do
  M=$M,sm__sass_thread_inst_executed_op_${op}_pred_on.sum
done
NCU="ncu --clock-control none --target-processes all --csv --page raw"

{
  echo "date: $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
  echo "gpu: $(nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.max.mem --format=csv,noheader 2>&1)"
  echo "ncu: $(ncu --version 2>&1 | tail -n 1)"
  echo "nvcc: $(nvcc --version 2>&1 | tail -n 1)"
} >"$OUT/env.txt"
cat "$OUT/env.txt"

sh scripts/build-nvcc.sh roofline_peaks vector_add >"$OUT/build.txt" 2>&1 || { cat "$OUT/build.txt"; exit 1; }
nvcc -O3 -std=c++17 -arch=sm_90 -x cu -Ihip hip/tests/roofline_mix.hip -o build/nvcc/roofline_mix \
  >>"$OUT/build.txt" 2>&1 || { cat "$OUT/build.txt"; exit 1; }

for r in 1 2 3; do
  build/nvcc/roofline_peaks >"$OUT/peaks-run$r.txt" 2>&1
  echo "peaks run $r: exit $?: $(cat "$OUT/peaks-run$r.txt")"
done

$NCU --metrics "$M" -k regex:vector_add -c 5 --log-file "$OUT/ncu-vector_add-roofline.csv" \
  build/nvcc/vector_add 16777216 20 >"$OUT/vector_add.out" 2>&1
echo "ncu vector_add: exit $?"
$NCU --section SpeedOfLight_RooflineChart -k regex:vector_add -c 2 \
  --log-file "$OUT/ncu-vector_add-rooflinechart.csv" build/nvcc/vector_add 16777216 20 \
  >"$OUT/vector_add-section.out" 2>&1
echo "ncu vector_add section: exit $?"
$NCU --metrics "$M" --log-file "$OUT/ncu-roofline_mix.csv" build/nvcc/roofline_mix 2048 \
  >"$OUT/roofline_mix.out" 2>&1
echo "ncu roofline_mix: exit $? $(cat "$OUT/roofline_mix.out" | tail -n 1)"
if python3 -c 'import torch' 2>/dev/null; then
  $NCU --metrics "$M" -c 12 --log-file "$OUT/ncu-torch-roofline.csv" \
    python3 scripts/roofline_torch.py >"$OUT/torch.out" 2>&1
  echo "ncu torch: exit $?"
fi

if [ -x "$HPRUN" ]; then
  "$HPRUN" peaks --binary build/nvcc/roofline_peaks --output build/h200.peaks.yaml >"$OUT/hprun-peaks.txt" 2>&1
  echo "hprun peaks: exit $?"; cat "$OUT/hprun-peaks.txt"; cp build/h200.peaks.yaml "$OUT/" 2>/dev/null
  for f in ncu-vector_add-roofline ncu-roofline_mix ncu-torch-roofline; do
    [ -f "$OUT/$f.csv" ] && "$HPRUN" summarize --roofline --peaks build/h200.peaks.yaml "$OUT/$f.csv"
  done
  # The plan with the measured peaks; it must sit in configs/ so its relative paths hold.
  sed 's#peaks: peaks/nvidia-h200-datasheet.yaml#peaks: ../build/h200.peaks.yaml#' \
    configs/roofline.ncu.yaml >configs/.roofline-measured.yaml
  "$HPRUN" configs/.roofline-measured.yaml --quiet --output "$OUT/sessions" >"$OUT/hprun-session.txt" 2>&1
  echo "hprun session: exit $?"; cat "$OUT/hprun-session.txt"
  rm -f configs/.roofline-measured.yaml
  tar czf "$OUT/session.tgz" -C "$OUT/sessions" . && rm -rf "$OUT/sessions"
fi
ls -la "$OUT"
