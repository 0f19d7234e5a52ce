# hprun summarize reads hipprof's console tables (HIP API statistics, HIPOPS API statistics) from
# real DTK 26.04 logs (tests/fixtures/real/hipprof/dtk-26.04-console/, sources in the README
# there) when they are the only output, and leaves them alone beside a stats CSV.
. "$(dirname "$0")/lib.sh"
D="$(cd "$(dirname "$0")/../fixtures/real/hipprof/dtk-26.04-console" && pwd)"

# What each log's tables hold, read here with Python from the `|` rows, not by hprun: the rows
# of each table (the Total row left out) and hipprof's own Total.
expected() {
  "$PY" - "$1" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
tables, cur = {}, None
for line in text.split("\n"):
    if line.startswith("HIP_PROF:") and "statistics" in line:
        cur = "kernels" if "HIPOPS" in line else "api"
        tables[cur] = {"rows": [], "total": None}
        continue
    if cur and line.startswith("|"):
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[0] == "Name":
            continue
        if cells[0] == "Total":
            tables[cur]["total"] = int(cells[2])
            continue
        tables[cur]["rows"].append((cells[0], int(cells[1]), int(cells[2])))
for k in ("api", "kernels"):
    t = tables[k]
    assert sum(r[2] for r in t["rows"]) == t["total"], (k, "rows do not add up to hipprof's Total")
    print(k, len(t["rows"]), t["total"], sum(r[1] for r in t["rows"]))
PY
}

for f in hipprof_hip_trace.log hipprof_db_merge.log hipprof_buffer_size.log; do
  expected "$D/$f" >"$T/want"
  expect_exit 0 "$HPRUN" summarize --format json --top 0 "$D/$f"
  "$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("api", "kernels"):
    rows = d[k]
    print(k, len(rows), int(round(sum(r["total_ns"] for r in rows))), sum(r["calls"] for r in rows))
' "$T/out" >"$T/got"
  diff "$T/want" "$T/got" || fail "$f: hprun's tables differ from the log's (want, then got)"
done
ok "the real console logs' API and kernel tables are read whole"

# A name hipprof cut at 59 characters is kept as printed, and the colour codes around the IP in
# the title do not hide the table.
expect_exit 0 "$HPRUN" summarize --format json --top 0 "$D/hipprof_db_merge.log"
grep -q '"vector_add_roctx_kernel(float const\*, float const\*, float\*,\.\.\."' "$T/out" || fail "the cut name is not kept"
ok "cut names and coloured titles"

# Beside a stats CSV that gives the API calls, the log's API table is not counted again.
mkdir -p "$T/run"
cp "$D/hipprof_hip_trace.log" "$T/run/stdout.txt"
printf '"Name","Calls","TotalDurationNs","AverageNs","Percentage"\n"hipMalloc","3","100","33","100.0"\n"Total","3","100","33","100.0"\n' >"$T/run/result_1.hiptrace.csv"
expect_exit 0 "$HPRUN" summarize --format json --top 0 "$T/run"
assert_eq "$(json_get "$T/out" "[ (r['name'], r['total_ns']) for r in d['api'] ]")" "[('hipMalloc', 100)]" "API rows beside a hiptrace CSV"
assert_eq "$(json_get "$T/out" "len(d['kernels'])")" 1 "the log still gives the kernels, which no CSV there has"
ok "console tables only where no stats file gives them"
