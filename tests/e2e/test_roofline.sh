#!/bin/sh
# The roofline from the command line: `hprun summarize --roofline` on real H200 ncu captures
# (tests/fixtures/real/h200-roofline/), `hprun peaks` with stand-in ceilings programs, the plan's
# `roofline:` key and its errors, and a stored session whose report carries the roofline.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
FIX="$ROOT/tests/fixtures/real/h200-roofline"
FAKES="$ROOT/tests/fake"

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
grep -q "ceilings: none given" "$T/out" || fail "summarize --roofline without --peaks does not say so"
grep -q "^vector_add *fp32 *0.0887151 " "$T/out" || { cat "$T/out"; fail "vector_add's intensity"; }
expect_exit 2 "$HPRUN" summarize --peaks "$FIX/h200-measured.peaks.yaml" "$FIX/ncu-vector_add-16M.csv"
ok "summarize --roofline: the GEMM is compute-bound, elementwise kernels memory-bound, figures as in the CSV"

# ---- The table in text, Markdown and CSV: one description, the same figures in each.
# PyTorch (cuBLAS FP32 GEMM, elementwise kernels) against the H200's measured peaks.
TORCH="$FIX/ncu-torch-roofline.csv"
for f in text md csv json; do
  expect_exit 0 "$HPRUN" summarize --roofline --format $f --peaks "$FIX/h200-measured.peaks.yaml" "$TORCH"
  cp "$T/out" "$T/torch.$f"
done
"$PY" - "$T" "$TORCH" <<'PY' || fail "the roofline table's formats disagree with each other or with the CSV"
import csv, json, sys
t = sys.argv[1]
d = json.load(open(t + "/torch.json"))
# From the raw page: per kernel, mean FLOP (FMA x2) and dram bytes and time over its launches.
rows = list(csv.reader(l for l in open(sys.argv[2]) if not l.startswith("==")))
ix = {h: i for i, h in enumerate(rows[0])}
num = lambda s: float(s.replace(",", ""))
acc = {}
for r in rows[2:]:
    k = acc.setdefault(r[ix["Kernel Name"]], [0, 0.0, 0.0, 0.0])
    k[0] += 1
    k[1] += sum(num(r[ix["sm__sass_thread_inst_executed_op_%s_pred_on.sum" % o]]) * (2 if o.endswith("fma") else 1)
                for o in ("fadd", "fmul", "ffma", "dadd", "dmul", "dfma", "hadd", "hmul", "hfma"))
    k[2] += num(r[ix["dram__bytes_read.sum"]]) + num(r[ix["dram__bytes_write.sum"]])
    k[3] += num(r[ix["gpu__time_duration.sum"]])
bw, fp32 = 4135.2, 60521.2
for k in d["kernels"]:
    n, fl, by, ns = acc[k["name"]]
    ai, gf = fl / by, fl / ns
    assert abs(k["intensity"] - ai) <= 1e-9 * max(ai, 1e-30), (k["name"], k["intensity"], ai)
    bound = "memory" if ai < fp32 / bw else "compute"
    assert k["bound"] == bound and k["ceiling"] == ("bandwidth" if bound == "memory" else "fp32"), k
    roof = min(fp32, bw * ai)
    if roof > 0:
        assert abs(k["efficiency"] - gf / roof) <= 1e-9, (k["name"], k["efficiency"], gf / roof)
gemm = [k for k in d["kernels"] if "gemm" in k["name"]]
elem = [k for k in d["kernels"] if "elementwise" in k["name"]]
assert len(gemm) == 1 and gemm[0]["bound"] == "compute", gemm
assert len(elem) >= 3 and all(k["bound"] == "memory" for k in elem), elem
# CSV: the same rows, names whole, numbers that read back exactly.
c = list(csv.DictReader(open(t + "/torch.csv")))
assert [r["kernel"] for r in c] == [k["name"] for k in d["kernels"]]
for r, k in zip(c, d["kernels"]):
    assert float(r["intensity"]) == k["intensity"] and r["bound"] == k["bound"], (r, k)
# Text and Markdown: one line per kernel, with the efficiency in percent to one decimal.
text = open(t + "/torch.text").read().splitlines()
md = open(t + "/torch.md").read().splitlines()
assert "ceilings (measured, NVIDIA_H200): bandwidth 4135.2 GB/s, FP32 60.5212 TFLOP/s, FP64 32.8584 TFLOP/s" in text
for k in d["kernels"]:
    pct = "-" if k["efficiency"] is None else "%.1f" % (k["efficiency"] * 100)
    assert sum(1 for l in text if l.split()[-4:] == [k["ceiling"], "%.6g" % k["roof_gflops"], pct, "-"]) >= 1, k
    assert sum(1 for l in md if l.endswith("| %s | %.6g | %s | - |" % (k["ceiling"], k["roof_gflops"], pct))) >= 1, k
PY
ok "the roofline table in text, Markdown, CSV and JSON: the same kernels and figures, as computed from the CSV"

# ---- A bf16 GEMM captured without the tensor roofline section gets no bound in any format.
NOTENSOR=tests/fixtures/real/h200-tensor-roofline/layer-sol-only-raw.csv
for f in text md csv json; do
  expect_exit 0 "$HPRUN" summarize --roofline --format $f --peaks configs/peaks/nvidia-h200-datasheet.yaml "$NOTENSOR"
  cp "$T/out" "$T/nt.$f"
done
"$PY" - "$T" <<'PY' || fail "a GEMM without tensor counters has a bound in some format"
import csv, json, sys
t = sys.argv[1]
sec = "--section SpeedOfLight_HierarchicalTensorRooflineChart"
isg = lambda n: n.startswith("nvjet") or "sdpa" in n
d = json.load(open(t + "/nt.json"))
g = [k for k in d["kernels"] if isg(k["name"])]
assert len(g) == 10, len(g)
# The other kernels (their tensor pipe reads up to 3.8% busy with no tensor op) keep their bound.
assert all(k["note"] is None and k["bound"] != "unknown" for k in d["kernels"] if not isg(k["name"])), d
for k in g:
    assert k["bound"] == "unknown" and k["flop"] is None and k["gflops"] is None, k
    assert k["roof_gflops"] is None and k["efficiency"] is None and sec in k["note"], k
for r in csv.DictReader(open(t + "/nt.csv")):
    if isg(r["kernel"]):
        assert r["bound"] == "unknown" and r["gflops"] == "" and r["efficiency"] == "", r
        assert sec in r["note"], r
for name in ("nt.text", "nt.md"):
    rows = [l for l in open(t + "/" + name) if "nvjet" in l or "sdpa" in l]
    assert len(rows) >= 10, name
    assert all("unknown" in l and sec in l and "compute" not in l and " memory " not in l for l in rows), rows
PY
ok "a GEMM captured without the tensor section: no bound, roof or FLOP rate in text, Markdown, CSV and JSON, and the section named"

# ---- hprun peaks: a stand-in program prints the result line roofline_peaks prints.
printf '#!/bin/sh\necho "device=Fake_GPU arch=x peak_bw_gbs=1000 peak_fp32_tflops=20.5 peak_fp64_tflops=10"\n' >"$T/peaks-ok"
printf '#!/bin/sh\necho "hello"\n' >"$T/peaks-none"
chmod +x "$T/peaks-ok" "$T/peaks-none"
expect_exit 0 "$HPRUN" peaks --binary "$T/peaks-ok" --output "$T/fake.peaks.yaml"
cmp -s "$T/out" "$T/fake.peaks.yaml" || fail "hprun peaks printed something else than it wrote"
grep -qx 'device: "Fake_GPU"' "$T/fake.peaks.yaml" && grep -qx 'source: "measured"' "$T/fake.peaks.yaml" &&
  grep -qx 'peak_fp32_tflops: 20.5' "$T/fake.peaks.yaml" || { cat "$T/fake.peaks.yaml"; fail "the peaks file"; }
# roofline_peaks' FP16/BF16 matrix peaks land in the file under its keys for them.
printf '#!/bin/sh\necho "device=Fake_GPU peak_bw_gbs=1000 peak_fp32_tflops=20 peak_fp16_matrix_tflops=300.5 peak_bf16_matrix_tflops=290"\n' >"$T/peaks-mx"
chmod +x "$T/peaks-mx"
expect_exit 0 "$HPRUN" peaks --binary "$T/peaks-mx"
grep -qx 'peak_fp16_tflops: 300.5' "$T/out" && grep -qx 'peak_bf16_tflops: 290' "$T/out" ||
  { cat "$T/out"; fail "the matrix peaks are not in the peaks file"; }
expect_exit 3 "$HPRUN" peaks --binary "$T/peaks-none"
grep -q "printed no line with peak_bw_gbs" "$T/err" || fail "peaks: a program without a peaks line"
expect_exit 3 "$HPRUN" peaks --binary /bin/false
expect_exit 3 "$HPRUN" peaks --binary "$T/no-such-program"
ok "hprun peaks writes the program's ceilings as a peaks file, and says when there are none"

# ---- hprun peaks --vendor: the vendor-GEMM stand-in (tests/fake/gemm_peaks.sh, the H200 figures
# gemm_probe.py measured) beside the hand kernels; each matrix peak is the higher of the two.
expect_exit 0 "$HPRUN" peaks --binary "$T/peaks-mx" --vendor-program "$FAKES/gemm_peaks.sh" --output "$T/v.yaml"
cmp -s "$T/out" "$T/v.yaml" || fail "peaks --vendor printed something else than it wrote"
for l in 'peak_bw_gbs: 1000' 'peak_fp32_tflops: 20' 'peak_bf16_tflops: 793.5' 'peak_fp16_tflops: 755.7' \
  'peak_tf32_tflops: 380.2' 'peak_fp8_tflops: 1401.8' 'matrix_source: "cuBLASLt (bf16, fp16, tf32, fp8)"' \
  'device: "Fake_GPU"'; do
  grep -qxF "$l" "$T/v.yaml" || { cat "$T/v.yaml"; fail "peaks --vendor: no line '$l'"; }
done
# A hand kernel that beats the vendor at one precision keeps that ceiling, and the file says so.
printf '#!/bin/sh\necho "peak_bw_gbs=1000 peak_fp32_tflops=20 peak_fp16_matrix_tflops=900 peak_fp64_matrix_tflops=60"\n' >"$T/peaks-hi"
chmod +x "$T/peaks-hi"
expect_exit 0 "$HPRUN" peaks --binary "$T/peaks-hi" --vendor-program "$FAKES/gemm_peaks.sh"
grep -qxF 'peak_fp16_tflops: 900' "$T/out" && grep -qxF 'peak_bf16_tflops: 793.5' "$T/out" &&
  grep -qxF 'matrix_source: "cuBLASLt (bf16, tf32, fp8); peaks-hi (fp16, fp64)"' "$T/out" ||
  { cat "$T/out"; fail "peaks --vendor: the hand kernel's higher FP16 peak, or who gave which"; }
# The peaks file it wrote is one a roofline reads back, matrix_source included.
expect_exit 0 "$HPRUN" summarize --roofline --peaks "$T/v.yaml" "$FIX/ncu-vector_add-16M.csv"
grep -q "matrix peaks measured with cuBLASLt (bf16, fp16, tf32, fp8)" "$T/out" ||
  { cat "$T/out"; fail "the roofline does not name the vendor-measured matrix peaks"; }
# The vendor program failing fails the command, with its message; nothing is printed as peaks.
printf '#!/bin/sh\nexec sh "%s/gemm_peaks.sh" fail\n' "$FAKES" >"$T/vendor-fail"
chmod +x "$T/vendor-fail"
expect_exit 3 "$HPRUN" peaks --binary "$T/peaks-mx" --vendor-program "$T/vendor-fail"
grep -q "no PyTorch" "$T/err" || { cat "$T/err"; fail "peaks --vendor: the vendor program's failure"; }
ok "hprun peaks --vendor takes the vendor-GEMM ceilings beside the hand kernels and records which gave each"

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

# ---- Preflight: a roofline pass whose counters or sections cannot see tensor/matrix work warns
# at the pass and names what to add; one that can does not. (Fake ncu and rocprofv3 on PATH.)
cat >"$T/blind.yaml" <<EOF
name: blind
app: {command: [$FAKEAPP]}
metrics: [mean_kernel_ms]
profiler: {tool: ncu}
roofline: {peak_bw_gbs: 4800, peak_fp32_tflops: 67}
passes:
  - normal
  - name: fp32-only
    mode: time
    counters: [gpu__time_duration.sum, sm__sass_thread_inst_executed_op_ffma_pred_on.sum]
  - name: sections
    mode: time
    args: [--section, SpeedOfLight_RooflineChart, --section, SpeedOfLight_HierarchicalTensorRooflineChart]
  - name: sol-only
    mode: time
    args: [--section, SpeedOfLight, --section, SpeedOfLight_RooflineChart]
  - name: amd-fma
    tool: rocprofv3
    mode: pmc
    counters: [SQ_INSTS_VALU_FMA_F32]
  - name: amd-mfma
    tool: rocprofv3
    mode: pmc
    counters: [SQ_INSTS_VALU_FMA_F32, SQ_INSTS_VALU_MFMA_MOPS_BF16]
EOF
PATH="$BUILD/fake:$PATH" expect_exit 0 "$HPRUN" check "$T/blind.yaml"
S=SpeedOfLight_HierarchicalTensorRooflineChart
grep -q "blind.yaml:8: warning: pass .fp32-only. cannot measure tensor.*$S" "$T/err" &&
  grep -q "blind.yaml:14: warning: pass .sol-only. cannot measure tensor.*$S" "$T/err" &&
  grep -q "blind.yaml:17: warning: pass .amd-fma. cannot measure tensor.*SQ_INSTS_VALU_MFMA_MOPS_" "$T/err" &&
  [ "$(grep -c "cannot measure tensor" "$T/err")" = 3 ] || { cat "$T/err"; fail "the tensor-blind preflight"; }
ok "a roofline pass that cannot measure tensor/matrix work is warned about at its line, naming the section or counters to add"

# ---- A stored session with ncu counters: the roofline comes back with the summary's peaks.
cp -R "$FIX/session" "$T/session"
expect_exit 0 "$HPRUN" report "$T/session" --format json
[ ! -s "$T/err" ] || { cat "$T/err"; fail "hprun report warned about the session"; }
n=$("$PY" -c "import json,sys; d=json.load(open(sys.argv[1])); p=d['passes'][1]['roofline']; print(len(p['kernels']), p['peaks']['source'], d['peaks']['peak_fp32_tflops'])" "$T/out")
assert_eq "$n" "3 measured 60.5212" "the session's roofline"
# The terminal and report.md show it as a table, with the ceilings and where they came from. The
# figures are run 1's ncu.csv (the run the pass profiles), worked out with python3's csv module.
expect_exit 0 "$HPRUN" report "$T/session"
grep -q "^Roofline, ceilings (measured, NVIDIA_H200): bandwidth 4135.2 GB/s, FP32 60.5212 TFLOP/s" "$T/out" &&
  grep -q "^    sgemm_tiled  *fp32  *375.662  .* compute  *fp32  *60521.2  *15.4  *-$" "$T/out" &&
  grep -q "^    scale_add  *fp32  .* memory  *bandwidth  .* 83.9  *-$" "$T/out" ||
  { cat "$T/out"; fail "the terminal's roofline table"; }
expect_exit 0 "$HPRUN" report "$T/session" --format md
grep -q "^### ncu-roofline (ncu counters)$" "$T/out" &&
  grep -q '^| `relu` | - | 0 | 0 | 2656.39 | memory | bandwidth | 0 | - | - |$' "$T/out" ||
  { cat "$T/out"; fail "report.md's roofline table"; }
ok "a stored session re-renders its roofline with the peaks it ran with"

# ---- a session whose ncu pass brings its own ceilings (a real H200 capture with the tensor
# roofline section, put into the run folder by a command pass) and no peaks: the session's
# ceilings line says where they come from, never "none given" above bounds it then prints.
csv_plan "$T/cap" capceil "$ROOT/tests/fixtures/real/h200-tensor-roofline/gemms-raw.csv"
expect_exit 0 "$HPRUN" "$T/cap/plan.yaml"
grep -q "^Roofline, ceilings: from each pass's own capture (below)" "$T/out" ||
  fail "session with capture ceilings: no 'from each pass's own capture' line"
grep -q "none given" "$T/out" && fail "session with capture ceilings says 'none given'"
grep -q "bf16-tensor .* compute " "$T/out" || fail "session with capture ceilings: no bf16-tensor compute-bound GEMM"
grep -q "^Ceilings: from each pass's own capture (below)." "$T"/cap/out/capceil-latest/report.md ||
  fail "report.md: no 'from each pass's own capture' line"
ok "a session whose capture carries its ceilings says so above the bounds (no \"none given\")"
