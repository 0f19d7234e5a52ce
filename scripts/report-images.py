"""Screenshots of report.html's charts, one PNG each, for the documentation (docs/images/).

Each chart (an <svg id="chart-..."> of the page) is written into a page of its own with the
report's stylesheet and rendered by headless Chromium at the chart's size, so that the picture is
exactly what a reader of report.html sees.

Usage: python3 scripts/report-images.py REPORT.html OUTDIR ID[=NAME]...
  e.g. python3 scripts/report-images.py s/report.html docs/images chart-overhead=overhead
Needs chromium on PATH (scripts/deps.sh installs it)."""
import os
import re
import struct
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "e2e"))
import png_check  # noqa: E402  (the zlib-only PNG reader of the browser test)

# Headless Chromium leaves a short window blank, so every chart is rendered in a tall window and
# the picture is cut to the chart's size afterwards.
MIN_HEIGHT = 600


def crop(path, w, h):
    """Cuts the PNG at path to its top-left w x h pixels (RGB), in place."""
    pw, ph, bpp, raw = png_check.read_png(path)
    out = bytearray()
    for y, line in enumerate(png_check.rows(pw, ph, bpp, raw)):
        if y == h:
            break
        out.append(0)
        for i in range(0, min(w, pw) * bpp, bpp):
            out += line[i:i + 3]

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", min(w, pw), min(h, ph), 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(bytes(out), 9)) + chunk(b"IEND", b""))


def main():
    page = open(sys.argv[1], encoding="utf-8").read()
    out = sys.argv[2]
    style = re.search(r"<style>(.*?)</style>", page, re.S).group(1)
    tmp = tempfile.mkdtemp()
    for arg in sys.argv[3:]:
        cid, _, name = arg.partition("=")
        m = re.search(r'(<svg[^>]* id="%s".*?</svg>)' % re.escape(cid), page, re.S)
        if not m:
            sys.exit("no chart %s in %s" % (cid, sys.argv[1]))
        svg = m.group(1)
        w, h = re.search(r'width="(\d+)" height="(\d+)"', svg).groups()
        html = os.path.join(tmp, cid + ".html")
        with open(html, "w", encoding="utf-8") as f:
            f.write('<!DOCTYPE html><html><head><meta charset="utf-8"/><style>%s'
                    "body{margin:0;padding:4px;max-width:none}</style></head><body>%s</body></html>"
                    % (style, svg))
        png = os.path.join(out, (name or cid) + ".png")
        subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu",
                        "--hide-scrollbars", "--user-data-dir=" + os.path.join(tmp, "profile"),
                        "--screenshot=" + os.path.abspath(png),
                        "--window-size=%d,%d" % (int(w) + 8, max(int(h) + 8, MIN_HEIGHT)),
                        "file://" + html],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       env=dict(os.environ, HOME=tmp))
        crop(png, int(w) + 8, int(h) + 8)
        print(png)


if __name__ == "__main__":
    main()
