# docs/cluster.md shows the example plans that the cluster tests run (test_slurm.sh,
# test_mpirun.sh): each must appear there byte for byte, after a line naming its file.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
for f in slurm-partition.yaml slurm-allocation.yaml slurm-rank0.yaml mpirun.yaml; do
  "$PY" - "$ROOT/docs/cluster.md" "$ROOT/configs/examples/$f" "$f" <<'PY' || fail "docs/cluster.md does not show configs/examples/$f as it is"
import sys
doc, plan, name = open(sys.argv[1]).read(), open(sys.argv[2]).read(), sys.argv[3]
sys.exit(0 if f"`configs/examples/{name}`:\n\n```yaml\n{plan}```\n" in doc else 1)
PY
  grep -q "configs/examples/$f" "$ROOT/tests/e2e/test_slurm.sh" "$ROOT/tests/e2e/test_mpirun.sh" ||
    fail "no test runs configs/examples/$f"
done
ok "docs/cluster.md shows the plans the tests run"
