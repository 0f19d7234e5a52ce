# One large hipprof kernel-stack CSV read as several ranges (docs/internals/merge.md, "One large
# file", lib/profile/fast/stack_range.c), with ranges of HPRUN_CHUNK_BYTES bytes (a knob for tests: the
# real ranges are 32 MiB). The ranges only read rows; the caller's thread replays the launch window
# with the rows numbered from the file's start. The file has launches whose rows straddle a cut,
# launches whose rows are out of stack_sq order, a launch that comes back more than two windows
# (8192 rows each) after its last row and one that comes back between one and two windows after,
# rows of the wrong width (more than the 20 warnings shown) and a kernel name holding a newline,
# one of them where a plain search for a newline puts a cut. The output must be the same bytes with
# -j 1, 2 and 8 as one pass, and the numbers what Python computes on its own from the window's
# documented rule.
# (With -j 1 a kernel-stack file is read in one pass, ranges or not: scan.c's plan_path; -j 2 and
# 8 read the ranges.)
. "$(dirname "$0")/lib.sh"

R=4000
# s: 12 rows of the wrong width, so the came-back warning is shown; m: 40, so it is among the
# warnings only counted.
mkdir "$T/s" "$T/m"
for d in s m; do
"$PY" - "$T/$d/result_7.stack.csv" "$R" "$T/want.$d.json" "$d" <<'EOF'
import json, random, sys
random.seed(12)
W = 8192
R = int(sys.argv[2])
RT = '/opt/dtk/lib/libgalaxyhip.so.5(hipLaunchKernel+0x4c) [0x7f01]'
user = lambda i: ('/home/u/app/libapp.so(step%d+0x10) [0x55aa]' % i, 'libapp.so(step%d+0x10)' % i)
names = ['k_a', 'k_b', 'k_c', 'k_nl\nsecond']
nextidx = {}
rows = []      # (name, index, sq, raw frame, clean frame or None, full width)
launches = []  # (first, end) of each launch as written, indices into rows
def launch(name, idx=None):
    if idx is None:
        idx = nextidx.get(name, 0)
        nextidx[name] = idx + 1
    fr = []
    for sq in range(random.randint(2, 7)):
        if sq == 0 or random.random() < 0.3:
            fr.append((sq, RT, None))
        else:
            fr.append((sq,) + user(random.randint(0, 5)))
    if random.random() < 0.2:
        random.shuffle(fr)  # the first user frame is the lowest stack_sq, not the first row
    if random.random() < 0.05:  # two user frames at one depth: the first one's row counts
        fr.insert(1, (fr[-1][0],) + user(9))
    s = len(rows)
    for sq, raw, clean in fr:
        rows.append((name, idx, sq, raw, clean, True))
    launches.append((s, len(rows)))
launch('k_back', 0)
for i in range(9000):
    launch(random.choice(names))
    # Now and then a launch again whose last row is one to two windows back: whether it is counted
    # again depends on the row the sweeps fall on, to the row.
    if i > 3000 and random.random() < 0.15:
        lo = len(rows) - 2 * W
        old = [l for l in launches if lo <= l[1] <= lo + W and rows[l[0]][0] != 'k_back']
        if old:
            l = random.choice(old)
            launch(rows[l[0]][0], rows[l[0]][1])
    if i == 200:
        launch('k_back', 1)
    if i == 200 + 3300:   # between one and two windows later: where the sweeps fall decides
        launch('k_back', 1)
launch('k_back', 0)       # far more than two windows later: counted again
for i in range(300):
    launch(random.choice(names))
for i in random.sample(range(len(rows)), 12 if sys.argv[4] == 's' else 40):
    rows[i] = rows[i][:5] + (False,)

# The file, with each row's byte offset and line.
q = lambda s: '"' + s.replace('"', '""') + '"'
out = [b'str_name,index,stack_sq,addrname\n']
off, line = len(out[0]), 2
starts, nl_in_quotes, short = [], [], []
for (name, idx, sq, raw, clean, full) in rows:
    starts.append(off)
    f = [q(name), str(idx), str(sq), q(raw)]
    if not full:
        f = f[:3]
        short.append(line)
    b = (','.join(f) + '\n').encode()
    if '\n' in name:
        nl_in_quotes.append(off + b.index(b'\n'))
    out.append(b)
    off += len(b)
    line += b.count(b'\n')
data = b''.join(out)
open(sys.argv[1], 'wb').write(data)

# The window's documented rule (docs/internals/profile.md): rows are numbered from 1; after row r,
# when r has reached the next sweep point (the first is W), every launch last touched before r - W
# is finished and the next point is r + W. A launch (kernel, index) seen again after it was
# finished is a new launch, and one that came back.
live, done, back, fin = {}, set(), 0, []
def finish(key):
    e = live.pop(key)
    fin.append((key[0], e['frame'] or 'runtime-only', e['first']))
    done.add(key)
nxt = W
for r, (name, idx, sq, raw, clean, full) in enumerate(rows, 1):
    key = (name, idx)
    if key not in live:
        back += key in done
        live[key] = dict(first=r, frame=None, sq=0)
    e = live[key]
    e['last'] = r
    if not full:
        clean = 'unknown'  # the article's script names a missing frame so: a user frame
    if clean and (e['frame'] is None or sq < e['sq']):
        e['frame'], e['sq'] = clean, sq
    if r >= nxt:
        nxt = r + W
        for k in [k for k, v in live.items() if v['last'] < r - W]:
            finish(k)
for k in list(live):
    finish(k)
want = {}
for k, frame, first in fin:
    w = want.setdefault(k, dict(launches=0, origins={}, first={}))
    w['launches'] += 1
    w['origins'][frame] = w['origins'].get(frame, 0) + 1
    w['first'][frame] = min(w['first'].get(frame, first), first)
for w in want.values():  # the most launches; ties go to the frame seen first
    w['user_frame'] = min(w['origins'], key=lambda f: (-w['origins'][f], w['first'][f]))
    del w['first']

# Where the ranges start (chunk.c): after the first newline at or after each multiple of R.
cuts, b = [], R
while b < len(data):
    s = data.find(b'\n', b - 1) + 1
    if s <= 0 or s >= len(data):
        break
    if not cuts or s > cuts[-1]:
        cuts.append(s)
    b += R
straddle = sum(1 for a, z in launches for c in cuts if starts[a] < c <= starts[z - 1])
on_cut = sum(1 for p in nl_in_quotes if p + 1 in cuts)
json.dump(dict(kernels=want, back=back, short=short, ranges=len(cuts) + 1, straddle=straddle,
               on_cut=on_cut), open(sys.argv[3], 'w'))
EOF
[ $? -eq 0 ] || fail "cannot write the test file"
done

"$PY" - "$T/want.s.json" <<'EOF' || fail "the test file does not exercise the splits"
import json, sys
w = json.load(open(sys.argv[1]))
assert w['ranges'] > 200 and w['straddle'] > 50 and w['on_cut'] >= 1, w
assert w['back'] >= 100, w['back']
EOF
ok "the stack file has $(json_get "$T/want.s.json" "d['ranges']") ranges of $R bytes, $(json_get "$T/want.s.json" "d['straddle']") launches across a cut, $(json_get "$T/want.s.json" "d['on_cut']") quoted newlines on a cut"

for d in s m; do
  split_outputs "$T/$d" "$R"
  for fmt in json text; do
    for j in 1 2 8; do
      cmp -s "$T/$d.$fmt.whole" "$T/$d.$fmt.$j" ||
        fail "stack ($d) --format $fmt: ranges with -j $j differ from one pass"
    done
  done
done
ok "stack: json and text, output and messages, the same bytes as one pass with -j 1, 2, 8"

for d in s m; do
expect_exit 0 env HPRUN_CHUNK_BYTES=$R "$HPRUN" summarize -j 2 --format json --top 0 "$T/$d"
"$PY" - "$T/out" "$T/want.$d.json" "$T/err" <<'EOF' || fail "stack numbers ($d)"
import json, re, sys
got = {k['kernel']: k for k in json.load(open(sys.argv[1]))['stacks']}
w = json.load(open(sys.argv[2]))
assert set(got) == set(w['kernels']), (list(got), list(w['kernels']))
for name, k in w['kernels'].items():
    g = got[name]
    have = (g['launches'], g['user_frame'], {o['frame']: o['launches'] for o in g['origins']})
    exp = (k['launches'], k['user_frame'], k['origins'])
    assert have == exp, (name, have, exp)
err = open(sys.argv[3]).read()
lines = [int(x) for x in re.findall(r':(\d+): warning: row has 3 fields', err)]
assert lines == w['short'][:20], (lines, w['short'][:20])
back = '%d launches (str_name, index) came back more than 8192 rows after their last row and ' \
    'were counted again; launch counts may be too high' % w['back']
if len(w['short']) < 20:  # the came-back warning is the file's last message
    assert err.rstrip('\n').endswith(': warning: ' + back), err[-500:]
    assert 'not shown' not in err
else:  # it is only counted, with the rows past the first 20
    assert back not in err
    assert '%d more warnings about this file not shown' % (len(w['short']) + 1 - 20) in err
EOF
done
ok "stack: launches, origins and user frames as Python's window counts them; the first 20 warnings at their lines, the came-back warning"
