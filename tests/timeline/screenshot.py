#!/usr/bin/env python3
"""ctest timeline_screenshot: a deadlocked run's --timeline page rendered by a
real browser (Debian's chromium, headless). Checks that the browser parses the
whole drawing (its DOM has every bar, arrow and blocked mark of the file), logs
no page errors, and paints a screenshot holding the op, wait and deadlock
colours. Without chromium the test reports itself skipped (exit 77).

usage: screenshot.py PYPTO_RUN PROGRAM.pir OUT_DIR"""

import os
import re
import shutil
import struct
import subprocess
import sys
import zlib

SKIP = 77


def find_chromium():
    for name in (os.environ.get("PYPTO_CHROMIUM", ""), "chromium", "chromium-browser",
                 "google-chrome"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def png_pixels(path):
    """(width, height, rows of RGB tuples) of an 8-bit RGB/RGBA PNG."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), (depth, ctype)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(w)])
        prev = line
    return w, h, rows


def near(px, rgb, tol=40):
    return all(abs(p - q) <= tol for p, q in zip(px, rgb))


def main():
    pypto_run, program, out = sys.argv[1:4]
    chromium = find_chromium()
    if not chromium:
        print("SKIPPED: timeline_screenshot: chromium is not installed "
              "(apt-get install chromium, or set PYPTO_CHROMIUM)")
        return SKIP
    os.makedirs(out, exist_ok=True)
    html, png = os.path.join(out, "deadlock.html"), os.path.join(out, "deadlock.png")
    r = subprocess.run([pypto_run, program, "--ranks", "3", "--entry", "k", "--output-dir", out,
                        "--schedule=random:1", "--timeline", html], capture_output=True, text=True)
    assert r.returncode == 3 and "deadlock" in r.stderr, (r.returncode, r.stderr)
    doc = open(html, encoding="utf-8").read()
    want = {k: len(re.findall(p, doc)) for k, p in
            (("bar", r'<rect class="bar '), ("arrow", r'<line class="arrow"'),
             ("blocked", r'<rect class="blocked"'))}
    assert want["bar"] > 0 and want["arrow"] > 0 and want["blocked"] == 1, want
    url = "file://" + os.path.abspath(html)
    base = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            "--enable-logging=stderr", "--v=0", "--window-size=1400,700",
            "--user-data-dir=" + os.path.join(out, "profile")]
    dom = subprocess.run(base + ["--dump-dom", url], capture_output=True, text=True, timeout=120)
    assert dom.returncode == 0, dom.stderr[-2000:]
    got = {"bar": dom.stdout.count('<rect class="bar '),
           "arrow": dom.stdout.count('<line class="arrow"'),
           "blocked": dom.stdout.count('<rect class="blocked"')}
    assert got == want, (got, want)
    errors = [l for l in dom.stderr.splitlines() if "CONSOLE" in l or "Uncaught" in l]
    assert not errors, errors
    shot = subprocess.run(base + ["--screenshot=" + png, url], capture_output=True, text=True,
                          timeout=120)
    assert shot.returncode == 0 and os.path.exists(png), shot.stderr[-2000:]
    w, h, rows = png_pixels(png)
    assert (w, h) == (1400, 700), (w, h)
    colours = {"comm bar": (0x3A, 0x9D, 0x5D), "wait bar": (0xE0, 0x8A, 0x1E),
               "deadlock mark": (0xC0, 0x39, 0x2B)}
    for name, rgb in colours.items():
        n = sum(near(px, rgb) for row in rows for px in row)
        assert n >= 50, f"{name}: only {n} pixels of {rgb} in the screenshot"
    print(f"timeline_screenshot: OK ({want['bar']} bars, {want['arrow']} arrows, "
          f"1 blocked mark; rendered {w}x{h})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
