#!/bin/sh
# The roofline from the command line: `hprun summarize --roofline` on real H200 ncu captures
# (tests/fixtures/real/h200-roofline/), `hprun peaks` with stand-in ceilings programs, the plan's
# `roofline:` key and its errors, and a stored session whose report carries the roofline.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
FIX="$ROOT/tests/fixtures/real/h200-roofline"

# ---- summarize --roofline: GEMM compute-bound, elementwise memory-bound, figures from the CSV.
expect_exit 0 "$HPRUN" summarize --roofline --format json --peaks "$FIX/h200-measured.peaks.yaml" \
  "$FIX/ncu-roofline_mix.csv"
"$PY" - "$T/out" "$FIX/ncu-roofline_mix.csv" <<'PY' || fail "summarize --roofline: figures differ from the CSV's"
import csv, json, sys
d = json.load(open(sys.argv[1]))
k = {x["name"].split("(")[0]: x for x in d["kernels"]}
assert k["sgemm_tiled"]["bound"] == "compute", k["sgemm_tiled"]
assert k["scale_add"]["bound"] == "memory" and k["relu"]["bound"] == "memory"
assert d["peaks"]["peak_bw_gbs"] == 4135.2 and d["source"] == "ncu"
# The intensity of scale_add from the raw page itself: FLOP over dram bytes, launch by launch.
rows = list(csv.reader(l for l in open(sys.argv[2]) if not l.startswith("==")))
ix = {h: i for i, h in enumerate(rows[0])}
num = lambda s: float(s.replace(",", ""))
fl = by = 0
for r in rows[2:]:
    if r[ix["Kernel Name"]].startswith("scale_add"):
        fl += sum(num(r[ix["sm__sass_thread_inst_executed_op_%s_pred_on.sum" % o]]) * (2 if o.endswith("fma") else 1)
                  for o in ("fadd", "fmul", "ffma", "dadd", "dmul", "dfma", "hadd", "hmul", "hfma"))
        by += num(r[ix["dram__bytes_read.sum"]]) + num(r[ix["dram__bytes_write.sum"]])
assert abs(k["scale_add"]["intensity"] - fl / by) < 1e-9 * fl / by, (k["scale_add"]["intensity"], fl / by)
PY
expect_exit 0 "$HPRUN" summarize --roofline "$FIX/ncu-vector_add-16M.csv"
grep -q "peaks: none given" "$T/out" || fail "summarize --roofline without --peaks does not say so"
grep -q "^vector_add(.*fp32 *0.0887151 " "$T/out" || { cat "$T/out"; fail "vector_add's intensity"; }
expect_exit 2 "$HPRUN" summarize --peaks "$FIX/h200-measured.peaks.yaml" "$FIX/ncu-vector_add-16M.csv"
ok "summarize --roofline: the GEMM is compute-bound, elementwise kernels memory-bound, figures as in the CSV"

# ---- hprun peaks: a stand-in program prints the result line roofline_peaks prints.
printf '#!/bin/sh\necho "device=Fake_GPU arch=x peak_bw_gbs=1000 peak_fp32_tflops=20.5 peak_fp64_tflops=10"\n' >"$T/peaks-ok"
printf '#!/bin/sh\necho "hello"\n' >"$T/peaks-none"
chmod +x "$T/peaks-ok" "$T/peaks-none"
expect_exit 0 "$HPRUN" peaks --binary "$T/peaks-ok" --output "$T/fake.peaks.yaml"
cmp -s "$T/out" "$T/fake.peaks.yaml" || fail "hprun peaks printed something else than it wrote"
grep -qx 'device: "Fake_GPU"' "$T/fake.peaks.yaml" && grep -qx 'source: "measured"' "$T/fake.peaks.yaml" &&
  grep -qx 'peak_fp32_tflops: 20.5' "$T/fake.peaks.yaml" || { cat "$T/fake.peaks.yaml"; fail "the peaks file"; }
expect_exit 3 "$HPRUN" peaks --binary "$T/peaks-none"
grep -q "printed no line with peak_bw_gbs" "$T/err" || fail "peaks: a program without a peaks line"
expect_exit 3 "$HPRUN" peaks --binary /bin/false
expect_exit 3 "$HPRUN" peaks --binary "$T/no-such-program"
ok "hprun peaks writes the program's ceilings as a peaks file, and says when there are none"

# ---- The plan's roofline: a peaks file, inline figures, and mistakes with file:line.
plan() { # NAME ROOFLINE-LINE
  printf 'name: %s\napp: {command: [%s]}\nmetrics: [mean_kernel_ms]\npasses: [normal]\n%s\n' \
    "$1" "$FAKEAPP" "$2" >"$T/$1.yaml"
}
plan file "roofline: {peaks: fake.peaks.yaml}"
expect_exit 0 "$HPRUN" check "$T/file.yaml"
plan inline "roofline: {peak_bw_gbs: 1600, peak_fp32_tflops: 22.6}"
expect_exit 0 "$HPRUN" check "$T/inline.yaml"
plan missing "roofline: {peaks: nowhere.yaml}"
expect_exit 2 "$HPRUN" check "$T/missing.yaml"
grep -q "missing.yaml:5:.*roofline.peaks.*nowhere.yaml" "$T/err" || { cat "$T/err"; fail "a missing peaks file"; }
plan nocompute "roofline: {peak_bw_gbs: 1600}"
expect_exit 2 "$HPRUN" check "$T/nocompute.yaml"
grep -q "nocompute.yaml:5:.*needs a .peaks. file or peak_bw_gbs and a compute peak" "$T/err" || { cat "$T/err"; fail "no compute peak"; }
plan bad "roofline: {peak_bw_gbs: -3, peak_fp32_tflops: 1}"
expect_exit 2 "$HPRUN" check "$T/bad.yaml"
grep -q "bad.yaml:5:.*peak_bw_gbs. must be a positive number" "$T/err" || { cat "$T/err"; fail "a negative peak"; }
ok "roofline: a peaks file or inline figures; a missing file or a bad figure is a plan error at its line"

# ---- A stored session with ncu counters: the roofline comes back with the summary's peaks.
cp -R "$FIX/session" "$T/session"
expect_exit 0 "$HPRUN" report "$T/session" --format json
[ ! -s "$T/err" ] || { cat "$T/err"; fail "hprun report warned about the session"; }
n=$("$PY" -c "import json,sys; d=json.load(open(sys.argv[1])); p=d['passes'][1]['roofline']; print(len(p['kernels']), p['peaks']['source'], d['peaks']['peak_fp32_tflops'])" "$T/out")
assert_eq "$n" "3 measured 60.5212" "the session's roofline"
ok "a stored session re-renders its roofline with the peaks it ran with"
