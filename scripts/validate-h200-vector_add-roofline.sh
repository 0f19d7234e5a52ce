#!/bin/sh
# The vector_add roofline point on the H200 (docs/validation/h200-roofline.md, "The vector_add
# point"), and the FP16/BF16 matrix peaks of hip/roofline_peaks.hip. Everything goes under $OUT.
#
# Run from the repository root on the H200, with `make static` output (build/hprun-static) in the
# tree and nvcc and ncu on PATH (or in /usr/local/cuda/bin):
#   OUT=/tmp/v sh scripts/validate-h200-vector_add-roofline.sh
# then read $OUT/verdict.txt.
#
# 1. builds hip/roofline_peaks.hip, hip/vector_add.hip and hip/tests/vector_add_vec4.hip with nvcc
#    into $OUT/bin;
# 2. `hprun peaks` (the ceilings, now with the matrix peaks) into $OUT/h200.peaks.yaml, and one
#    more plain run of roofline_peaks;
# 3. both vector adds at 2^28 elements (1 GiB per array, 20x the L2) on their own, timed by HIP
#    events: the article's kernel (4-byte accesses, one element per thread) and vector_add_vec4
#    (the same sum with 16-byte accesses and a grid-stride loop, like the triad);
# 4. ncu's roofline counters (--page raw) of both, 3 launches each, and the sections that say why
#    a kernel does not reach the bandwidth (SpeedOfLight, MemoryWorkloadAnalysis, WarpStateStats,
#    Occupancy; 1 launch, in a separate run so that a section this ncu lacks costs nothing else);
# 5. `hprun summarize --roofline` of both against the measured peaks (text and JSON);
# 6. $OUT/verdict.txt: each criterion of issue 13 with its figure and PASS or FAIL.
set -u
OUT=${OUT:-/tmp/hprun-vector_add-roofline}
HPRUN=${HPRUN:-build/hprun-static}
N=${N:-268435456}
PATH=$PATH:/usr/local/cuda/bin
mkdir -p "$OUT/bin" || exit 1
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
  echo "hprun: $("$HPRUN" --version 2>&1 | head -n 1)"
} >"$OUT/env.txt"
cat "$OUT/env.txt"

for src in hip/roofline_peaks.hip hip/vector_add.hip hip/tests/vector_add_vec4.hip; do
  name=$(basename "$src" .hip)
  nvcc -O3 -std=c++17 -arch=sm_90 -x cu -Ihip "$src" -o "$OUT/bin/$name" >>"$OUT/build.txt" 2>&1 ||
    { cat "$OUT/build.txt"; echo "build of $src failed"; exit 1; }
done

"$HPRUN" peaks --binary "$OUT/bin/roofline_peaks" --output "$OUT/h200.peaks.yaml" \
  >"$OUT/hprun-peaks.txt" 2>"$OUT/hprun-peaks.err"
echo "hprun peaks: exit $?"; cat "$OUT/hprun-peaks.txt" "$OUT/hprun-peaks.err"
"$OUT/bin/roofline_peaks" >"$OUT/peaks-run2.txt" 2>&1
echo "roofline_peaks: exit $?: $(cat "$OUT/peaks-run2.txt")"

for k in vector_add vector_add_vec4; do
  "$OUT/bin/$k" "$N" 100 >"$OUT/$k-app.txt" 2>&1
  echo "$k on its own: exit $?: $(cat "$OUT/$k-app.txt")"
  $NCU --metrics "$M" -k "regex:^$k\$" -c 3 --log-file "$OUT/ncu-$k.csv" "$OUT/bin/$k" "$N" 5 \
    >"$OUT/ncu-$k.out" 2>&1
  echo "ncu $k: exit $?"
  $NCU --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
    --section Occupancy -k "regex:^$k\$" -c 1 --log-file "$OUT/ncu-$k-sections.csv" \
    "$OUT/bin/$k" "$N" 1 >"$OUT/ncu-$k-sections.out" 2>&1
  echo "ncu $k sections: exit $?"
  "$HPRUN" summarize --roofline --peaks "$OUT/h200.peaks.yaml" "$OUT/ncu-$k.csv" \
    >"$OUT/roofline-$k.txt" 2>&1
  "$HPRUN" summarize --roofline --format json --peaks "$OUT/h200.peaks.yaml" "$OUT/ncu-$k.csv" \
    >"$OUT/roofline-$k.json" 2>>"$OUT/roofline-$k.txt"
  cat "$OUT/roofline-$k.txt"
done

python3 - "$OUT" "$N" >"$OUT/verdict.txt" 2>&1 <<'PY'
import json, re, sys
out, n = sys.argv[1], int(sys.argv[2])

def line(path):
    try:
        return dict(re.findall(r"(\w+)=(\S+)", open(path).read()))
    except OSError:
        return {}

def roof(k):
    try:
        pts = json.load(open("%s/roofline-%s.json" % (out, k)))["kernels"]
        return next(p for p in pts if p["name"].startswith(k + "("))
    except (OSError, ValueError, StopIteration):
        return None

def verdict(ok, text):
    print("%s  %s" % ("PASS" if ok else "FAIL", text))

try:
    yaml = dict(re.findall(r"^(\w+): \"?([^\"\n]+)", open("%s/h200.peaks.yaml" % out).read(), re.M))
except OSError:
    yaml = {}
bw, fp32 = float(yaml.get("peak_bw_gbs", "nan")), float(yaml.get("peak_fp32_tflops", "nan"))
verdict(bw >= 0.85 * 4800, "measured bandwidth %.1f GB/s = %.1f%% of the HBM3e datasheet's 4800 (>= 85%%)" % (bw, bw / 48))
verdict(fp32 >= 0.85 * 67, "measured FP32 %.2f TFLOP/s = %.1f%% of the datasheet's 67 (>= 85%%)" % (fp32, fp32 / 0.67))
for key, name in (("peak_fp16_tflops", "FP16"), ("peak_bf16_tflops", "BF16")):
    v = yaml.get(key)
    print("info  %s matrix peak (WMMA, dense): %s" % (name, "%s TFLOP/s = %.1f%% of the datasheet's 989.5 dense" % (v, float(v) / 9.895) if v else "MISSING from the peaks file"))
for k in ("vector_add", "vector_add_vec4"):
    app = line("%s/%s-app.txt" % (out, k))
    ms = float(app.get("mean_kernel_ms", "nan"))
    app_gbs = 12.0 * n / (ms * 1e-3) / 1e9
    p = roof(k)
    if p is None:
        print("FAIL  %s: no roofline point (see %s/roofline-%s.txt)" % (k, out, k))
        continue
    logical = 12.0 * n
    print("info  %s: on its own %.4f ms = %.1f GB/s (%.1f%% of the measured roof); under ncu %.1f GB/s; "
          "dram bytes %.4f of the logical 12 per element" % (k, ms, app_gbs, 100 * app_gbs / bw, p["gbs"], p["bytes"] / logical))
    eff = p["efficiency"]
    text = "%s roofline point: %.4g FLOP/byte, %s-bound, %.1f%% of the roof (within 15%%: >= 85%%)" % (
        k, p["intensity"], p["bound"], 100 * eff)
    if k == "vector_add":
        print("info  " + text + " [the article's kernel: 4-byte accesses]")
    else:
        verdict(p["bound"] == "memory" and eff >= 0.85, text)
PY
cat "$OUT/verdict.txt"
ls -la "$OUT"
