# One large file read as several ranges (docs/internals/merge.md, "One large file"): a PMC CSV and
# a rocprofv3 kernel trace are split into ranges of HPRUN_CHUNK_BYTES bytes (a test hook: the real
# ranges are 32 MiB). The output must be the same bytes with -j 1, 2 and 8, the same as one pass
# where the sums are whole numbers, and the numbers must be what Python computes on its own, with
# a dispatch replayed across a range boundary and a quoted newline at one. The knob exists only in
# build/hprun-test (the Makefile's test-hook build); the shipped build/hprun must ignore it.
. "$(dirname "$0")/lib.sh"
SHIPPED=$HPRUN
HPRUN=$BUILD/hprun-test

R=2048
mkdir "$T/pmc" "$T/v3" "$T/win"
# Rows of 4 kernels, one name holding a newline; dispatches replayed a few rows later (some across
# a boundary); blank lines; rows without a name, with "abc" for a counter and EndNs before BeginNs
# (warnings, more than the 20 shown per file); FRAC is a counter with fractions.
"$PY" - "$T/pmc/pmc_results_1.csv" "$T/v3/run_kernel_trace.csv" "$T/win/pmc_results_1.csv" <<'EOF'
import random, sys
random.seed(12)
names = ['"k_a(float const*, int)"', 'k_b', '"k_c\nsecond line"', '"k ""q"" d"']
hdr = ("Index,KernelName,gpu-id,queue-id,queue-index,pid,tid,grd,wgr,lds,scr,arch_vgpr,"
       "accum_vgpr,sgpr,wave_size,sig,obj,SQ_WAVES,TCC_HIT[0],TCC_HIT[1],FRAC,BeginNs,EndNs")
out, idx, t = [hdr], 0, 5000000000000
for i in range(2500):
    r = random.random()
    if r < 0.03:
        out.append('')
        continue
    if r < 0.05:
        out.append('%d,,0,0,0,1,1,1,1,0,0,8,0,16,64,0x0,0x0,1,1,1,0.5,%d,%d' % (idx, t, t + 5))
        idx += 1
        continue
    if r < 0.07:
        out.append('%d,k_b,0,0,0,1,1,1,1,0,0,8,0,16,64,0x0,0x0,abc,1,1,0.25,%d,%d' % (idx, t, t - 5))
        idx += 1
        continue
    if r < 0.25 and idx > 3:
        d = idx - random.randint(1, 3)
    else:
        d, idx = idx, idx + 1
    dur = random.randint(100, 100000)
    out.append('%d,%s,0,0,%d,1,1,%d,256,0,0,8,0,16,64,0x0,0x0,%d,%d,%d,%s,%d,%d' % (
        d, random.choice(names), i, random.choice([1024, 4096]), random.randint(1, 99),
        random.randint(0, 9), random.randint(0, 9), random.choice(['0.1', '0.2', '0.3', '1e-3']),
        t, t + dur))
    t += dur + 10
open(sys.argv[1], 'w').write('\n'.join(out) + '\n')
# The same rows with one dispatch id that is not a small number: that file is read in one pass.
out[40] = 'x' + out[40]
open(sys.argv[3], 'w').write('\n'.join(out) + '\n')
v3 = ['Kind,Agent_Id,Queue_Id,Kernel_Id,Kernel_Name,Correlation_Id,Start_Timestamp,End_Timestamp']
for i in range(3000):
    dur = random.randint(1, 10**6)
    v3.append('KERNEL_DISPATCH,1,1,%d,%s,%d,%d,%d' % (i % 4, random.choice(names), i, t, t + dur))
    t += dur
open(sys.argv[2], 'w').write('\n'.join(v3) + '\n')
EOF

# The boundaries this file gets: Python finds where each range starts (after the first newline at
# or after k*R-1) and checks the file has what the test is about, so that it cannot pass vacuously.
"$PY" - "$T/pmc/pmc_results_1.csv" "$R" <<'EOF' || fail "the test file does not exercise the splits"
import sys
data, R = open(sys.argv[1], 'rb').read(), int(sys.argv[2])
starts, rec, inq, s = [], [], False, 0
for i, c in enumerate(data):      # record spans, quote-aware
    if c == 0x22:
        inq = not inq
    elif c == 0x0A and not inq:
        rec.append((s, i + 1)); s = i + 1
cuts = sorted(set(data.index(b'\n', k * R - 1) + 1 for k in range(1, len(data) // R + 1)))
inside = [c for c in cuts if any(a < c < b for a, b in rec)]
assert inside, 'no boundary inside a quoted field'
ids = lambda a, b: set(l.split(b',')[0] for l in data[a:b].split(b'\n')[1:-1] if l)
across = [c for c in cuts if ids(c - 300, c) & ids(c, c + 300)]
assert across, 'no dispatch replayed across a boundary'
print(len(cuts), len(inside), len(across))
EOF
ok "the PMC file has $(($(wc -c <"$T/pmc/pmc_results_1.csv") / R + 1)) ranges of $R bytes, quoted newlines and replays across boundaries"

for d in pmc v3 win; do
  split_outputs "$T/$d" "$R"
  for fmt in json text; do
    for j in 2 8; do
      cmp -s "$T/$d.$fmt.1" "$T/$d.$fmt.$j" || fail "$d --format $fmt: -j $j differs from -j 1"
    done
  done
done
ok "pmc, rocprofv3, pmc with a window: json and text the same bytes with -j 1, 2, 8"

# Where every sum is a whole number, the split gives one pass's bytes, messages and their line
# numbers included. In the PMC file only FRAC's sum (and average) may differ, in the last digits.
for d in v3 win; do
  cmp -s "$T/$d.json.whole" "$T/$d.json.1" || fail "$d: ranges differ from one pass"
  cmp -s "$T/$d.text.whole" "$T/$d.text.1" || fail "$d: ranges differ from one pass (text)"
done
"$PY" - "$T/pmc.json.whole" "$T/pmc.json.1" <<'EOF' || fail "pmc: ranges differ from one pass"
import json, sys
def load(p):
    t = open(p).read()
    j, end = json.JSONDecoder().raw_decode(t)
    for k in j['pmc']:
        for c in k['counters']:
            if c['name'] == 'FRAC':
                c['sum'], c['avg'] = round(c['sum'], 9), round(c['avg'], 9)
    return j, t[end:]
assert load(sys.argv[1]) == load(sys.argv[2])
# The ranges were really used (HPRUN_CHUNK_BYTES read): some FRAC sum differs from one pass's.
frac = lambda p: [c['sum'] for k in json.JSONDecoder().raw_decode(open(p).read())[0]['pmc']
                  for c in k['counters'] if c['name'] == 'FRAC']
assert frac(sys.argv[1]) != frac(sys.argv[2]), 'the file was read in one pass'
EOF
ok "rocprofv3 and pmc: the same output and messages as one pass"

# The shipped binary has no test hooks: with the knob set it still reads the PMC file in one pass
# (the ranges' FRAC sums differ from one pass's, above).
expect_exit 0 env HPRUN_CHUNK_BYTES=$R "$SHIPPED" summarize -j 2 --format json --top 0 "$T/pmc"
cat "$T/out" "$T/err" | cmp -s - "$T/pmc.json.whole" || fail "build/hprun read HPRUN_CHUNK_BYTES"
ok "build/hprun ignores HPRUN_CHUNK_BYTES"

# The numbers, from Python's own reading of the CSV.
expect_exit 0 env HPRUN_CHUNK_BYTES=$R "$HPRUN" summarize -j 2 --format json "$T/pmc"
"$PY" - "$T/out" "$T/pmc/pmc_results_1.csv" "$T/err" <<'EOF' || fail "pmc numbers"
import csv, json, math, re, sys
d = {k['kernel']: k for k in json.load(open(sys.argv[1]))['pmc']}
warn, seen, exp = [], set(), {}
rd = csv.reader(open(sys.argv[2], newline=''))
next(rd)
for r in rd:
    if not r:
        continue
    at = rd.line_num - sum(f.count('\n') for f in r)  # the physical line the record starts on
    name = r[1].strip()
    if not name:
        warn.append(at)
        continue
    k = exp.setdefault(name, dict(records=0, dispatches=0, t=[], sq=[], tcc=0, tccn=0, frac=[]))
    k['records'] += 1
    if r[0] not in seen:
        seen.add(r[0]); k['dispatches'] += 1
    b, e = int(r[21]), int(r[22])
    if e < b:
        warn.append(at)
    else:
        k['t'].append(e - b)
    if r[17] == 'abc':
        warn.append(at)
    else:
        k['sq'].append(int(r[17]))
    k['tcc'] += int(r[18]) + int(r[19]); k['tccn'] += 1
    k['frac'].append(float(r[20]))
for name, k in exp.items():
    h = d[name]
    c = {x['name']: x for x in h['counters']}
    got = (h['records'], h['dispatches'], h['kernel_time_ns']['n'], h['kernel_time_ns']['total'],
           h['kernel_time_ns']['min'], h['kernel_time_ns']['max'], c['SQ_WAVES']['sum'],
           c['SQ_WAVES']['rows'], c['TCC_HIT']['sum'], c['TCC_HIT']['rows'], c['FRAC']['rows'])
    want = (k['records'], k['dispatches'], len(k['t']), sum(k['t']), min(k['t']), max(k['t']),
            sum(k['sq']), len(k['sq']), k['tcc'], k['tccn'], len(k['frac']))
    assert got == want, (name, got, want)
    f = math.fsum(k['frac'])
    assert abs(c['FRAC']['sum'] - f) <= 1e-12 * f, (name, c['FRAC']['sum'], f)
err = open(sys.argv[3]).read()
lines = [int(m) for m in re.findall(r':(\d+): warning:', err)]
assert lines == warn[:20], (lines, warn[:20])
assert '%d more warnings about this file not shown' % (len(warn) - 20) in err, err[-300:]
EOF
ok "pmc: records, dispatches, times and sums as Python counts them; the first 20 warnings at the right lines"

expect_exit 0 env HPRUN_CHUNK_BYTES=$R "$HPRUN" summarize -j 8 --format json "$T/v3"
"$PY" - "$T/out" "$T/v3/run_kernel_trace.csv" <<'EOF' || fail "rocprofv3 numbers"
import csv, json, sys
d = {k['name']: k for k in json.load(open(sys.argv[1]))['kernels']}
dur = {}
for r in csv.DictReader(open(sys.argv[2], newline='')):
    dur.setdefault(r['Kernel_Name'], []).append(int(r['End_Timestamp']) - int(r['Start_Timestamp']))
assert set(dur) == set(d), (set(dur), set(d))
for k, v in dur.items():
    h = d[k]
    assert (h['calls'], h['total_ns'], h['min_ns'], h['max_ns']) == (len(v), sum(v), min(v), max(v)), (k, h)
EOF
ok "rocprofv3: calls, total, min and max of every kernel as Python counts them"
