# hprun summarize -j N reads one file per thread and merges the files in their order
# (docs/internals/merge.md): the output must be the same bytes for every N, and the merged numbers
# must be what Python computes from the same files on its own.
. "$(dirname "$0")/lib.sh"
F="$(cd "$(dirname "$0")/../fixtures" && pwd)"

# Every real and synthetic fixture at once (about 150 files of every format), in every format:
# stdout and stderr byte for byte the same with 1, 2 and 8 threads.
for fmt in json csv text md; do
  for j in 1 2 8; do
    expect_exit 0 "$HPRUN" summarize -j "$j" --format "$fmt" --top 0 "$F/real" "$F/profile"
    cp "$T/out" "$T/$fmt.$j"
    cp "$T/err" "$T/$fmt.$j.err"
  done
  one=$(cat "$T/$fmt.1" "$T/$fmt.1.err" | sha256sum)
  for j in 2 8; do
    assert_eq "$(cat "$T/$fmt.$j" "$T/$fmt.$j.err" | sha256sum)" "$one" "--format $fmt -j $j vs -j 1"
  done
done
[ "$(wc -c <"$T/json.1")" -gt 1000000 ] || fail "the fixtures' summary is suspiciously small"
ok "json, csv, text, md: the same sha256 with -j 1, 2, 8"

# ncu metric sums over the H200 roofline folder's 8 files (kernels launched in several of them):
# each sum is the exactly rounded sum (math.fsum) of the values Python reads from the raw CSVs.
expect_exit 0 "$HPRUN" summarize -j 8 --format csv --top 0 "$F/real/h200-roofline"
"$PY" - "$T/out" "$F/real/h200-roofline" >"$T/ncu" <<'EOF' || { cat "$T/ncu"; fail "ncu sums"; }
import csv, math, os, sys
vals = {}
for d, ds, fs in os.walk(sys.argv[2]):
    for f in fs:
        if not f.endswith('.csv'):
            continue
        rows = list(csv.reader(l for l in open(os.path.join(d, f)) if l.startswith('"')))
        if not rows or rows[0][:1] != ['ID']:
            continue
        hdr, units = rows[0], rows[1]
        k = hdr.index('Kernel Name')
        for r in rows[2:]:
            for i, v in enumerate(r):
                try:
                    x = float(v.replace(',', ''))
                except ValueError:
                    continue
                vals.setdefault((r[k], hdr[i], units[i]), []).append(x)
out = list(csv.reader(open(sys.argv[1])))
start = out.index(['kernel', 'metric', 'unit', 'sum', 'avg', 'count'])
n = multi = 0
for r in out[start + 1:]:
    if len(r) != 6:
        break
    v = vals[(r[0], r[1], r[2])]
    if float(r[3]) != math.fsum(v) or int(r[5]) != len(v):
        sys.exit('%s %s: hprun %s, python %r (%d values)' % (r[0], r[1], r[3], math.fsum(v), len(v)))
    n += 1
    multi += len(v) > 1
print(n, multi)
EOF
set -- $(cat "$T/ncu")
[ "$1" -gt 400 ] && [ "$2" -gt 400 ] || fail "ncu sums: only $1 rows ($2 summed) were checked"
ok "ncu: $1 metric sums over 8 files equal math.fsum of the CSV values"

# 24 copies of a rocprofv3 kernel trace: calls and total time are 24 times what Python counts in
# the file; min and max stay the file's.
mkdir "$T/many"
src="$F/real/rocprofv3/jacobi-omp/trace/XXXXX_kernel_trace.csv"
for i in 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24; do
  cp "$src" "$T/many/run$i"_kernel_trace.csv
done
for j in 1 3; do
  expect_exit 0 "$HPRUN" summarize --jobs "$j" --format json "$T/many"
  "$PY" - "$T/out" "$src" <<'EOF' || fail "24 kernel traces with --jobs $j"
import csv, json, sys
d = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2])))
for k in set(r['Kernel_Name'] for r in rows):
    dur = [int(r['End_Timestamp']) - int(r['Start_Timestamp']) for r in rows if r['Kernel_Name'] == k]
    h = [x for x in d['kernels'] if x['name'] == k][0]
    assert (h['calls'], h['total_ns']) == (24 * len(dur), 24 * sum(dur)), (k, h, dur)
    assert (h['min_ns'], h['max_ns']) == (min(dur), max(dur)), (k, h, dur)
assert len(d['files']) == 24
EOF
done
ok "24 kernel traces: calls and time 24 times Python's, with --jobs 1 and 3"

# Kernel stacks across files: a kernel launched once from f1 (file a, its row 4) and once from f2
# (file b, its row 1) is a tie, and ties go to the earliest launch over both files: file a's. One
# pass counted rows across files; the merge shifts file b's rows behind file a's, so it still is.
mkdir "$T/stk"
{
  echo 'str_name,index,stack_sq,addrname'
  echo 'J,0,0,app(j0+0x1)'
  echo 'J,0,1,app(main+0x2)'
  echo 'J,0,2,app(main+0x3)'
  echo 'K,0,0,app(f1+0x1)'
} >"$T/stk/a.stack.csv"
{
  echo 'str_name,index,stack_sq,addrname'
  echo 'K,0,0,app(f2+0x1)'
} >"$T/stk/b.stack.csv"
for j in 1 2; do
  expect_exit 0 "$HPRUN" summarize -j "$j" --format json "$T/stk"
  assert_eq "$(json_get "$T/out" "[(s['kernel'], s['launches'], s['user_frame']) for s in d['stacks']]")" \
    "[('K', 2, 'app(f1+0x1)'), ('J', 1, 'app(j0+0x1)')]" "stack origins across files, -j $j"
done
ok "kernel stacks: a tie across files goes to the earlier file's launch"

# Distinct resource values: the 16 smallest are kept with their row counts, whatever the order of
# rows and files. Grid size 1000 in 5 dispatches, then 1..16 once each: 1000 is kept until the 16th
# smaller value evicts it, and its 5 rows become "other values" (a fast path that skipped counting
# repeats of the first value once gave 1 here). The same rows split over two files give the same.
pmc_rows() { # FIRST_INDEX GRID...
  i=$1
  shift
  echo "Index,KernelName,gpu-id,queue-id,queue-index,pid,tid,grd,wgr,lds,scr,arch_vgpr,accum_vgpr,sgpr,wave_size,sig,obj,SQ_WAVES,BeginNs,EndNs"
  for g in "$@"; do
    echo "$i,k,0,0,$i,1,1,$g,256,0,0,8,0,16,64,0x0,0x1,16,$((i * 100)),$((i * 100 + 50))"
    i=$((i + 1))
  done
}
mkdir -p "$T/vals1" "$T/vals2/a" "$T/vals2/b"
pmc_rows 0 1000 1000 1000 1000 1000 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 >"$T/vals1/pmc_results_1.csv"
pmc_rows 0 1000 1000 1000 1000 1000 >"$T/vals2/a/pmc_results_1.csv"
pmc_rows 5 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 >"$T/vals2/b/pmc_results_2.csv"
for d in vals1 vals2; do
  for j in 1 2; do
    expect_exit 0 "$HPRUN" summarize -j "$j" --format json "$T/$d"
    assert_eq "$(json_get "$T/out" "(d['pmc'][0]['records'], d['pmc'][0]['grid_size'])")" \
      "(21, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16])" "$d -j $j: grid sizes"
    expect_exit 0 "$HPRUN" summarize -j "$j" --format csv "$T/$d"
    grep -q '^k,21,21,"1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,... (5 rows with other values)",256,' \
      "$T/out" || fail "$d -j $j: 5 rows with other values"
  done
done
ok "distinct values: the 16 smallest and 5 other rows, from one file or two, -j 1 and 2"

# Bad values of -j are usage errors (exit 2) that name the option.
for bad in 0 -1 x 1025 ""; do
  expect_exit 2 "$HPRUN" summarize -j "$bad" "$src"
  grep -q "jobs" "$T/err" || fail "-j '$bad': the message does not name --jobs"
done
expect_exit 2 "$HPRUN" summarize "$src" -j
ok "-j 0, -1, x, 1025, empty and a missing value: exit 2"

# Messages come in file order whatever -j is, with the caps of one pass: 50 files with 25 bad rows
# each give 20 warnings and a note apiece (21 x 50 = 1,050); 1,000 are shown, in file order, then
# "50 more messages not shown". A PATH that does not exist is reported first, and exit is 4.
mkdir "$T/warn"
n=10
while [ "$n" -lt 60 ]; do
  {
    head -2 "$src"
    k=0
    while [ "$k" -lt 25 ]; do
      echo '"KERNEL_DISPATCH",4,1,2,"k",1,abc,5329321973322123,0,4360,256,1,1,233472,1,1'
      k=$((k + 1))
    done
  } >"$T/warn/r${n}_kernel_trace.csv"
  n=$((n + 1))
done
for j in 1 2 8; do
  expect_exit 4 "$HPRUN" summarize -j "$j" --format csv "$T/warn" "$T/nonexistent"
  cp "$T/err" "$T/warn.$j"
done
for j in 2 8; do
  cmp -s "$T/warn.1" "$T/warn.$j" || fail "messages differ between -j 1 and -j $j"
done
"$PY" - "$T/warn.1" <<'EOF2' || fail "message order and caps"
import re, sys
lines = open(sys.argv[1]).read().splitlines()
assert lines[0].endswith('nonexistent: no such file or folder'), lines[0]
assert lines[-1] == 'hprun: note: 50 more messages not shown', lines[-1]
files = [re.search(r'/r(\d\d)_kernel_trace', l).group(1) for l in lines[1:-1]]
assert len(files) == 1000 and files == sorted(files), len(files)
# 1,000 = 47 files x 21 + 13: files 10..56 complete, file 57 with 13 warnings.
assert files.count('10') == 21 and files.count('56') == 21 and files.count('57') == 13
assert files[-1] == '57'
EOF2
ok "1,050 messages from 50 files: the first 1,000 in file order with -j 1, 2, 8"
