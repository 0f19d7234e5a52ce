# Bounded summary.json and report.md on the H200 PyTorch session (issue 11, "Bounded output"):
# the session stored in docs/validation/h200-pytorch/ (its summary.json, the plan it ran) with
# the real ncu CSVs of the same layer in its run folders (tests/fixtures/real/ncu-h200-pytorch/:
# time-raw.csv, `--metrics gpu__time_duration.sum`, 560 launches; basic-raw.csv, `--set basic`,
# 420 launches, ~300 metrics and ~250 constants a row) is rendered again by `hprun report`,
# through the writers a session uses. Checked here with python3, not with hprun:
#   - summary.json <= 200 KB, report.md <= 60 KB;
#   - the ncu tables show what each pass's command asked for: only gpu__time_duration.sum for
#     the time pass; for --set basic, only columns of the CSV that are measurements (no
#     device__/launch__/profiler__/... constant), each present in the CSV's header;
#   - top-N: 20 kernels by default, the plan's `report: {top: N}`, `hprun report --top N`; the
#     `counts` are the distinct kernels of each CSV.
# Then `hprun summarize --metrics` on the CSV alone.
. "$(dirname "$0")/lib.sh"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
R="$ROOT/tests/fixtures/real/ncu-h200-pytorch"
S="$T/pytorch-ncu-20261201-021121"

mkdir -p "$S/ncu-time/1" "$S/ncu-basic/1"
gzip -dc "$ROOT/docs/validation/h200-pytorch/summary.json.gz" >"$S/summary.json"
cp "$ROOT/configs/examples/pytorch-ncu.yaml" "$S/plan.yaml"
cp "$R/time-raw.csv" "$S/ncu-time/1/ncu.csv"
cp "$R/basic-raw.csv" "$S/ncu-basic/1/ncu.csv"

expect_exit 0 "$HPRUN" report "$S" --format json
cp "$T/out" "$T/summary.json"
expect_exit 0 "$HPRUN" report "$S" --markdown "$T/report.md"
js=$(wc -c <"$T/summary.json")
ms=$(wc -c <"$T/report.md")
[ "$js" -le 204800 ] || fail "summary.json is $js bytes, over 200 KB"
[ "$ms" -le 61440 ] || fail "report.md is $ms bytes, over 60 KB"
ok "H200 PyTorch session: summary.json $js bytes, report.md $ms bytes"

# The facts, from the CSVs and the stored commands, by python3's csv module.
cat >"$T/check.py" <<'PY'
import csv, json, shlex, sys

summary, fixtures, top = sys.argv[1], sys.argv[2], int(sys.argv[3])
d = json.load(open(summary))
CONST = ("device__", "c2clink__", "nvlink__", "numa__", "pci__", "launch__", "profiler__",
         "sm__maximum_", "smsp__maximum_")

def header_and_kernels(path):
    rows = csv.reader(open(path, newline=""))
    for h in rows:
        if h and h[0] == "ID":
            break
    next(rows)  # the units row
    k = h.index("Kernel Name")
    return h, {r[k] for r in rows if len(r) > k}

def asked(command):
    w = shlex.split(command)
    i = next(i for i, x in enumerate(w) if x.rsplit("/", 1)[-1] == "ncu")
    opts = w[i + 1:w.index("--log-file")]
    if "--set" in opts or "--section" in opts:
        return None
    return opts[opts.index("--metrics") + 1].split(",")

files = {"ncu-time": "time-raw.csv", "ncu-basic": "basic-raw.csv"}
for p in d["passes"]:
    if p["name"] not in files:
        continue
    prof = p["profile"]
    header, kernels = header_and_kernels(fixtures + "/" + files[p["name"]])
    want = asked(p["runs"][1]["command"])
    assert prof["counts"]["kernels"] == len(kernels), (p["name"], prof["counts"], len(kernels))
    assert prof["counts"]["ncu"] == len(kernels)
    n = min(top, len(kernels))
    assert len(prof["kernels"]) == n, (p["name"], len(prof["kernels"]), n)
    assert len(prof["ncu"]) == n, (p["name"], len(prof["ncu"]), n)
    names = {m["name"] for k in prof["ncu"] for m in k["metrics"]}
    if want is not None:
        assert names == set(want), (p["name"], names, want)
    else:
        assert names and all(x in header and not x.startswith(CONST) for x in names), names
    # Constants: the device block and the launch block hold them, each name once.
    for key in ("ncu_device", "ncu_launch"):
        block = [x["name"] for x in prof[key]]
        assert len(block) == len(set(block)) and all(x.startswith(CONST) for x in block), key
    print(p["name"], len(prof["kernels"]), sorted(names)[:3])
PY

"$PY" "$T/check.py" "$T/summary.json" "$R" 20 >"$T/facts" || fail "summary.json: see above"
ok "requested metrics only, 20 kernels, constants once: $(tr '\n' ';' <"$T/facts")"

# report.md: the time pass's ncu tables name no metric but the one asked for.
"$PY" - "$T/report.md" <<'PY' || fail "report.md shows a metric the time pass did not ask for"
import re, sys
md = open(sys.argv[1]).read()
time = md.split("## Profiler output: ncu-time", 1)[1].split("## Profiler output:", 1)[0]
tables = [t for t in time.split("\n### ") if t.startswith("metrics\n")]
rows = [r for t in tables for r in re.findall(r"^\| `([^`]*)` \|", t, re.M)]
assert tables and set(rows) == {"gpu__time_duration.sum"}, rows
PY
ok "report.md: the time pass shows gpu__time_duration.sum alone"

# Top-N from the plan copy (report: {top: 7}) and from `hprun report --top 3`, which wins.
printf 'report: {top: 7}\n' >>"$S/plan.yaml"
expect_exit 0 "$HPRUN" report "$S" --format json
cp "$T/out" "$T/top7.json"
"$PY" "$T/check.py" "$T/top7.json" "$R" 7 >/dev/null || fail "report.top: 7"
expect_exit 0 "$HPRUN" report "$S" --top 3 --format json
cp "$T/out" "$T/top3.json"
"$PY" "$T/check.py" "$T/top3.json" "$R" 3 >/dev/null || fail "--top 3"
expect_exit 0 "$HPRUN" report "$S" --top 3 --format md
"$PY" - "$T/out" <<'PY' || fail "report.md --top 3: the kernel tables do not have 3 rows"
import sys
md = open(sys.argv[1]).read()
for part in md.split("## Profiler output: ")[1:]:
    table = part.split("### Kernel summary\n\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert len(table) == 2 + 3, table  # header, separator, 3 rows
PY
ok "top-N: plan report.top 7, --top 3 in summary.json and report.md"
expect_exit 2 "$HPRUN" report "$S" --top 0
grep -q "\-\-top needs a whole number from 1 to 1000" "$T/err" || fail "--top 0 message"

# hprun summarize --metrics on the CSV alone, and without it every measured metric.
expect_exit 0 "$HPRUN" summarize --format json --metrics gpu__time_duration.sum "$R/basic-raw.csv"
assert_eq "$(json_get "$T/out" "sorted({m['name'] for k in d['ncu'] for m in k['metrics']})")" \
  "['gpu__time_duration.sum']" "summarize --metrics"
expect_exit 0 "$HPRUN" summarize --format json --top 1 "$R/basic-raw.csv"
n=$("$PY" - "$R/basic-raw.csv" <<'PY'
import csv, sys
rows = csv.reader(open(sys.argv[1], newline=""))
h = next(r for r in rows if r and r[0] == "ID")
ident = {"ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream",
         "Block Size", "Grid Size", "Device", "CC"}
const = ("device__", "c2clink__", "nvlink__", "numa__", "pci__", "launch__", "profiler__",
         "sm__maximum_", "smsp__maximum_")
print(sum(1 for x in h if x not in ident and not x.startswith(const)))
PY
)
assert_eq "$(json_get "$T/out" "len(d['ncu'][0]['metrics'])")" "$n" "summarize: every measured metric"
ok "summarize --metrics: 1 metric; without it all $n measured ones"

# An ncu --set full capture (about 1,950 metrics a kernel): the terminal shows the first 40 of
# each kernel, gpu__time_duration.sum first, and says how many more there are; 40 + that count is
# one of the kernels' counts of columns python3 finds measured (a number in some row of the
# kernel; not an identity or a constant column).
F="$R/full-raw.csv"
expect_exit 0 "$HPRUN" summarize "$F"
[ "$(wc -c <"$T/out")" -le 65536 ] || fail "summarize of --set full: $(wc -c <"$T/out") bytes of text"
n=$("$PY" - "$F" <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1], newline="")) if r]
i = next(k for k, r in enumerate(rows) if r[0] == "ID")
h, data = rows[i], rows[i + 2:]
ident = {"ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream",
         "Block Size", "Grid Size", "Device", "CC"}
const = ("device__", "c2clink__", "nvlink__", "numa__", "pci__", "launch__", "profiler__",
         "sm__maximum_", "smsp__maximum_")
def num(v):
    try:
        x = float(v.replace(",", ""))
        return x == x
    except ValueError:
        return False
k = h.index("Kernel Name")
names = {r[k] for r in data}
print(",".join(sorted({str(sum(1 for c, x in enumerate(h) if x not in ident
                               and not x.startswith(const)
                               and any(num(r[c]) for r in data if r[k] == name)))
                      for name in names})))
PY
)
"$PY" - "$T/out" "$n" <<'PY' || fail "summarize of --set full: the per-kernel metric tables"
import sys
text, counts = open(sys.argv[1]).read(), {int(x) for x in sys.argv[2].split(",")}
parts = text.split("\n[metrics]\n")[1:]
assert len(parts) == 10, len(parts)  # the top 10 kernels
for p in parts:
    lines = p.split("\n\n", 1)[0].splitlines()
    lines = lines[:next(i for i, l in enumerate(lines) if " more metrics" in l) + 1]
    assert lines[1].startswith("gpu__time_duration.sum "), lines[1]
    assert len(lines) == 1 + 40 + 1, len(lines)  # header, 40 metrics, the note
    more = int(lines[-1].split()[0][1:])
    assert more + 40 in counts and lines[-1] == "(%d more metrics; --top 0 or --format csv " \
        "shows all)" % more, (counts, lines[-1])
PY
ok "summarize of an ncu --set full capture: 40 of ($n) metrics a kernel, $(wc -c <"$T/out") bytes"
