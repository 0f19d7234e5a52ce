#!/bin/sh
# The summarize part of scripts/bench (parts 1 and 1b) on the device tool's H200 host: 16 CPUs
# that nothing else uses, so `hprun summarize -j 1` shows its single-threaded speed without the
# development machine's load, and "all CPUs" shows what the 32 MiB ranges of one large file give
# on 16 cores. Run from the repository root with the static build carried over:
#
#   make static   # here; then, through the device tool, with carry ["build/hprun-static"]:
#   sh scripts/validate-h200-bench.sh "$OUT"
#
# The 200 MB and 1 GB inputs are generated there first, ten at a time (scripts/bench-gen), into
# BENCH_DIR (/tmp/hprun-benchdata). Tools missing on that host (hyperfine, mawk, GNU time) leave
# their rows out; the per-run, idle and compare parts are not run (BENCH_ONLY=summarize).
set -eu
OUTDIR=${1:-.}
D=${BENCH_DIR:-/tmp/hprun-benchdata}
mkdir -p "$OUTDIR" "$D"
{
  echo "host: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
  echo "generating at $(date -u '+%H:%M:%S UTC')"
} | tee "$OUTDIR/bench-host.txt"
for mb in 200 1000; do
  for fmt in ncu ncu-pytorch pmc rocprofv3 stack; do
    case $fmt in
      ncu | ncu-pytorch) base=ncu.csv ;;
      pmc) base=pmc_results_1.csv ;;
      rocprofv3) base=run_kernel_trace.csv ;;
      stack) base=result_1.stack.csv ;;
    esac
    mkdir -p "$D/$mb-$fmt"
    [ -s "$D/$mb-$fmt/$base" ] || python3 scripts/bench-gen "$fmt" "$mb" "$D/$mb-$fmt/$base" &
  done
done
wait
echo "generated at $(date -u '+%H:%M:%S UTC')" | tee -a "$OUTDIR/bench-host.txt"
HPRUN=${HPRUN:-build/hprun-static} BENCH_NO_INSTALL=1 BENCH_ONLY=summarize BENCH_DIR="$D" \
  BENCH_PAR_FILES=${BENCH_PAR_FILES:-32} sh scripts/bench 2>&1 | tee "$OUTDIR/bench.txt"
