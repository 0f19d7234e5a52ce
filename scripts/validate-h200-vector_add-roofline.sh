#!/bin/sh
# The vector_add roofline point at sizes far beyond the L2 (docs/validation/h200-roofline.md):
# ncu's roofline counters (--page raw) of vector_add at 2^26 and 2^28 elements (256 MiB and 1 GiB
# per array), 3 launches each, and roofline_peaks with a 4 GiB triad. Run from the repository root
# after scripts/build-nvcc.sh roofline_peaks vector_add:  OUT=/tmp/v sh scripts/validate-h200-vector_add-roofline.sh
set -u
OUT=${OUT:-/tmp/hprun-roofline}
mkdir -p "$OUT"
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
for op in fadd fmul ffma dadd dmul dfma; do M=$M,sm__sass_thread_inst_executed_op_${op}_pred_on.sum; done
for n in 67108864 268435456; do
  ncu --clock-control none --target-processes all --csv --page raw --metrics "$M" -k regex:vector_add \
    -c 3 --log-file "$OUT/ncu-vector_add-$n.csv" build/nvcc/vector_add "$n" 5 >"$OUT/vector_add-$n.out" 2>&1
  echo "ncu vector_add $n: exit $? $(cat "$OUT/vector_add-$n.out")"
done
build/nvcc/roofline_peaks 4096 >"$OUT/peaks-4096.txt" 2>&1
echo "peaks 4096 MiB: exit $? $(cat "$OUT/peaks-4096.txt")"
