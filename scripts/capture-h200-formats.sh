#!/bin/sh
# scripts/capture-h200-formats.sh: the H200 captures behind tests/fixtures/real/sanitizer/h200/
# and tests/fixtures/real/ncu/h200-*/ (their READMEs say what each file is). Builds
# tests/device/capture.cu with nvcc and runs it under compute-sanitizer (memcheck, initcheck,
# racecheck; errors on purpose and clean) and ncu (two processes with --target-processes all; an
# NVTX range with --nvtx-include and without it), then five plain runs for the baseline.
#
#   OUT=DIR scripts/capture-h200-formats.sh     default DIR: capture-out
#
# Needs nvcc, ncu and compute-sanitizer on PATH and an sm_90 GPU (NVCC_ARCH overrides). These are
# the commands the device run of 2026-12-01 ran (it sent them inline, with the same source).
set -u
O=${OUT:-capture-out}
mkdir -p "$O"
O=$(cd "$O" && pwd)
SRC=$(cd "$(dirname "$0")/../tests/device" && pwd)
cd "$(mktemp -d)" || exit 1
cp "$SRC/capture.cu" a.cu
nvcc -O2 -lineinfo -arch="${NVCC_ARCH:-sm_90}" -o a a.cu || exit 1
{
  nvidia-smi -L; nvcc --version | tail -1; ncu --version | tail -1
  compute-sanitizer --version | tail -1
} > "$O/versions.txt" 2>&1
C=compute-sanitizer
$C --tool memcheck --leak-check full ./a b > "$O/memcheck-bad.txt" 2>&1
$C --tool initcheck ./a b > "$O/initcheck-bad.txt" 2>&1
$C --tool racecheck ./a b > "$O/racecheck-bad.txt" 2>&1
$C --tool memcheck --leak-check full ./a c > "$O/memcheck-clean.txt" 2>&1
$C --tool initcheck ./a c > "$O/initcheck-clean.txt" 2>&1
N="ncu --clock-control none --target-processes all --metrics gpu__time_duration.sum --csv --page raw"
$N --log-file "$O/ncu-two-processes.csv" sh -c './a r 5 && ./a r 3' > "$O/ncu-two-processes.stdout" 2>&1
$N --nvtx --nvtx-include timed/ --log-file "$O/ncu-region.csv" ./a r 10 > "$O/ncu-region.stdout" 2>&1
$N --log-file "$O/ncu-noregion.csv" ./a r 10 > "$O/ncu-noregion.stdout" 2>&1
for i in 1 2 3 4 5; do ./a r 10; done > "$O/region-baseline.txt" 2>&1
wc -l "$O"/*
