"""Says whether a PNG screenshot shows something: decodes it with zlib alone (no PIL), undoes the
row filters, and prints the image size, the number of distinct colours and the share of pixels that
differ from the most common colour (the page's background). Exit 0 when the picture is not blank
(at least MIN_COLOURS colours and MIN_INK of the pixels off the background), 1 when it is, 2 when
the file is not a PNG this reader understands (8-bit RGB or RGBA, not interlaced).

Usage: python3 png_check.py FILE.png [MIN_COLOURS [MIN_INK]]   (defaults 8 and 0.01)
Used by tests/e2e/test_html.sh."""
import struct
import sys
import zlib


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, ihdr = 8, [], None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = ihdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise ValueError("unsupported PNG (depth %d, colour type %d)" % (depth, ctype))
    return w, h, 3 if ctype == 2 else 4, zlib.decompress(b"".join(idat))


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def rows(w, h, bpp, raw):
    stride = w * bpp
    prev = bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif f == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif f == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif f == 4:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                up_left = prev[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + paeth(left, prev[i], up_left)) & 255
        yield line
        prev = line


def main():
    path = sys.argv[1]
    min_colours = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    min_ink = float(sys.argv[3]) if len(sys.argv) > 3 else 0.01
    try:
        w, h, bpp, raw = read_png(path)
    except (ValueError, OSError, zlib.error, TypeError, struct.error) as e:
        print("%s: %s" % (path, e))
        return 2
    counts = {}
    for line in rows(w, h, bpp, raw):
        for i in range(0, len(line), bpp):
            px = bytes(line[i:i + 3])
            counts[px] = counts.get(px, 0) + 1
    background = max(counts.values())
    ink = 1 - background / float(w * h)
    print("%s: %dx%d, %d colours, %.1f%% of the pixels off the background"
          % (path, w, h, len(counts), ink * 100))
    return 0 if len(counts) >= min_colours and ink >= min_ink else 1


if __name__ == "__main__":
    sys.exit(main())
