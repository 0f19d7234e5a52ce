# launcher: slurm against a real one-node Slurm (tests/cluster/slurm.sh), with the example plans of
# docs/cluster.md run as they are (only the app, tests/apps/rankapp, is copied beside them):
#  - from a login node (slurm-partition.yaml): one salloc allocation for the session, every run a
#    step in it, its job and step in the run's stdout and in summary.json, nothing left in squeue;
#  - inside an allocation (slurm-allocation.yaml under salloc): 2 ranks, 2 rank folders per run,
#    per-rank statistics recomputed here from the ranks' own stdout;
#  - profiling rank 0 (slurm-rank0.yaml): only rank 0 runs under (the stand-in) hipprof.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../cluster/lib.sh"
cluster_use
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cp "$BUILD/apps/rankapp" "$T/"
export PATH="$BUILD/fake:$PATH"

# Every run's stdout.txt names its job and step; prints "JOB STEP" per run, one line each.
job_steps() {
  for f in "$1"/*/[0-9]*/stdout.txt; do
    line=$(grep -m1 '^hprun-rank: rank 0 on ' "$f") || fail "$f has no hprun-rank line"
    echo "$line" | sed -n 's/.*SLURM_JOB_ID=\([0-9][0-9]*\) SLURM_STEP_ID=\([0-9][0-9]*\)$/\1 \2/p' |
      grep . || fail "$f: no SLURM_JOB_ID and SLURM_STEP_ID in: $line"
  done
}

# 1. From a login node, with `allocation: session`.
cp "$ROOT/configs/examples/slurm-partition.yaml" "$T/"
expect_exit 0 "$HPRUN" --quiet "$T/slurm-partition.yaml"
S=$(session_dir "$T/hprun-out")
J="$S/summary.json"
job_steps "$S" >"$T/js"
assert_eq "$(wc -l <"$T/js" | tr -d ' ')" 4 "runs with a job and step"
assert_eq "$(cut -d' ' -f1 "$T/js" | sort -u | wc -l | tr -d ' ')" 1 "one allocation for all runs"
assert_eq "$(cut -d' ' -f2 "$T/js" | sort -u | wc -l | tr -d ' ')" 4 "a new step per run"
job=$(head -n1 "$T/js" | cut -d' ' -f1)
grep -q "Granted job allocation $job" "$S/salloc.txt" || fail "salloc.txt does not grant job $job"
assert_eq "$(json_get "$J" "sorted(set(r['launch']['job_id'] for p in d['passes'] for r in p['runs']))")" \
  "['$job']" "summary.json's job ids"
assert_eq "$(json_get "$J" "sorted(r['launch']['step_id'] for p in d['passes'] for r in p['runs'])")" \
  "$("$PY" -c "import sys; print(sorted(l.split()[1] for l in open(sys.argv[1])))" "$T/js")" "step ids"
assert_eq "$(json_get "$J" "d['passes'][0]['runs'][0]['launch']['nodelist']")" "$(hostname -s)" "node list"
grep -q -- "--partition=dcu" "$T/err" || grep -q -- "--partition=dcu" "$T/out" ||
  json_get "$J" "d['passes'][0]['runs'][0]['command']" | grep -q -- "--jobid=$job" ||
  fail "the runs did not go into the session's allocation"
wait_no_jobs 10
assert_no_jobs
ok "login node: one allocation, a step per run, released at the end"

# 2. Inside an allocation: salloc runs hprun with SLURM_JOB_ID set; every run is a 2-task step.
rm -rf "$T/hprun-out"
cp "$ROOT/configs/examples/slurm-allocation.yaml" "$T/"
expect_exit 0 salloc --ntasks=2 "$HPRUN" --quiet "$T/slurm-allocation.yaml"
S=$(session_dir "$T/hprun-out")
J="$S/summary.json"
ajob=$(sed -n 's/.*Granted job allocation \([0-9]*\).*/\1/p' "$T/err" | head -n1)
[ -n "$ajob" ] || fail "salloc granted nothing: $(cat "$T/err")"
assert_eq "$(job_steps "$S" | cut -d' ' -f1 | sort -u)" "$ajob" "steps of the enclosing allocation"
for run in "$S"/normal/1 "$S"/normal/2 "$S"/stats/1 "$S"/stats/2; do
  assert_eq "$(ls -d "$run"/rank* | wc -l | tr -d ' ')" 2 "rank folders in $run"
  grep -q '^time_ms=[0-9.]* rank=1$' "$run/rank1/stdout.txt" || fail "$run/rank1 has not rank 1's output"
done
# The statistics, recomputed from the ranks' stdout files: median over runs of each run's figure.
"$PY" - "$S" "$J" <<'PY' || fail "per-rank statistics differ from the ranks' own output"
import json, re, statistics, sys
S, d = sys.argv[1], json.load(open(sys.argv[2]))
for p in d['passes']:
    figs = []
    for r in p['runs']:
        vals = [float(re.search(r'time_ms=([0-9.]+)', open(f"{S}/{r['dir']}/rank{k}/stdout.txt").read()).group(1))
                for k in (0, 1)]
        figs.append((min(vals), statistics.median(vals), max(vals), max(vals) / statistics.median(vals)))
    want = [statistics.median(f[i] for f in figs) for i in range(4)]
    got = p['ranks']
    assert got['n'] == 2, got
    for w, g in zip(want, (got['min'], got['median'], got['max'], got['imbalance'])):
        assert abs(w - g) <= 1e-3 * max(1, abs(w)), (p['name'], want, got)
    # rankapp --rank-ms 20: rank 1 works 20 ms more than rank 0 (60 vs 40 ms).
    assert got['max'] - got['min'] > 10, got
PY
grep -q '^## Ranks' "$S/report.md" || fail "report.md has no Ranks section"
wait_no_jobs 10
assert_no_jobs
ok "inside an allocation: 2 rank folders per run and per-rank statistics"

# 3. Profiling rank 0 only: rank 0 runs under hipprof (its files are named by its pid), rank 1
# without it; the pass compares them.
rm -rf "$T/hprun-out"
cp "$ROOT/configs/examples/slurm-rank0.yaml" "$T/"
HIPPROF_FAKE_FACTORS=stats=1.5 expect_exit 0 "$HPRUN" --quiet "$T/slurm-rank0.yaml"
S=$(session_dir "$T/hprun-out")
J="$S/summary.json"
for run in "$S"/stats/1 "$S"/stats/2; do
  grep -q '^profiled=1$' "$run/rank0/rank.txt" || fail "$run: rank 0 not profiled"
  grep -q '^profiled=0$' "$run/rank1/rank.txt" || fail "$run: rank 1 profiled"
  # The stand-in's help lists -o, so rank 0's hipprof writes into its rank folder (-o RUN/rank0/).
  assert_eq "$(ls "$run"/rank0/result_*.kernel.csv | wc -l | tr -d ' ')" 1 "hipprof kernel files in $run/rank0"
done
"$PY" - "$J" <<'PY' || fail "profiled vs unprofiled ranks"
import json, statistics, sys
d = json.load(open(sys.argv[1]))
p = [p for p in d['passes'] if p['name'] == 'stats'][0]
ratios = []
for r in p['runs']:
    rk = {x['rank']: x for x in r['launch']['ranks']}
    assert rk[0]['profiled'] and not rk[1]['profiled'], rk
    ratios.append(rk[0]['values']['time_ms'] / rk[1]['values']['time_ms'] - 1)
got = p['ranks']
assert got['profiled'] == 1, got
assert abs(got['profiled_vs_unprofiled'] - statistics.median(ratios)) < 1e-9, (got, ratios)
# The stand-in hipprof reports rank 0's times 1.5x: it must show.
assert got['profiled_vs_unprofiled'] > 0.2, got
n = [p for p in d['passes'] if p['name'] == 'normal'][0]['ranks']
assert n['profiled'] == 0 and n['profiled_vs_unprofiled'] is None, n
PY
# hprun report reads the ranks back and renders the same section.
expect_exit 0 "$HPRUN" report "$S" --format md
sed -n '/^## Ranks/,/^## Runs/p' "$T/out" >"$T/ranks.after"
sed -n '/^## Ranks/,/^## Runs/p' "$S/report.md" >"$T/ranks.before"
[ -s "$T/ranks.after" ] && cmp -s "$T/ranks.before" "$T/ranks.after" || fail "the Ranks section changed when read back"
wait_no_jobs 10
assert_no_jobs
ok "profile_ranks: [0]: one profiled rank, compared with the others"
