#!/bin/sh
# The torch tool end to end with the PyTorch stand-in (tests/fake/torch, on PYTHONPATH): each mode
# hands torch.profiler the options docs/drivers.md lists, the script sees its own argv and
# __name__, its exit status comes back through the launcher (SystemExit, an exception, -m), the
# schedule follows the plan's keys and steps on optimizer.step(), and each run's trace is parsed.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
L=$ROOT/share/hprun/hprun_torch.py
export PYTHONPATH="$ROOT/tests/fake"
mkdir -p "$T/pkg" "$T/d"
cat >"$T/train.py" <<'PY'
import sys
import torch.optim.optimizer as oo
print("argv=%s name=%s" % (sys.argv, __name__))
opt = oo.Optimizer()
for i in range(6):
    opt.step()
print("mean_iter_ms=1.5")
if sys.argv[1:2] == ["raise"]:
    raise RuntimeError("boom")
sys.exit(int(sys.argv[1]) if sys.argv[1:] else 0)
PY
printf 'import sys\nprint("mod argv=%%s name=%%s" %% (sys.argv, __name__))\nsys.exit("bad input")\n' >"$T/pkg/m.py"

# The launcher alone: argv, exit status, -m.
cd "$T"
expect_exit 7 $PY "$L" --mode cpu --dir "$T/d" -- train.py 7 x
grep -q "argv=\['train.py', '7', 'x'\] name=__main__" "$T/out" || fail "argv: $(cat "$T/out")"
expect_exit 1 $PY "$L" --mode cpu --dir "$T/d" -- train.py raise
grep -q "RuntimeError: boom" "$T/err" || fail "the exception's traceback is not shown"
[ -s "$T/d/torch-trace.json" ] || fail "no trace after an exception"
expect_exit 1 env PYTHONPATH="$PYTHONPATH:$T" $PY "$L" --mode cuda --dir "$T/d" -- -m pkg.m a b
grep -q "mod argv=\['$T/pkg/m.py', 'a', 'b'\] name=__main__" "$T/out" || fail "-m: $(cat "$T/out")"
grep -q "bad input" "$T/err" || fail "SystemExit's message"
RANK=3 expect_exit 0 $PY "$L" --mode cpu --dir "$T/d" -- train.py
[ -s "$T/d/torch-trace.rank3.json" ] || fail "no per-rank trace name"
ok "launcher: argv, exit status, -m, per-rank trace"

# A plan with every mode.
cat >"$T/plan.yaml" <<YAML
name: torch
output: $T/sess
repeat: 1
warmup: 0
app: {command: [python3, -u, train.py, "0"]}
metrics: [{name: mean_iter_ms, pattern: 'mean_iter_ms=([0-9.]+)', unit: ms}]
profiler: {tool: torch}
passes: [normal, cpu, cuda, shapes, stack, memory,
         {mode: schedule, schedule: {wait: 0, warmup: 1, active: 2}}]
YAML
expect_exit 0 "$HPRUN" --quiet "$T/plan.yaml"
S=$(ls -d "$T"/sess/torch-2*/ | head -1)
opt() { $PY -c "import json,sys; print(json.load(open(sys.argv[1]))['hprunFake'][sys.argv[2]])" "$S/$1/1/torch-trace.json" "$2"; }
[ "$(opt cpu activities)" = "['CPU']" ] || fail "cpu activities: $(opt cpu activities)"
[ "$(opt cuda activities)" = "['CPU', 'CUDA']" ] || fail "cuda activities"
[ "$(opt shapes record_shapes)" = True ] || fail "shapes"
[ "$(opt stack with_stack)" = True ] || fail "stack"
[ "$(opt memory profile_memory)" = True ] || fail "memory"
[ "$(opt schedule schedule)" = "{'wait': 0, 'warmup': 1, 'active': 2, 'repeat': 1}" ] || fail "schedule: $(opt schedule schedule)"
[ "$(opt schedule steps)" = 3 ] || fail "the schedule's trace was written after $(opt schedule steps) steps, not 3"
ok "each mode's profiler options, the schedule from the plan"

# The cuda pass's own trace parsed: the stand-in's one 2.25 us kernel.
expect_exit 0 "$HPRUN" summarize --format json "$S/cuda/1/torch-trace.json"
$PY - "$T/out" <<'PY' || fail "parsed trace"
import json, sys
d = json.load(open(sys.argv[1]))
k = d["kernels"]
k = k["entries"] if isinstance(k, dict) else k
assert k[0]["name"] == "fake_kernel" and k[0]["total_ns"] == 2250, k
PY
ok "the run's trace is read back"
