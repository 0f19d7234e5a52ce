# One large ncu raw-page CSV read as several ranges (docs/internals/merge.md, "One large file",
# lib/profile/fast/ncu_range.c), with ranges of HPRUN_CHUNK_BYTES bytes (a knob for tests: the real
# ranges are 32 MiB). The file has ==PROF== lines and program output between its rows, a header
# printed again mid-file (another process, its columns in another order), a kernel first launched
# in a later range, a block size that varies, rows with a bad ID (more than the 20 warnings shown)
# and a kernel name holding a newline. The output must be the same bytes with -j 1, 2 and 8, the
# same messages and exit status as one pass, and the numbers what Python computes on its own.
. "$(dirname "$0")/lib.sh"

R=700
mkdir "$T/a" "$T/b"
"$PY" - "$T/a/ncu.csv" "$T/b/ncu.csv" "$T/want.json" <<'EOF'
import json, random, sys
random.seed(7)
q = lambda fs: ','.join('"%s"' % f for f in fs)
hdr1 = ['ID', 'Process ID', 'Process Name', 'Host Name', 'Kernel Name', 'Block Size', 'Grid Size',
        'gpu__time_duration.sum', 'dram__bytes.sum', 'sm__throughput.avg.pct_of_peak']
units1 = ['', '', '', '', '', '', '', 'nsecond', 'byte', '%']
# The second process's header: the two metrics swapped.
hdr2 = hdr1[:8] + [hdr1[9], hdr1[8]]
units2 = units1[:8] + [units1[9], units1[8]]
lines = ['==PROF== Connected to process 11 (/app)', 'the program says hello',
         q(hdr1), q(units1)]
want, warn, other, dups = {}, [], [], []   # other: lines that are not CSV (not ==PROF==)
def launch(pid, i, name, order):
    blk = '(128, 1, 1)' if name == 'k_b' and i > 200 else '(256, 1, 1)'
    dur = random.randint(1000, 99999)
    dram = random.randint(0, 10**7)
    pct = random.choice(['12.5', '0.1', '33.33', '7.77'])
    vals = {'dur': dur, 'dram': dram, 'pct': pct}
    dram_s = '{:,}'.format(dram) if i % 7 == 0 else str(dram)
    row = [str(i), str(pid), 'app', 'host', name, blk, '(64, 1, 1)', str(dur)] + \
          ([dram_s, pct] if order == 1 else [pct, dram_s])
    k = want.setdefault(name, dict(launches=0, block=blk, bvar=False, dur=[], dram=[], pct=[]))
    k['launches'] += 1
    k['bvar'] |= blk != k['block']
    k['dur'].append(dur); k['dram'].append(dram); k['pct'].append(float(pct))
    return q(row)
def rows(pid, n, order):
    for i in range(n):
        r = random.random()
        if r < 0.03:
            lines.append('==PROF== Profiling "k" - %d: 0%%....50%%....100%% - 9 passes' % i)
        elif r < 0.05:
            lines.append('program output %d' % i); other.append(len(lines))
        if i % 23 == 5:
            lines.append(q(['x%d' % i, str(pid), 'app', 'host', 'k_a', '(1, 1, 1)', '(1, 1, 1)',
                            '1', '1', '1'])); warn.append(len(lines))
        names = ['k_a', 'k_b', '"k_nl\nsecond"'[1:-1]] + (['k_late'] if i > 300 else [])
        lines.append(launch(pid, i, random.choice(names), order))
rows(11, 420, 1)
lines += ['==PROF== Disconnected from process 11', '==PROF== Connected to process 12 (/app)',
          q(hdr2), q(units2)]
rows(12, 150, 2)
text = '\n'.join(lines) + '\n'
open(sys.argv[1], 'w').write(text)
# The same file with a few launches printed twice, a row or two apart (some across cuts): one
# pass counts each once, and so must the split (it reads such a file whole).
out, n = [], 0
for l in lines:
    out.append(l)
    if l.startswith('"') and not l.startswith('"ID"') and not l.startswith('""') and \
            not l.startswith('"x') and '\n' not in l and random.random() < 0.02:
        out.append(l); n += 1
open(sys.argv[2], 'w').write('\n'.join(out) + '\n')
for k in want.values():
    k['dur_sum'] = sum(k['dur']); k['dram_sum'] = sum(k['dram']); k['n'] = len(k['dur'])
    k['pct_sum'] = __import__('math').fsum(k['pct'])
    del k['dur'], k['dram'], k['pct']
# A kernel name's newline moves the lines after it: the line of a row is where its record starts.
json.dump(dict(kernels=want, warn=warn, other=other, dups=n,
               late_at=text.index('k_late')), open(sys.argv[3], 'w'))
EOF
[ $? -eq 0 ] || fail "cannot write the test files"

# The file must exercise what the test is about: many ranges, a kernel first seen past the first,
# the second header in a later range than the first.
"$PY" - "$T/a/ncu.csv" "$R" "$T/want.json" <<'EOF' || fail "the test file does not exercise the splits"
import json, sys
data, R, w = open(sys.argv[1], 'rb').read(), int(sys.argv[2]), json.load(open(sys.argv[3]))
assert len(data) // R > 50, len(data)
assert w['late_at'] > 5 * R and data.rindex(b'"ID"') > 5 * R
assert w['dups'] > 3 and len(w['warn']) > 20 and w['other']
EOF
ok "the ncu file has $(($(wc -c <"$T/a/ncu.csv") / R + 1)) ranges of $R bytes"

for d in a b; do
  split_outputs "$T/$d" "$R"
  for fmt in json text; do
    for j in 2 8; do
      cmp -s "$T/$d.$fmt.1" "$T/$d.$fmt.$j" || fail "$d --format $fmt: -j $j differs from -j 1"
    done
  done
done
ok "ncu: json and text the same bytes with -j 1, 2, 8"

# Launches printed twice make the file be read whole: one pass's bytes exactly.
cmp -s "$T/b.json.whole" "$T/b.json.1" && cmp -s "$T/b.text.whole" "$T/b.text.1" ||
  fail "ncu with repeated launches: ranges differ from one pass"
# The split file: one pass's output and messages, but for the fractional metric's sums and
# averages (compensated across ranges), in the last digits.
"$PY" - "$T/a.json.whole" "$T/a.json.1" <<'EOF' || fail "ncu: ranges differ from one pass"
import json, sys
def load(p):
    t = open(p).read()
    j, end = json.JSONDecoder().raw_decode(t)
    for k in j['ncu']:
        for m in k['metrics']:
            m['sum'], m['avg'] = round(m['sum'], 9), round(m['avg'], 9)
    return j, t[end:]
assert load(sys.argv[1]) == load(sys.argv[2])
# The ranges were really used: some sum differs from one pass's in the last digits.
sums = lambda p: [m['sum'] for k in json.JSONDecoder().raw_decode(open(p).read())[0]['ncu']
                  for m in k['metrics']]
assert sums(sys.argv[1]) != sums(sys.argv[2]), 'the file was read in one pass'
EOF
ok "ncu: the same output and messages as one pass (the file with repeated launches: the same bytes)"

# The numbers, from what Python wrote.
for d in a b; do
  expect_exit 0 env HPRUN_CHUNK_BYTES=$R "$HPRUN" summarize -j 2 --format json "$T/$d"
  "$PY" - "$T/out" "$T/want.json" "$T/err" "$T/$d/ncu.csv" <<'EOF' || fail "ncu numbers ($d)"
import json, re, sys
got = {k['kernel']: k for k in json.load(open(sys.argv[1]))['ncu']}
kt = {k['name']: k for k in json.load(open(sys.argv[1]))['kernels']}
w = json.load(open(sys.argv[2]))
assert list(got) == sorted(w['kernels'], key=lambda n: -w['kernels'][n]['dur_sum']) or \
    set(got) == set(w['kernels']), (list(got), list(w['kernels']))
for name, k in w['kernels'].items():
    g = got[name]
    m = {x['name']: x for x in g['metrics']}
    have = (g['launches'], g['block_size'], g['block_size_varies'], m['dram__bytes.sum']['sum'],
            m['dram__bytes.sum']['count'], m['gpu__time_duration.sum']['sum'], kt[name]['calls'],
            kt[name]['total_ns'])
    exp = (k['launches'], k['block'], k['bvar'], k['dram_sum'], k['n'], k['dur_sum'], k['n'],
           k['dur_sum'])
    assert have == exp, (name, have, exp)
    s = m['sm__throughput.avg.pct_of_peak']['sum']
    assert abs(s - k['pct_sum']) <= 1e-12 * k['pct_sum'], (name, s, k['pct_sum'])
err = open(sys.argv[3]).read()
if sys.argv[4].endswith('a/ncu.csv'):
    lines = [int(x) for x in re.findall(r':(\d+): warning:', err)]
    # Lines after the kernel name's newline are one further on than the list's index says.
    data = open(sys.argv[4]).read().split('\n')
    wl = [i + 1 for i, l in enumerate(data) if l.startswith('"x')]
    assert lines == wl[:20], (lines, wl[:20])
    assert '%d more warnings about this file not shown' % (len(wl) - 20) in err, err[-300:]
    ol = [i + 1 for i, l in enumerate(data) if l.startswith('program output')]
    assert ':%d: note: %d lines among the ncu rows are not CSV' % (ol[0], len(ol)) in err, err[-400:]
EOF
done
ok "ncu: launches, block sizes, durations and metric sums as Python counts them; the first 20 warnings and the note at the right lines"
