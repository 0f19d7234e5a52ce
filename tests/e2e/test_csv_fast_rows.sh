# The CSV fast path (docs/internals/csv.md, "Raw lines for fast paths") must not change a result:
# PMC, kernel-stack and rocprofv3 trace files whose plain rows are mixed with rows the fast path
# leaves to the full reader (quoted numbers, doubled quotes, CRLF, blank lines, decimals, 17 to 20
# digits, empty and short rows) give the counts and sums Python's csv module computes from the
# same files.
. "$(dirname "$0")/lib.sh"

# --- hipprof PMC: counters, dispatches, kernel time -------------------------------------------
"$PY" - "$T/pmc_results_1.csv" <<'EOF'
import random, sys
random.seed(7)
hdr = ("Index,KernelName,gpu-id,queue-id,queue-index,pid,tid,grd,wgr,lds,scr,arch_vgpr,accum_vgpr,"
       "sgpr,wave_size,sig,obj,SQ_WAVES,TCC_HIT[0],TCC_HIT[1],BeginNs,EndNs")
names = ['"k_a(float const*, int)"', '"k_""b"""', 'plain_c']
out = [hdr + "\n"]
for i in range(3000):
    idx = i // 2  # every dispatch replayed twice
    name = names[(i // 40) % 3]
    waves = random.choice(["16384", '"16384"', "1.5", "", "12345678901234567", "7"])
    hit0 = str(random.randrange(0, 10 ** random.randrange(1, 10)))
    hit1 = random.choice([str(random.randrange(100)), "99999999999999999999", '" 5"'])
    b = 5000000000000 + i * 2000
    e = b + random.randrange(1, 1500)
    row = [str(idx), name, "0", "0", str(idx), "1", "1", "1048576", "256", "0", "0", "8", "0",
           "16", "64", "0x0", "0x7f", waves, hit0, hit1, str(b), str(e)]
    line = ",".join(row)
    if i % 97 == 0:
        line = ",".join(row[:-3])  # a short row
    out.append(line + ("\r\n" if i % 5 == 0 else "\n"))
    if i % 333 == 0:
        out.append("\n")
open(sys.argv[1], "w", newline="").write("".join(out))
EOF
"$PY" - "$T/pmc_results_1.csv" >"$T/pmc.want" <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
hdr, rows = rows[0], [r for r in rows[1:] if r]
col = {h: i for i, h in enumerate(hdr)}
k = {}
def num(s):
    s = s.strip()
    return float(s) if s else None
for r in rows:
    r = r + [""] * (len(hdr) - len(r))
    name = r[1].strip()
    e = k.setdefault(name, {"records": 0, "ids": set(), "sums": {}, "rows": {}, "t": 0})
    e["records"] += 1
    e["ids"].add(r[0])
    for c in ("SQ_WAVES", "TCC_HIT"):
        vals = [num(r[i]) for i, h in enumerate(hdr) if h.split("[")[0] == c]
        vals = [v for v in vals if v is not None]
        if vals:
            e["sums"][c] = e["sums"].get(c, 0.0)
            for v in vals:
                e["sums"][c] += v
            e["rows"][c] = e["rows"].get(c, 0) + 1
    if r[col["BeginNs"]] and r[col["EndNs"]]:
        e["t"] += int(r[col["EndNs"]]) - int(r[col["BeginNs"]])
for name in sorted(k):
    e = k[name]
    print(name, e["records"], len(e["ids"]), e["t"],
          [(c, repr(e["sums"][c]), e["rows"][c]) for c in sorted(e["sums"])])
EOF
expect_exit 0 "$HPRUN" summarize --format json "$T/pmc_results_1.csv"
"$PY" - "$T/out" >"$T/pmc.got" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for k in sorted(d["pmc"], key=lambda k: k["kernel"]):
    print(k["kernel"], k["records"], k["dispatches"], int(k["kernel_time_ns"]["total"]),
          [(c["name"], repr(float(c["sum"])), c["rows"]) for c in sorted(k["counters"], key=lambda c: c["name"])])
EOF
[ "$(wc -l <"$T/pmc.want")" = 3 ] || fail "expected three PMC kernels"
diff "$T/pmc.want" "$T/pmc.got" || fail "PMC counts and sums differ from Python's csv module"
grep -q "row has 19 fields, the header has 22" "$T/err" || fail "short PMC row not reported"
ok "PMC: mixed rows as Python reads them"

# --- rocprofv3 kernel trace: calls and total per kernel ----------------------------------------
"$PY" - "$T/run_kernel_trace.csv" <<'EOF'
import sys
out = ['"Kind","Dispatch_Id","Kernel_Name","Start_Timestamp","End_Timestamp","Grid_Size_X"\n']
for i in range(2000):
    name = ['"vector_add(float const*, int)"', '"a ""quoted"" name"', '"plain"'][i % 3]
    b = 1745000000000000000 + i * 50000
    e = b + 1000 + i % 77
    bs = '"%d"' % b if i % 11 == 0 else str(b)
    out.append('"KERNEL_DISPATCH",%d,%s,%s,%d,1048576%s' % (i, name, bs, e, "\r\n" if i % 4 == 0 else "\n"))
open(sys.argv[1], "w", newline="").write("".join(out))
EOF
expected=$("$PY" -c "
import csv,sys
rows=list(csv.DictReader(open(sys.argv[1],newline='')))
k={}
for r in rows:
    c=k.setdefault(r['Kernel_Name'],[0,0]); c[0]+=1; c[1]+=int(r['End_Timestamp'])-int(r['Start_Timestamp'])
print(sorted((n,c,t) for n,(c,t) in k.items()))" "$T/run_kernel_trace.csv")
expect_exit 0 "$HPRUN" summarize --format json "$T/run_kernel_trace.csv"
assert_eq "$(json_get "$T/out" "sorted((k['name'],k['calls'],int(k['total_ns'])) for k in d['kernels'])")" \
  "$expected" "rocprofv3 trace calls and totals"
ok "rocprofv3 trace: mixed rows as Python reads them"

# --- kernel-stack: launches per kernel -----------------------------------------------------------
"$PY" - "$T/result_1.stack.csv" <<'EOF'
import sys
out = ["str_name,index,stack_sq,addrname\n"]
for launch in range(600):
    name = ['"void k<int, 2>(float*)"', '"k ""q"""', 'plain'][launch % 3]
    for sq in range(4):
        idx = '"%d"' % launch if launch % 7 == 0 else str(launch)
        frame = ['"/opt/dtk/lib/libgalaxyhip.so.5(hipLaunchKernel+0x4c) [0x7f01]"',
                 '"/home/u/app(main+0x1%d) [0x5%d]"' % (launch % 3, sq), '"python(f+0x1)"',
                 '"libc.so.6(+0x2)"'][sq]
        out.append("%s,%s,%d,%s%s" % (name, idx, sq, frame, "\r\n" if sq == 2 else "\n"))
open(sys.argv[1], "w", newline="").write("".join(out))
EOF
expected=$("$PY" -c "
import csv,sys
rows=list(csv.DictReader(open(sys.argv[1],newline='')))
k={}
for r in rows:
    k.setdefault(r['str_name'],set()).add(r['index'])
print(sorted((n,len(s)) for n,s in k.items()))" "$T/result_1.stack.csv")
expect_exit 0 "$HPRUN" summarize --format json "$T/result_1.stack.csv"
assert_eq "$(json_get "$T/out" "sorted((k['kernel'],k['launches']) for k in d['stacks'])")" \
  "$expected" "kernel-stack launches per kernel"
ok "kernel-stack: mixed rows as Python reads them"
