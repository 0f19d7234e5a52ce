#!/bin/sh
# report.html in a real browser: the quickstart's pages (valgrind and strace, no GPU; a sweep over
# two sizes: the sweep's page and a combination's) and the page of a profiled session captured on
# an H200 (tests/fixtures/real/h200-roofline/session: ncu counters,
# a roofline) are checked as XML with xmllint, then rendered by headless Chromium:
#   - the DOM Chromium built holds every chart the page should have (counted by id);
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
ok "the quickstart sweep and its combinations wrote report.html, and hprun report renders the same bytes"

for f in "$SW/report.html" "$QS/report.html" "$T/h200.html" "$T/mx.html" "$T/nt.html"; do
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

# check_page FILE NAME ID...: renders FILE and checks the DOM, the console and the screenshot.
check_page() {
  file=$1 name=$2
  shift 2
  chrome "$file" --dump-dom >"$T/$name.dom" 2>"$T/$name.log" || { cat "$T/$name.log"; fail "chromium --dump-dom $file"; }
  for id in "$@"; do
    grep -q "<svg[^>]* id=\"$id\"" "$T/$name.dom" || fail "$name: chart $id is missing from the rendered DOM"
  done
  n=$(grep -o '<svg[^>]*class="chart"' "$T/$name.dom" | wc -l)
  [ "$n" -ge "$#" ] || fail "$name: $n charts in the DOM, expected at least $#"
  errs=$(console_errors "$T/$name.log")
  [ -z "$errs" ] || { echo "$errs"; fail "$name: the browser logged console errors"; }
  chrome "$file" --screenshot="$T/$name.png" --window-size=1000,2400 >/dev/null 2>"$T/$name.shot.log" ||
    { cat "$T/$name.shot.log"; fail "chromium --screenshot $file"; }
  "$PY" "$(dirname "$0")/png_check.py" "$T/$name.png" >"$T/$name.png.txt" ||
    { cat "$T/$name.png.txt"; fail "$name: the screenshot is blank"; }
  ok "$name: $n charts in the rendered DOM, no console error; $(cut -d: -f2- "$T/$name.png.txt")"
}

check_page "$SW/report.html" sweep chart-sweep
check_page "$QS/report.html" quickstart chart-overhead chart-timeline chart-distributions
check_page "$T/h200.html" h200 chart-overhead chart-timeline chart-distributions \
  chart-categories-1 chart-kernels-1 chart-roofline
check_page "$T/mx.html" h200-matrix chart-roofline
check_page "$T/nt.html" h200-no-tensor chart-roofline
! grep -q '<circle[^>]*><title>[^<]*\(nvjet\|_sdpa_\)' "$T/h200-no-tensor.dom" ||
  fail "the rendered page draws a GEMM or attention kernel captured without tensor counters"

# It prints: Chromium's print to PDF of the profiled page is a PDF of some size.
chrome "$T/h200.html" --print-to-pdf="$T/h200.pdf" >/dev/null 2>"$T/pdf.log" || { cat "$T/pdf.log"; fail "print to PDF"; }
head -c 5 "$T/h200.pdf" | grep -q '%PDF-' && [ "$(wc -c <"$T/h200.pdf")" -gt 20000 ] || fail "the printed PDF is missing or empty"
ok "the profiled page prints to a $(wc -c <"$T/h200.pdf")-byte PDF"

# The console check can fail: a page whose script throws is caught.
sed 's#</body>#<script>hprun_no_such_function();</script></body>#' "$QS/report.html" >"$T/bad.html"
chrome "$T/bad.html" --dump-dom >/dev/null 2>"$T/bad.log" || true
[ -n "$(console_errors "$T/bad.log")" ] || fail "a script error was not seen in the console log"
ok "a page with a script error is caught by the console check"
