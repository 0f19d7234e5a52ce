# Device call 1: the roofline validation (issue 13) and the several-files benchmark (issue 12).
set -u
export PATH=$PATH:/usr/local/cuda/bin
s=$(date +%s)
OUT=$OUT/roof timeout 420 sh scripts/validate-h200-vector_add-roofline.sh > $OUT/roof.log 2>&1
echo "roofline: exit $? in $(( $(date +%s)-s )) s"
tail -20 $OUT/roof/verdict.txt
s=$(date +%s)
nproc
HPRUN=build/hprun-static BENCH_ONLY=par BENCH_PAR_FILES=32 BENCH_NO_INSTALL=1 BENCH_ROUNDS=3 \
  timeout 150 sh scripts/bench > $OUT/par.txt 2>&1
echo "par bench: exit $? in $(( $(date +%s)-s )) s"
tail -15 $OUT/par.txt
