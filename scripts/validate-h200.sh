#!/bin/sh
# Real-GPU validation of hprun's distortion figures (docs/validation/h200-vector_add.md).
#
# Run from the repository root on an NVIDIA machine with nvcc, ncu and compute-sanitizer:
#   OUT=/tmp/v sh scripts/validate-h200.sh
# It builds hip/vector_add.hip with nvcc (through hip/hip_cuda_compat.h), runs
# configs/vector_add.ncu.yaml through hprun at each size in SIZES, then runs the same five
# commands by hand (no hprun), REPS times each after one warmup, and records the app's own
# mean_kernel_ms of every run in $OUT/hand.txt. Session folders are packed into $OUT/sessions.tgz.
#
#   HPRUN=build/hprun-static  SIZES="1048576 16777216"  REPS=3
set -u
OUT=${OUT:-/tmp/hprun-validation}
SIZES=${SIZES:-"1048576 16777216"}
REPS=${REPS:-3}
WARMUP=${WARMUP:-1}
ITERS=20
HPRUN=${HPRUN:-build/hprun-static}
APP=$(pwd)/build/nvcc/vector_add
mkdir -p "$OUT"
T=$(mktemp -d)

{
  echo "date: $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
  echo "gpu: $(nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1)"
  echo "ncu: $(ncu --version 2>&1 | tail -n 1)"
  echo "compute-sanitizer: $(compute-sanitizer --version 2>&1 | tail -n 1)"
  echo "nvcc: $(nvcc --version 2>&1 | tail -n 1)"
  echo "hprun: $($HPRUN --version 2>&1)"
} >"$OUT/env.txt"
cat "$OUT/env.txt"

sh scripts/build-nvcc.sh vector_add >"$OUT/build.txt" 2>&1 || { cat "$OUT/build.txt"; exit 1; }

value() { sed -n 's/.*mean_kernel_ms=\([0-9.eE+-]*\).*/\1/p' "$1" | tail -n 1; }

for N in $SIZES; do
  # The plan with this size; it must sit in configs/ so its relative paths hold.
  plan=configs/.validate-$N.yaml
  sed -e "s/^name: vector_add-ncu\$/name: vector_add-ncu-$N/" -e "s/\"1048576\"/\"$N\"/" \
    -e "s/^warmup: 1/warmup: $WARMUP/" configs/vector_add.ncu.yaml >"$plan"
  start=$(date +%s)
  "$HPRUN" "$plan" --quiet --output "$OUT/sessions" >"$OUT/hprun-$N.txt" 2>"$OUT/hprun-$N.err"
  echo "hprun size $N: exit $? in $(( $(date +%s) - start )) s"
  cat "$OUT/hprun-$N.txt"
  rm -f "$plan"
  # Pack now, so what was measured comes back even if a later step runs out of time.
  tar czf "$OUT/sessions-$N.tgz" -C "$OUT/sessions" . && rm -rf "$OUT/sessions"

  # By hand: the same commands hprun ran, one mode after another, as a user would type them.
  for mode in normal ncu-time ncu-full ncu-limit sanitizer; do
    r=$((1 - WARMUP))
    while [ "$r" -le "$REPS" ]; do
      rm -f "$T/ncu.csv"
      case $mode in
        normal) set -- "$APP" "$N" "$ITERS" ;;
        ncu-time) set -- ncu --clock-control none --target-processes all --metrics gpu__time_duration.sum \
                    -k regex:vector_add --csv --page raw --log-file "$T/ncu.csv" "$APP" "$N" "$ITERS" ;;
        ncu-full) set -- ncu --clock-control none --target-processes all --set full \
                    -k regex:vector_add --launch-skip 20 --csv --page raw --log-file "$T/ncu.csv" "$APP" "$N" "$ITERS" ;;
        ncu-limit) set -- ncu --clock-control none --target-processes all --metrics gpu__time_duration.sum \
                    -k regex:vector_add -c 10 --csv --page raw --log-file "$T/ncu.csv" "$APP" "$N" "$ITERS" ;;
        sanitizer) set -- compute-sanitizer --tool memcheck "$APP" "$N" "$ITERS" ;;
      esac
      s=$(date +%s%N)
      "$@" >"$T/out.txt" 2>&1
      code=$?
      e=$(date +%s%N)
      # Run 0 is the warmup, as in the plan.
      [ "$r" -gt 0 ] && echo "$N $mode $r $(value "$T/out.txt") exit=$code wall_ms=$(( (e - s) / 1000000 ))" >>"$OUT/hand.txt"
      r=$((r + 1))
    done
  done
done
cat "$OUT/hand.txt"

# The memory sampler's own cost: the uninstrumented program, 10 interleaved runs each, with the
# sampler off and with nvidia-smi polling every 2 ms (the article's interval).
for smp in ${SAMPLERS-none nvidia-smi}; do
  plan=configs/.validate-sampler-$smp.yaml
  cat >"$plan" <<YAML
name: sampler-$smp
repeat: 10
warmup: 1
app: {command: [../build/nvcc/vector_add, "1048576", "100"]}
metrics: [{name: mean_kernel_ms, pattern: 'mean_kernel_ms=([0-9.eE+-]+)', unit: ms}]
passes: [normal]
sampler: {tool: $smp, interval: 2ms}
YAML
  "$HPRUN" "$plan" --quiet --output "$OUT/sessions" >"$OUT/sampler-$smp.txt" 2>&1
  echo "sampler $smp: exit $?"; cat "$OUT/sampler-$smp.txt"
  rm -f "$plan"
done
[ -d "$OUT/sessions" ] && tar czf "$OUT/sessions-sampler.tgz" -C "$OUT/sessions" . && rm -rf "$OUT/sessions"
rm -rf "$T"
