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

# The issue's plan: overhead verdicts, and each torch pass's kernel table, categories and busy
# fraction from its own trace on every surface. The stand-in's trace (tests/fake/torch/profiler.py)
# without steps: a 5.5 us CPU op from 1000 us holding a 2.25 us kernel, so busy = 2.25 / 5.5; the
# schedule's 3 steps of 10 us from 1000 us, each with one launch and one 2.25 us kernel: 6.75 / 30.
cat >"$T/plan2.yaml" <<YAML
name: torch2
output: $T/sess2
repeat: 5
warmup: 0
app: {command: [python3, -u, train.py]}
metrics: [{name: mean_iter_ms, pattern: 'mean_iter_ms=([0-9.]+)', unit: ms}]
passes: [normal, {tool: torch, mode: cuda}, {tool: torch, mode: stack},
         {tool: torch, mode: schedule, schedule: {wait: 0, warmup: 1, active: 3}}]
YAML
expect_exit 0 "$HPRUN" "$T/plan2.yaml"
S=$(session_dir "$T/sess2")
J=$S/summary.json
for p in cuda stack schedule; do
  assert_eq "$(pass_get "$J" $p "p['flag']")" ok "$p: verdict"
done
for p in cuda stack; do
  assert_close "$(pass_get "$J" $p "p['crosscheck']['trace_busy_fraction']")" "$($PY -c 'print(2.25/5.5)')" 1e-12 "$p: busy"
  assert_eq "$(pass_get "$J" $p "[p['crosscheck'][k] for k in ('steps', 'kernels_per_step', 'launch_bound')]")" "[0, None, True]" "$p: no steps"
done
assert_close "$(pass_get "$J" schedule "p['crosscheck']['trace_busy_fraction']")" 0.225 1e-12 "schedule: busy"
assert_close "$(pass_get "$J" schedule "p['crosscheck']['trace_span_ms']")" 0.03 1e-12 "schedule: span"
assert_eq "$(pass_get "$J" schedule "[p['crosscheck'][k] for k in ('steps', 'kernels_per_step', 'launches_per_step', 'launch_bound')]")" "[3, 1, 1, True]" "schedule: per step"
grep -q "cuda: kernels 0.00225 ms in 1 launches.*its trace: GPU busy 40.9% of a 0.0055 ms span (launch-bound" "$T/out" || fail "terminal: $(grep 'cuda:' "$T/out")"
grep -q "schedule: .*its trace: GPU busy 22.5% of a 0.03 ms span (launch-bound: GPU busy below 60%), 3 steps of 1 kernels and 1 launches" "$T/out" || fail "terminal schedule: $(grep 'schedule:' "$T/out")"
for f in report.md report.html; do
  grep -q "its trace: GPU busy 40.9%" "$S/$f" || fail "$f: no trace busy fraction"
done
awk '/^## Profiler output: stack/,0' "$S/report.md" >"$T/stack.md"
grep -q "^### Kernel summary" "$T/stack.md" && grep -q '^| `fake_kernel` | 1 |' "$T/stack.md" || fail "report.md: stack's kernel table"
grep -q "^### Pattern-based kernel categories" "$T/stack.md" || fail "report.md: stack's categories"
grep -q "fake_kernel" "$S/report.html" || fail "report.html: no kernel"
ok "normal, torch cuda, stack, schedule: verdicts, kernel and category tables, busy from the trace"

# A session of a real trace: the stand-in writes the H200 Transformer-layer trace
# (tests/fixtures/real/kineto/h200-layer, whose figures hand_check.py printed: busy 1044238 of
# 14229139 ns, 3 steps, 210 kernels and 210 launches in them); `hprun report` redraws it alike.
cat >"$T/plan3.yaml" <<YAML
name: torch3
output: $T/sess3
repeat: 2
warmup: 0
app: {command: [python3, -u, train.py]}
metrics: [{name: mean_iter_ms, pattern: 'mean_iter_ms=([0-9.]+)', unit: ms}]
passes: [normal, {tool: torch, mode: cuda}]
YAML
HPRUN_FAKE_TORCH_TRACE=$ROOT/tests/fixtures/real/kineto/h200-layer/kineto.json.gz \
  expect_exit 0 "$HPRUN" "$T/plan3.yaml"
S=$(session_dir "$T/sess3")
expect_exit 0 "$HPRUN" report "$S" --markdown "$T/re.md" --html "$T/re.html"
grep -q "its trace: GPU busy 7.34%" "$T/out" || fail "hprun report's table: $(cat "$T/out")"
J=$S/summary.json
assert_close "$(pass_get "$J" cuda "p['crosscheck']['trace_busy_fraction']")" "$($PY -c 'print(1044238/14229139)')" 1e-12 "real: busy"
assert_eq "$(pass_get "$J" cuda "[p['crosscheck'][k] for k in ('steps', 'kernels_per_step', 'launches_per_step', 'launches')]")" "[3, 70, 70, 210]" "real: steps"
for f in "$S/report.md" "$S/report.html" "$T/re.md" "$T/re.html"; do
  grep -q "its trace: GPU busy 7.34% of a 14.2291 ms span (launch-bound: GPU busy below 60%), 3 steps of 70 kernels and 70 launches" "$f" || fail "$f: the real trace's timeline"
done
for f in "$S/report.md" "$T/re.md"; do
  grep -q '^| `reduce_kernel<sum_functor>` | 12 | 0.112446 | 9.370 |' "$f" || fail "$f: the real kernel table"
  grep -q '^### Pattern-based kernel categories' "$f" || fail "$f: the real categories"
done
ok "a session of the real H200 trace: busy, steps, kernel table, through hprun report too"

# An app that drives torch.profiler itself, told where to write through the pass's env: `{dir}`
# in a pass's env value is the run folder, as in app.env, and a pass's value of a name wins over
# the app's `{dir}` one.
cat >"$T/self.py" <<'PY'
import os
d = os.environ.get("HPRUN_TORCH_TRACE_DIR")
print("tracedir=%s other=%s" % (d, os.environ.get("OTHER")))
if d:
    with open(os.path.join(d, "self.json"), "w") as f:
        f.write('{"schemaVersion": 1, "traceEvents": [{"ph": "X", "cat": "kernel", '
                '"name": "selfk", "ts": 1, "dur": 2}]}')
print("mean_iter_ms=1.5")
PY
cat >"$T/plan4.yaml" <<YAML
name: self
output: $T/sess4
repeat: 1
warmup: 0
app: {command: [python3, -u, self.py], env: {OTHER: "{dir}/app"}}
metrics: [{name: mean_iter_ms, pattern: 'mean_iter_ms=([0-9.]+)', unit: ms}]
passes: [normal, {name: selfprof, command: ["{app}"], env: {HPRUN_TORCH_TRACE_DIR: "{dir}", OTHER: pass}}]
YAML
expect_exit 0 "$HPRUN" "$T/plan4.yaml"
S=$(session_dir "$T/sess4")
grep -q "^tracedir=None other=$S/normal/1/app$" "$S/normal/1/stdout.txt" || fail "baseline env: $(cat "$S/normal/1/stdout.txt")"
grep -q "^tracedir=$S/selfprof/1 other=pass$" "$S/selfprof/1/stdout.txt" || fail "pass env: $(cat "$S/selfprof/1/stdout.txt")"
assert_eq "$(pass_get "$S/summary.json" selfprof "p['crosscheck']['kernel']")" selfk "the app's own trace is read"
ok "a pass's env: {dir} is the run folder, over app.env; the app's own trace is parsed"
