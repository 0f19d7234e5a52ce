# launcher: mpirun with Open MPI (configs/examples/mpirun.yaml, as docs/cluster.md shows it): 2
# ranks of tests/apps/rankapp (no MPI library needed: it reads OMPI_COMM_WORLD_RANK as an MPI
# program's runtime would), each with its own folder and metrics, and per-rank statistics. Then
# `launcher: {kind: command}` with {rank} in a pass's own command template.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
command -v mpirun >/dev/null || fail "mpirun not found (make deps installs openmpi-bin)"
cp "$BUILD/apps/rankapp" "$ROOT/configs/examples/mpirun.yaml" "$T/"

expect_exit 0 "$HPRUN" --quiet "$T/mpirun.yaml"
S=$(session_dir "$T/hprun-out")
J="$S/summary.json"
for run in "$S"/normal/1 "$S"/normal/2; do
  assert_eq "$(ls -d "$run"/rank* | wc -l | tr -d ' ')" 2 "rank folders in $run"
  for k in 0 1; do
    grep -q "^rank=$k\$" "$run/rank$k/rank.txt" || fail "$run/rank$k/rank.txt is not rank $k's"
    grep -q '^exit=0$' "$run/rank$k/rank.txt" || fail "$run/rank$k did not exit 0"
    grep -q "^time_ms=[0-9.]* rank=$k\$" "$run/rank$k/stdout.txt" || fail "$run/rank$k: no output of rank $k"
  done
done
"$PY" - "$S" "$J" <<'PY' || fail "per-rank statistics of the mpirun runs"
import json, re, statistics, sys
S, d = sys.argv[1], json.load(open(sys.argv[2]))
p = d['passes'][0]
lo, hi = [], []
for r in p['runs']:
    v = [float(re.search(r'time_ms=([0-9.]+)', open(f"{S}/{r['dir']}/rank{k}/stdout.txt").read()).group(1)) for k in (0, 1)]
    assert r['launch']['kind'] == 'mpirun' and r['launch']['job_id'] is None, r['launch']
    # The run's own value is rank 0's.
    assert abs(r['values']['time_ms'] - v[0]) < 1e-9, (r['values'], v)
    lo.append(min(v)); hi.append(max(v))
st = p['ranks']
assert st['n'] == 2 and abs(st['min'] - statistics.median(lo)) < 1e-6 and abs(st['max'] - statistics.median(hi)) < 1e-6, st
# --rank-ms 20: rank 1 works 60 ms, rank 0 40 ms: max/median = 60/50 = 1.2 (more on a busy machine).
assert 1.1 < st['imbalance'] < 2.0, st
PY
ok "mpirun: 2 ranks, their folders and per-rank statistics"

# A `command` launcher (another scheduler's launch command) and {rank} in a pass's template: the
# rank wrapper gives each rank its number (PMI_RANK=3 here), the profiled argv writes per rank.
cat >"$T/cmd.yaml" <<YAML
name: cmd
output: cmd-out
app:
  command: [$BUILD/apps/rankapp, --ms, "5"]
launcher:
  kind: command
  command: [env, PMI_RANK=3, '{app}']
metrics:
  - {name: time_ms, pattern: 'time_ms=([0-9.]+)'}
passes:
  - normal
  - {name: wrap, mode: command, command: [sh, -c, 'echo r{rank} > {dir}/marker; exec "\$@"', sh, '{app}']}
YAML
expect_exit 0 "$HPRUN" --quiet "$T/cmd.yaml"
S=$(session_dir "$T/cmd-out")
[ -d "$S/normal/1/rank3" ] || fail "no rank3 folder: $(ls "$S/normal/1")"
assert_eq "$(cat "$S/wrap/1/rank3/marker")" r3 "the {rank} of a command template"
grep -q '^time_ms=[0-9.]* rank=3$' "$S/wrap/1/rank3/stdout.txt" || fail "rank 3's output"
ok "command launcher and {rank} in a pass template"
