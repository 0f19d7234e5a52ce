#!/bin/sh
# Real-GPU check of issue 9's process and output guarantees on a PyTorch program under ncu and
# compute-sanitizer (docs/validation/h200-pytorch-escape.md). Run from the repository root on an
# NVIDIA machine with python3+torch, ncu and compute-sanitizer:
#   OUT=/tmp/v HPRUN=build/hprun-static sh scripts/validate-h200-escape.sh
# It runs a short session (baseline, ncu time mode, compute-sanitizer), re-renders and compares
# it, then SIGKILLs hprun in the middle of an ncu run and looks for any process left behind.
set -u
OUT=${OUT:-/tmp/hprun-escape}
HPRUN=$(cd "$(dirname "${HPRUN:-build/hprun-static}")" && pwd)/$(basename "${HPRUN:-build/hprun-static}")
W=$(mktemp -d)
mkdir -p "$OUT"

cat >"$W/layer.py" <<'PY'
# One Transformer encoder layer, forward and backward in bf16, timed with CUDA events.
import sys, torch
steps = int(sys.argv[1]) if len(sys.argv) > 1 else 5
torch.manual_seed(0)
layer = torch.nn.TransformerEncoderLayer(512, 8, 2048, batch_first=True).cuda().to(torch.bfloat16)
x = torch.randn(8, 256, 512, device="cuda", dtype=torch.bfloat16, requires_grad=True)
def step():
    layer(x).float().pow(2).mean().backward()
for _ in range(3):
    step()
torch.cuda.synchronize()
a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
a.record()
for _ in range(steps):
    step()
b.record()
torch.cuda.synchronize()
print("step_ms=%.7g" % (a.elapsed_time(b) / steps), flush=True)
PY

cat >"$W/plan.yaml" <<YAML
name: layer
output: sessions
repeat: 3
app:
  command: [sh, -c, 'exec python3 "\$HPRUN_APP_CWD/layer.py" 5']
  timeout: 5m
profiler: {tool: ncu}
metrics:
  - {name: step_ms, pattern: 'step_ms=([0-9.eE+-]+)', unit: ms}
passes:
  - normal
  - {name: ncu-time, mode: time, launch_count: 200}
  - name: sanitizer
    command: [compute-sanitizer, --tool, memcheck, "{app}"]
    expect: distorted
YAML

{
  echo "date: $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
  echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1)"
  echo "ncu: $(ncu --version 2>&1 | tail -n 1)"
  echo "torch: $(python3 -c 'import torch; print(torch.__version__)' 2>&1)"
  echo "hprun: $("$HPRUN" --version 2>&1)"
} >"$OUT/env.txt"
cat "$OUT/env.txt"

# Processes whose command line matches $1 (reads /proc: procps may be missing).
procs() {
  for f in /proc/[0-9]*/cmdline; do
    c=$( { tr '\0' ' ' <"$f"; } 2>/dev/null) || continue
    case "$c" in *$1*) p=${f#/proc/}; echo "${p%/cmdline} $c" ;; esac
  done
}

cd "$W"
start=$(date +%s)
"$HPRUN" plan.yaml >"$OUT/run.txt" 2>"$OUT/run.err"
echo "run: exit $? in $(( $(date +%s) - start )) s"
cat "$OUT/run.txt"
grep -E 'left .* behind|held open|cannot write' "$OUT/run.err" || echo "no left-behind, held-pipe or write messages"
S=$(ls -d sessions/layer-*)
"$HPRUN" report "$S" >"$OUT/report.txt" 2>&1; echo "report: exit $?"
"$HPRUN" compare "$S" "$S" >"$OUT/compare.txt" 2>&1; echo "compare (self): exit $?"
cp "$S/summary.json" "$S/report.md" "$S/manifest.json" "$OUT/" 2>/dev/null

# SIGKILL in the middle of the ncu pass: nothing of the session may survive.
sed 's/^repeat: 3/repeat: 1/' plan.yaml >kill.yaml
"$HPRUN" --quiet kill.yaml >"$OUT/kill.out" 2>"$OUT/kill.err" &
pid=$!
i=0
while [ $i -lt 120 ] && [ -z "$(procs 'ncu --')" ]; do sleep 0.5; i=$((i + 1)); done
sleep 3
echo "before SIGKILL:"; procs layer.py; procs hprun-static
kill -KILL "$pid"; wait "$pid"; echo "hprun exit: $?"
sleep 3
left=$( (procs layer.py; procs 'ncu --'; procs hprun-static) | grep -v validate-h200-escape)
if [ -n "$left" ]; then echo "LEFT BEHIND after SIGKILL:"; echo "$left"; else echo "after SIGKILL: nothing left behind"; fi
cat "$OUT/kill.err" | tail -n 5
rm -rf "$W"
