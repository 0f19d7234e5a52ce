#!/bin/sh
# The H200 validation of `repeat: auto` (docs/validation/h200-auto.md). From the repository root on
# an NVIDIA machine with python3+torch, ncu and compute-sanitizer on PATH:
#   make static && OUT=/tmp/auto HPRUN=build/hprun-static sh docs/validation/h200-auto/run.sh
# It runs plan-auto.yaml and then plan-fixed.yaml back to back on the same GPU, timing each, and
# keeps each session's summary.json, report.md and terminal output in $OUT, with a table of every
# pass's flag, interval, runs and stop reason in $OUT/compare.txt.
set -u
OUT=${OUT:-/tmp/hprun-auto}
HPRUN=$(pwd)/${HPRUN:-build/hprun-static}
D=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
{
  echo "date: $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
  echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1)"
  echo "ncu: $(ncu --version 2>&1 | tail -n 1)"
  echo "compute-sanitizer: $(compute-sanitizer --version 2>&1 | tail -n 1)"
  echo "torch: $(python3 -c 'import torch; print(torch.__version__)' 2>&1)"
  echo "hprun: $("$HPRUN" --version 2>&1 | head -n 1)"
} >"$OUT/env.txt"
for kind in ${KINDS:-auto fixed}; do
  start=$(date +%s)
  timeout -s INT "${LIMIT:-36000}" "$HPRUN" "$D/plan-$kind.yaml" --output "$OUT/sessions" >"$OUT/$kind.txt" 2>"$OUT/$kind.err"
  echo "$kind: exit $? in $(($(date +%s) - start)) s wall" | tee -a "$OUT/env.txt"
  S=$(ls -d "$OUT"/sessions/h200-$kind-2* | head -n 1)
  cp "$S/summary.json" "$OUT/$kind.summary.json"
  cp "$S/report.md" "$OUT/$kind.report.md"
done
python3 - "$OUT" <<'PY' | tee "$OUT/compare.txt"
import json, sys
out = sys.argv[1]
import os
for kind in ("auto", "fixed"):
    if not os.path.exists(f"{out}/{kind}.summary.json"):
        continue
    d = json.load(open(f"{out}/{kind}.summary.json"))
    wall = sum(r.get("wall_ms") or 0 for p in d["passes"] for r in p["runs"]) / 1000
    print(f"{kind}: looks {d.get('looks')}, runs' wall {wall:.1f} s")
    for p in d["passes"]:
        o = p.get("overhead") or {}
        n = sum(1 for r in p["runs"] if not r.get("warmup"))
        print(f"  {p['name']:10} {p['flag']:13} ratio {o.get('ratio')} ci {o.get('ci95')} "
              f"runs {n} stopped {p.get('stopped')}")
PY
