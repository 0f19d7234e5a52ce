#!/bin/sh
# report.html in a real browser: the quickstart's pages (valgrind and strace, no GPU; a sweep over
# two sizes: the sweep's page and a combination's), the page of a profiled session captured on
# an H200 (tests/fixtures/real/h200-roofline/session: ncu counters, a roofline), the page of the
# real H200 tensor-roofline capture (27 kernels, the GEMMs crowded at the top right) and pages of
# long names (passes, a sweep's values) are checked as XML with xmllint, then rendered by headless
# Chromium:
#   - the DOM Chromium built holds every chart the page should have (counted by id);
#   - no text of any chart runs past its <svg>'s edge or overlaps another text by more than a
#     pixel, as Chromium lays them out (tests/e2e/text_boxes.js, run inside the page);
#   - Chromium logged no console error (a page with a broken script shows that the check sees one);
#   - the screenshot is not blank (tests/e2e/png_check.py decodes the PNG with zlib alone).
# Without chromium (HPRUN_NO_BROWSER=1 to scripts/deps.sh) the browser half is skipped, and says so.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
FIX="$ROOT/tests/fixtures/real/h200-roofline/session"

command -v xmllint >/dev/null 2>&1 || fail "xmllint is not installed (scripts/deps.sh installs libxml2-utils)"

# ---- The pages.
cd "$ROOT"
expect_exit 0 "$HPRUN" configs/quickstart.yaml --quiet --repeat 3 --output "$T/qs"
SW=$(session_dir "$T/qs" | head -n 1)
QS=$(find "$SW" -mindepth 1 -maxdepth 1 -type d -name 'n=*' | sort | head -n 1)
[ -n "$QS" ] || fail "the quickstart sweep has no combination folder"
for d in "$SW" "$QS"; do
  [ -f "$d/report.html" ] || fail "$d has no report.html"
  expect_exit 0 "$HPRUN" report "$d" --format html
  cmp -s "$T/out" "$d/report.html" || fail "hprun report --format html differs from $d/report.html"
done
expect_exit 0 "$HPRUN" report "$FIX" --html "$T/h200.html"
# The same session with FP16/BF16 matrix peaks (as roofline_peaks measures them): two more
# ceilings on the chart, each labelled.
cp -R "$FIX" "$T/mx"
"$PY" - "$T/mx/summary.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["peaks"].update(peak_fp16_tflops=700.5, peak_bf16_tflops=690)
json.dump(d, open(sys.argv[1], "w"), indent=2)
PY
expect_exit 0 "$HPRUN" report "$T/mx" --html "$T/mx.html"
[ "$(grep -c '<polyline class="roof3"' "$T/mx.html")" -eq 2 ] &&
  grep -q '>FP16 matrix 700.5 TFLOP/s</text>' "$T/mx.html" && grep -q '>BF16 matrix 690 TFLOP/s</text>' "$T/mx.html" &&
  grep -q 'FP16 matrix 700.5 TFLOP/s, BF16 matrix 690 TFLOP/s.</p>' "$T/mx.html" ||
  fail "the matrix ceilings are not drawn and labelled"
! grep -q 'class="roof3"' "$T/h200.html" || fail "a page without matrix peaks draws matrix ceilings"
# The same session with the real H200 bf16 layer step captured without the tensor section
# (tests/fixtures/real/h200-tensor-roofline/layer-sol-only-raw.csv) as each run's ncu.csv: no
# cuBLAS GEMM or flash-attention kernel gets a dot, a bound or a roof, and each row says why.
cp -R "$FIX" "$T/nt"
for f in "$T"/nt/ncu-roofline/*/ncu.csv; do
  cp "$ROOT/tests/fixtures/real/h200-tensor-roofline/layer-sol-only-raw.csv" "$f"
done
expect_exit 0 "$HPRUN" report "$T/nt" --html "$T/nt.html"
"$PY" - "$T/nt.html" <<'PY' || fail "report.html places a GEMM or attention kernel without its tensor FLOPs"
import re, sys
h = open(sys.argv[1]).read()
sec = h[h.index("<h2>Roofline</h2>"):]
dots = re.findall(r'<circle[^>]*class="pt[^"]*"><title>(.*?)</title>', sec, re.S)
rows = [re.findall(r"<td[^>]*>(.*?)</td>", r) for r in re.findall(r"<tr>(.*?)</tr>", sec, re.S)]
tensor = [r for r in rows if len(r) > 5 and re.search(r"nvjet|_sdpa_", r[1])]
assert len(tensor) >= 10 and len(dots) >= 10, (len(tensor), len(dots))
assert not [d for d in dots if re.search(r"nvjet|_sdpa_", d)], "a dot for a GEMM or attention kernel"
for r in tensor:
    assert "unknown" in r and "memory" not in r and "compute" not in r, r
    assert r[-1] == "FLOPs not captured: add ncu --section SpeedOfLight_HierarchicalTensorRooflineChart", r
PY
ok "report.html of a capture without tensor counters: no dot, bound or roof for a GEMM or attention kernel, and the note"

# The real H200 capture of the tensor-roofline kit (tests/fixtures/real/h200-tensor-roofline/
# step-0912-raw.csv.gz), put into a run folder by a command pass as for
# docs/images/h200-tensor-roofline.png: no peaks, so the capture's own ceilings (FP16 and BF16
# matrix 1050 TFLOP/s) are drawn, and a dozen GEMM and attention kernels crowd under them.
gzip -dc "$ROOT/tests/fixtures/real/h200-tensor-roofline/step-0912-raw.csv.gz" >"$T/step.csv"
csv_plan "$T/tr" tensor "$T/step.csv"
expect_exit 0 "$HPRUN" --quiet "$T/tr/plan.yaml"
TR=$(session_dir "$T/tr/out")
[ "$(grep -c '<circle[^>]*class="pt' "$TR/report.html")" = 27 ] ||
  fail "the tensor capture's roofline does not draw its 27 kernels"

# Long names everywhere: passes, the sweep's values, the metric. The charts cut or wrap them.
mkdir -p "$T/ln"
printf '#!/bin/sh\necho "m=$(( ${SLOW:-1} * 10 + $$ %% 2 ))"\n' >"$T/ln/app.sh"
chmod +x "$T/ln/app.sh"
cat >"$T/ln/plan.yaml" <<YAML
name: long
output: $T/ln/out
repeat: 2
parameters:
  variant: [bfloat16-with-a-rather-long-suffix-one, bfloat16-with-a-rather-long-suffix-two,
            float32-with-a-rather-long-suffix-three, four, five-is-also-a-long-one-really,
            six, seven-is-long-long-long-long, eight]
app:
  command: [$T/ln/app.sh, "{variant}"]
metrics: [{name: a_metric_whose_name_goes_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on, pattern: 'm=([0-9]+)', unit: ms}]
passes:
  - normal
  - {name: a-pass-with-a-really-very-long-name-that-goes-on, command: [env, SLOW=2, "{app}"]}
  - {name: another-pass-whose-name-is-long-as-well-number-two, command: [env, SLOW=3, "{app}"]}
  - {name: third-long-pass-name-for-the-legend-row-wrapping, command: [env, SLOW=40, "{app}"]}
  - {name: short, command: [env, SLOW=1, "{app}"]}
YAML
expect_exit 0 "$HPRUN" --quiet "$T/ln/plan.yaml"
LN=$(session_dir "$T/ln/out")
LNC="$LN/variant=four"
ok "the quickstart sweep and its combinations wrote report.html, and hprun report renders the same bytes"

for f in "$SW/report.html" "$QS/report.html" "$T/h200.html" "$T/mx.html" "$T/nt.html" \
  "$TR/report.html" "$LN/report.html" "$LNC/report.html"; do
  xmllint --noout "$f" 2>"$T/xml.err" || { cat "$T/xml.err"; fail "$f is not well-formed XML"; }
done
ok "the pages are well-formed XML (xmllint)"

# The figures on the page are summary.json's: the callgrind bar's label is its overhead ratio.
ratio=$(pass_get "$QS/summary.json" callgrind "'%.2fx' % p['overhead']['ratio']")
grep -q ">$ratio unconfirmed</text>" "$QS/report.html" || fail "the overhead chart does not show callgrind's $ratio"
grep -q 'id="chart-roofline"' "$T/h200.html" || fail "the H200 page has no roofline chart"
combo=$(basename "$QS")
grep -q "<a href=\"$combo/report.html\">$combo</a>" "$SW/report.html" || fail "the sweep's page does not link $combo's"
grep -q '<td>memory</td>' "$T/h200.html" && grep -q '<td>compute</td>' "$T/h200.html" ||
  fail "the H200 roofline table lacks a memory- or a compute-bound kernel"
ok "the pages show summary.json's overhead and the roofline's bounds"

if ! command -v chromium >/dev/null 2>&1; then
  echo "skipped: chromium is not installed (scripts/deps.sh installs it unless HPRUN_NO_BROWSER=1)"
  exit 0
fi

# chrome PAGE ARGS...: headless Chromium on a file, its own profile folder, logging to stderr.
chrome() {
  page=$1
  shift
  HOME="$T" chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
    --user-data-dir="$T/chrome" --enable-logging=stderr --v=0 "$@" "file://$page"
}

# console_errors LOG: the console's error lines that Chromium logged.
console_errors() {
  grep -E 'CONSOLE|Uncaught|Failed to load resource' "$1" | grep -viE 'dbus|Fontconfig' || true
}

# render_checked FILE NAME: Chromium's DOM of a copy of FILE with tests/e2e/text_boxes.js run
# inside it, in $T/NAME.dom (its log in $T/NAME.log).
render_checked() {
  "$PY" - "$1" "$(dirname "$0")/text_boxes.js" "$T/$2.checked.html" <<'PY'
import sys
page, js = (open(f, encoding="utf-8").read() for f in sys.argv[1:3])
assert page.count("</body>") == 1, "no single </body> in " + sys.argv[1]
open(sys.argv[3], "w", encoding="utf-8").write(page.replace("</body>", "<script>" + js + "</script></body>"))
PY
  chrome "$T/$2.checked.html" --window-size=1000,2400 --dump-dom >"$T/$2.dom" 2>"$T/$2.log" ||
    { cat "$T/$2.log"; fail "chromium --dump-dom $1"; }
}

# text_findings NAME CHARTS: the findings that text_boxes.js wrote into $T/NAME.dom, into
# $T/NAME.text.txt; fails (status 1) unless it ran over some text of all CHARTS charts, and on
# any finding.
text_findings() {
  "$PY" - "$T/$1.dom" "$2" >"$T/$1.text.txt" <<'PY'
import html, re, sys
m = re.search(r'<pre id="hprun-text-check">(.*?)</pre>', open(sys.argv[1], encoding="utf-8").read(), re.S)
if not m:
    sys.exit("the text check did not run in the page")
lines = html.unescape(m.group(1)).split("\n")
head = re.fullmatch(r"checked (\d+) texts in (\d+) charts", lines[0])
print(lines[0])
if not head or int(head.group(1)) == 0 or head.group(2) != sys.argv[2]:
    sys.exit("expected some texts in %s charts" % sys.argv[2])
bad = [l for l in lines[1:] if l]
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
}

# check_page FILE NAME ID...: renders FILE, with tests/e2e/text_boxes.js run inside a copy of it,
# and checks the DOM, the texts' boxes, the console and the screenshot.
check_page() {
  file=$1 name=$2
  shift 2
  render_checked "$file" "$name"
  for id in "$@"; do
    grep -q "<svg[^>]* id=\"$id\"" "$T/$name.dom" || fail "$name: chart $id is missing from the rendered DOM"
  done
  n=$(grep -o '<svg[^>]*class="chart"' "$T/$name.dom" | wc -l)
  [ "$n" -ge "$#" ] || fail "$name: $n charts in the DOM, expected at least $#"
  text_findings "$name" "$n" || { cat "$T/$name.text.txt"; fail "$name: chart text is clipped or overlaps"; }
  errs=$(console_errors "$T/$name.log")
  [ -z "$errs" ] || { echo "$errs"; fail "$name: the browser logged console errors"; }
  chrome "$file" --screenshot="$T/$name.png" --window-size=1000,2400 >/dev/null 2>"$T/$name.shot.log" ||
    { cat "$T/$name.shot.log"; fail "chromium --screenshot $file"; }
  "$PY" "$(dirname "$0")/png_check.py" "$T/$name.png" >"$T/$name.png.txt" ||
    { cat "$T/$name.png.txt"; fail "$name: the screenshot is blank"; }
  ok "$name: $n charts in the rendered DOM, $(head -n 1 "$T/$name.text.txt" | cut -d' ' -f2-3), none clipped or overlapping, no console error; $(cut -d: -f2- "$T/$name.png.txt")"
}

check_page "$SW/report.html" sweep chart-sweep
check_page "$QS/report.html" quickstart chart-overhead chart-timeline chart-distributions
check_page "$T/h200.html" h200 chart-overhead chart-timeline chart-distributions \
  chart-categories-1 chart-kernels-1 chart-roofline
check_page "$T/mx.html" h200-matrix chart-roofline
check_page "$T/nt.html" h200-no-tensor chart-roofline
check_page "$TR/report.html" h200-tensor chart-roofline
check_page "$LN/report.html" long-sweep chart-sweep
check_page "$LNC/report.html" long-names chart-overhead chart-timeline chart-distributions
! grep -q '<circle[^>]*><title>[^<]*\(nvjet\|_sdpa_\)' "$T/h200-no-tensor.dom" ||
  fail "the rendered page draws a GEMM or attention kernel captured without tensor counters"

# The text check can fail: two texts drawn over each other past each chart's right edge are seen.
sed 's#^</svg>$#<text x="840" y="20">past the edge</text><text x="840" y="20">past the edge</text></svg>#' \
  "$QS/report.html" >"$T/clip.html"
render_checked "$T/clip.html" clip
! text_findings clip 3 || fail "the text check did not see texts past the edge and over each other"
grep -q '^chart-overhead: clipped "past the edge"' "$T/clip.text.txt" &&
  grep -q '^chart-overhead: overlap "past the edge" and "past the edge"' "$T/clip.text.txt" ||
  { cat "$T/clip.text.txt"; fail "the text check's findings do not name the clipped and overlapping texts"; }
ok "a chart text past the edge and one over another are caught by the text check"

# It prints: Chromium's print to PDF of the profiled page is a PDF of some size.
chrome "$T/h200.html" --print-to-pdf="$T/h200.pdf" >/dev/null 2>"$T/pdf.log" || { cat "$T/pdf.log"; fail "print to PDF"; }
head -c 5 "$T/h200.pdf" | grep -q '%PDF-' && [ "$(wc -c <"$T/h200.pdf")" -gt 20000 ] || fail "the printed PDF is missing or empty"
ok "the profiled page prints to a $(wc -c <"$T/h200.pdf")-byte PDF"

# The console check can fail: a page whose script throws is caught.
sed 's#</body>#<script>hprun_no_such_function();</script></body>#' "$QS/report.html" >"$T/bad.html"
chrome "$T/bad.html" --dump-dom >/dev/null 2>"$T/bad.log" || true
[ -n "$(console_errors "$T/bad.log")" ] || fail "a script error was not seen in the console log"
ok "a page with a script error is caught by the console check"
