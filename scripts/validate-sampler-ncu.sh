#!/bin/sh
# Follow-up to scripts/validate-h200.sh: does the device-memory sampler (nvidia-smi -lms 2) change
# what the app measures under ncu? The 16M-element ncu passes read higher through hprun (sampler
# on) than by hand (no sampler). Runs normal, ncu-limit and ncu-full-skip through hprun with the
# sampler off and on, 3 interleaved runs each, at 16M elements.
set -u
OUT=${OUT:-/tmp/hprun-validation}
HPRUN=${HPRUN:-build/hprun-static}
mkdir -p "$OUT"
sh scripts/build-nvcc.sh vector_add >/dev/null 2>&1 || exit 1
for smp in none nvidia-smi; do
  plan=configs/.sampler-ncu-$smp.yaml
  cat >"$plan" <<YAML
name: sampler-ncu-$smp
repeat: 3
app: {command: [../build/nvcc/vector_add, "16777216", "20"]}
profiler: {tool: ncu}
metrics: [{name: mean_kernel_ms, pattern: 'mean_kernel_ms=([0-9.eE+-]+)', unit: ms}]
passes:
  - normal
  - {name: ncu-limit, mode: time, kernel: vector_add, launch_count: 10}
sampler: {tool: $smp, interval: 2ms}
YAML
  "$HPRUN" "$plan" --quiet --output "$OUT/s" >"$OUT/sampler-ncu-$smp.txt" 2>&1
  echo "== sampler $smp: exit $?"; sed -n '/^pass/,/^$/p' "$OUT/sampler-ncu-$smp.txt"
  rm -f "$plan"
done
