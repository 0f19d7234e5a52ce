# Device call 2: the PyTorch session (issue 11 sizes, the new runner on a real program).
set -u
export PATH=$PATH:/usr/local/cuda/bin
s=$(date +%s)
OUT=$OUT/torch HPRUN=build/hprun-static timeout 560 sh scripts/validate-h200-pytorch.sh > $OUT/torch.log 2>&1
echo "pytorch: exit $? in $(( $(date +%s)-s )) s"
tail -30 $OUT/torch.log
