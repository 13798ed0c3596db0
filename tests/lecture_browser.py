#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`gridstride lecture`'s deck, seen in a real browser (headless Chromium).

    tests/lecture_browser.py GRIDSTRIDE SOURCE_DIR WORK_DIR [--many]
    tests/lecture_browser.py --deck DECK.html OUT_PREFIX

Runs `gridstride lecture` from SOURCE_DIR (the exercise slide runs `check` on
examples/grid_stride.gs) into WORK_DIR/lecture.html, within
GS_LECTURE_SECONDS (default 60) seconds, then at 1920x1080:
  - a screenshot of every slide (file://...#slide-N), each a picture and not a
    blank page: at least 16 distinct colours and ink on 2% to 98% of it
    (scripts/check-png.py's decoder: no PIL needed);
  - the page's own layout check (the deck's script writes it into
    <pre id="gs-layout">, read back through --dump-dom): no element or text
    outside its slide, outside its box or column, into the footer, or clipped
    by a box, and no text under 24 px as rendered;
  - printed (--print-to-pdf), one page per slide.
The same checks must then FAIL on five broken copies of the deck (an element
wider than the slide, a list that runs into the footer, a table wider than
its box, text of 12 px, a slide with everything hidden), so the test cannot
pass by checking nothing.

With --many the deck is made of four devices instead (PoCL's pthread driver
twice and its basic one, --device all, beside the host), written to
WORK_DIR/lecture-many.html, and every slide gets the screenshot and layout
checks: the tables, keys and answers of a GPU machine's deck with several
APIs must fit too. Without four such devices it exits 77.

With --deck it checks a deck made elsewhere (a GPU machine's: it has no
browser), writing each slide's screenshot to OUT_PREFIX-N.png, and exits 1
when a slide does not fit.

Installs nothing: without Chromium (Debian's `chromium`; .ci/run installs it)
it says so and exits 77, which ctest reports as skipped."""
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import time

MIN_PX = 24.0
WIDTH, HEIGHT = 1920, 1080


def fail(msg):
    print(f"lecture_browser: FAIL: {msg}")
    sys.exit(1)


def browser():
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


def chrome(exe, args, timeout=120):
    cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           "--no-first-run", "--no-default-browser-check", "--disable-extensions",
           f"--window-size={WIDTH},{HEIGHT}"] + args
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    return r.returncode, r.stdout.decode("utf-8", "replace")


def load_png_module(source):
    spec = importlib.util.spec_from_file_location("check_png",
                                                  os.path.join(source, "scripts", "check-png.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def picture_problem(png_mod, path):
    """None when the PNG is a 1920x1080 picture; else what is wrong."""
    if not os.path.exists(path):
        return "no screenshot was written"
    width, height, bpp, rows = png_mod.decode(path)
    if (width, height) != (WIDTH, HEIGHT):
        return f"{width}x{height}, not {WIDTH}x{HEIGHT}"
    colours, white = set(), 0
    for line in rows:
        line = bytes(line)
        for x in range(0, len(line), bpp * 2):  # every other pixel: enough, and twice as fast
            px = line[x:x + 3]
            colours.add(px)
            white += px == b"\xff\xff\xff"
    total = (width + 1) // 2 * height
    ink = 1 - white / total
    if len(colours) < 16:
        return f"{len(colours)} distinct colours: blank or nearly so"
    if not 0.02 <= ink <= 0.98:
        return f"ink on {ink:.1%} of it: blank, or one flat fill"
    return None


def layout(exe, html):
    rc, dom = chrome(exe, ["--dump-dom", "file://" + html])
    if rc != 0:
        fail(f"chromium --dump-dom exited {rc}")
    m = re.search(r'<pre id="gs-layout">(.*?)</pre>', dom, re.S)
    if not m or not m.group(1).strip():
        return None
    rows = {}
    for line in m.group(1).strip().splitlines():
        f = re.match(r'slide (\d+) overflow=(\d+) minpx=([\d.]+) min=(".*?")(?: kinds="(.*?)")? '
                     r'first=(".*")$',
                     line.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<")
                     .replace("&gt;", ">"))
        if f:
            rows[int(f.group(1))] = (int(f.group(2)), float(f.group(3)), f.group(4),
                                     f.group(5) or "out of place", f.group(6))
    return rows


def problems(exe, png_mod, html, slides, shots, prefix=None):
    """Every problem of the deck at html, one string each; the screenshots
    are html.slide-N.png, or PREFIX-N.png."""
    out = []
    rows = layout(exe, html)
    if rows is None:
        return ["the page wrote no layout check into <pre id=\"gs-layout\"> (did its script run?)"]
    for n in range(1, slides + 1):
        if n not in rows:
            out.append(f"slide {n}: not in the layout check")
            continue
        over, px, what, kinds, first = rows[n]
        if over:
            out.append(f"slide {n}: {over} element(s) or text runs out of place ({kinds}), "
                       f"the first: {first}")
        if px < MIN_PX:
            out.append(f"slide {n}: text of {px:.1f} px ({what}), under {MIN_PX:.0f} px")
    for n in shots:
        png = f"{prefix}-{n}.png" if prefix else f"{html}.slide-{n}.png"
        if os.path.exists(png):
            os.remove(png)
        chrome(exe, [f"--screenshot={png}", f"file://{html}#slide-{n}"])
        why = picture_problem(png_mod, png)
        if why:
            out.append(f"slide {n}: screenshot {why}")
    return out


def broken(html, out, slide, inject, style=""):
    with open(html, encoding="utf-8") as f:
        text = f.read()
    mark = f'<section class="slide" id="slide-{slide}">\n'
    if mark not in text:
        fail(f"no {mark.strip()} in the deck to break")
    text = text.replace(mark, mark + inject, 1)
    if style:
        text = text.replace("</style>", style + "</style>", 1)
    with open(out, "w", encoding="utf-8") as f:
        f.write(text)
    return out


# Four devices from one CPU: PoCL's pthread driver twice and its basic one
# (one compute unit, so another G and T), beside the host backend: the many-
# device deck a GPU machine makes (host, OpenCL, CUDA, OpenMP), here.
MANY_POCL = "pthread pthread basic"
MANY_DEVICES = 4


def check_deck(html, prefix):
    """A deck made elsewhere (a GPU machine has no browser): every slide
    rendered to PREFIX-N.png and checked as the test checks its own deck."""
    exe = browser()
    if not exe:
        sys.exit("lecture_browser: no Chromium on this machine (apt-get install "
                 "--no-install-recommends chromium fonts-dejavu-core)")
    html = os.path.abspath(html)
    with open(html, encoding="utf-8") as f:
        slides = len(re.findall(r'<section class="slide" id="slide-\d+">', f.read()))
    rows = layout(exe, html) or {}
    for n in sorted(rows):
        over, px, what, kinds, first = rows[n]
        print(f"slide {n}: {over} out of place{' (' + kinds + ')' if over else ''}, "
              f"smallest text {px:.1f} px{', the first: ' + first if over else ''}")
    found = problems(exe, load_png_module(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))), html, slides, range(1, slides + 1),
        os.path.abspath(prefix))
    for p in found:
        print(f"lecture_browser: {p}")
    print(f"lecture_browser: {slides} slides rendered to {prefix}-1.png .. -{slides}.png; "
          f"{'every slide fits' if not found else str(len(found)) + ' problem(s)'}")
    sys.exit(1 if found else 0)


def main():
    args = sys.argv[1:]
    if args and args[0] == "--deck":
        if len(args) != 3:
            sys.exit("usage: tests/lecture_browser.py --deck DECK.html OUT_PREFIX")
        check_deck(args[1], args[2])
    many = "--many" in args
    args = [a for a in args if a != "--many"]
    if len(args) != 3:
        sys.exit("usage: tests/lecture_browser.py GRIDSTRIDE SOURCE_DIR WORK_DIR [--many]")
    gridstride, source, work = (os.path.abspath(a) for a in args)
    exe = browser()
    if not exe:
        print("lecture_browser: SKIP: no Chromium on this machine (install Debian's chromium "
              "package: apt-get install --no-install-recommends chromium fonts-dejavu-core)")
        sys.exit(77)
    os.makedirs(work, exist_ok=True)
    html = os.path.join(work, "lecture-many.html" if many else "lecture.html")
    if os.path.exists(html):
        os.remove(html)
    limit = float(os.environ.get("GS_LECTURE_SECONDS", "60"))
    env = dict(os.environ)
    cmd = [gridstride, "lecture", "--html", html, "--quiet"]
    if many:
        env["POCL_DEVICES"] = MANY_POCL
        cmd[2:2] = ["--device", "all"]
    t0 = time.monotonic()
    r = subprocess.run(cmd, cwd=source, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=limit * 3)
    took = time.monotonic() - t0
    if r.returncode != 0:
        fail(f"gridstride lecture exited {r.returncode}: {r.stderr.decode()[-2000:]}")
    print(f"lecture_browser: gridstride {' '.join(cmd[1:])} took {took:.1f} s")
    if took > limit and not many:
        fail(f"gridstride lecture took {took:.1f} s, more than {limit:.0f} s")
    if many:
        with open(html, encoding="utf-8") as f:
            text = f.read()
        m = re.search(r'<section class="slide" id="slide-2">(.*?)</section>', text, re.S)
        ndev = m.group(1).count('<span class="keyitem">') if m else 0
        if ndev < MANY_DEVICES:
            print(f"lecture_browser: SKIP: {ndev or 'at most 2'} devices with "
                  f"POCL_DEVICES='{MANY_POCL}' and --device all, not {MANY_DEVICES} (a build "
                  "without OpenCL, or an OpenCL driver other than PoCL)")
            sys.exit(77)
        slides = len(re.findall(r'<section class="slide" id="slide-\d+">', text))
        found = problems(exe, load_png_module(source), html, slides, range(1, slides + 1))
        if found:
            fail("; ".join(found))
        print(f"lecture_browser: {ndev} devices, {slides} slides at {WIDTH}x{HEIGHT}: every "
              f"screenshot a picture, nothing out of place, no text under {MIN_PX:.0f} px")
        print("lecture_browser: ok")
        return
    with open(html, encoding="utf-8") as f:
        text = f.read()
    for bad in ("http://", "https://", "<link", "@import", "src=\""):
        if bad in text.replace('xmlns="http://www.w3.org/2000/svg"', ""):
            fail(f"the deck is not self-contained: it has {bad!r}")
    slides = len(re.findall(r'<section class="slide" id="slide-\d+">', text))
    if slides != 8:
        fail(f"{slides} slides, not 8")
    if text.count('<aside class="notes">') != slides:
        fail("not every slide has a speaker's note")
    if len(re.findall(r"<svg[^>]*>\s*<title>[^<]+</title>\s*<desc>[^<]+</desc>", text)) != \
            text.count("<svg"):
        fail("an SVG without a <title> and a <desc>")
    # The print stylesheet: one slide a page.
    pdf = html + ".pdf"
    if os.path.exists(pdf):
        os.remove(pdf)
    chrome(exe, ["--no-pdf-header-footer", f"--print-to-pdf={pdf}", "file://" + html])
    if not os.path.exists(pdf):
        fail("chromium --print-to-pdf wrote no PDF")
    with open(pdf, "rb") as f:
        pages = len(re.findall(rb"/Type\s*/Page[^s]", f.read()))
    if pages != slides:
        fail(f"printed, the deck is {pages} pages, not one page for each of its {slides} slides")
    print(f"lecture_browser: printed, {pages} pages: one slide a page")
    png_mod = load_png_module(source)
    found = problems(exe, png_mod, html, slides, range(1, slides + 1))
    if found:
        fail("; ".join(found))
    print(f"lecture_browser: {slides} slides at {WIDTH}x{HEIGHT}: every screenshot a picture, "
          f"nothing out of place, no text under {MIN_PX:.0f} px")
    # The checks must catch what they look for.
    cases = [
        ("an element wider than the slide", 2,
         broken(html, os.path.join(work, "broken-wide.html"), 2,
                '<div style="width:2600px;height:40px;background:#c00">too wide</div>\n'),
         "outside the slide"),
        ("a list that runs into the footer", 2,
         broken(html, os.path.join(work, "broken-long.html"), 2,
                '<ul>' + '<li>one more line</li>' * 24 + '</ul>\n'),
         "into the footer"),
        ("a table wider than its box", 3,
         broken(html, os.path.join(work, "broken-box.html"), 3, "",
                "#slide-3 .box table{width:1200px}\n"),
         "outside its box"),
        ("text of 12 px", 3,
         broken(html, os.path.join(work, "broken-small.html"), 3,
                '<p style="font-size:12px">too small</p>\n'),
         "under 24 px"),
        ("a blank slide", 5,
         broken(html, os.path.join(work, "broken-blank.html"), 5, "",
                "#slide-5 *{visibility:hidden}\n"),
         "screenshot"),
    ]
    for what, n, path, expect in cases:
        got = problems(exe, png_mod, path, slides, [n] if expect == "screenshot" else [])
        if not any(f"slide {n}:" in p and expect in p for p in got):
            fail(f"the check did not catch {what} on slide {n} (it found: {got or 'nothing'})")
        print(f"lecture_browser: caught {what}: {[p for p in got if f'slide {n}:' in p][0]}")
    print("lecture_browser: ok")


if __name__ == "__main__":
    main()
