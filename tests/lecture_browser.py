#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`gridstride lecture`'s deck, seen in a real browser (headless Chromium).

    tests/lecture_browser.py GRIDSTRIDE SOURCE_DIR WORK_DIR
    tests/lecture_browser.py --deck DECK.html OUT_PREFIX

Runs `gridstride lecture --device all` from SOURCE_DIR (the exercise slide
runs `check` on examples/grid_stride.gs) into WORK_DIR/lecture.html, with
POCL_DEVICES set so that PoCL offers its pthread driver twice and its basic
one (one compute unit, so another G and T): beside the host backend, the
four-device deck a GPU machine makes (host, OpenCL, CUDA, OpenMP), whose
tables, keys and answer lists must fit too. Without PoCL the deck has the
devices there are, and the test says that the four-device deck went
unchecked. The run is stopped after three times GS_LECTURE_SECONDS (default
60: a hang, not a slow run; how long it took is printed, never judged: the
minute is a benchmark, recorded in docs/results). Then at 1920x1080:
  - a screenshot of every slide (file://...#slide-N), each a picture and not a
    blank page: at least 16 distinct colours and ink on 2% to 98% of it
    (scripts/check-png.py's decoder: no PIL needed);
  - the page's own layout check (the deck's script writes it into
    <pre id="gs-layout">, read back from the page): no element or text
    outside its slide, outside its box or column, into the footer, or clipped
    by a box, and no text under 24 px as rendered; a slide's own text (its
    prose, tables and keys; not the footer, the kicker or a chart's labels)
    at least 36 px, at most 60 words of prose a slide (the headline,
    paragraphs and lists; tables, charts and code are data, not counted), and
    a headline of at most 2 lines;
  - printed (to PDF), one page per slide.
The same checks must then FAIL on eight broken copies of the deck (an element
wider than the slide, a list that runs into the footer, a heading wider than
its box, a slide of 70 words, text of 12 px, body text of 30 px, a headline
of 3 lines, a slide with everything hidden), so the test cannot pass by
checking nothing.

With --deck it checks a deck made elsewhere (a GPU machine's: it has no
browser), writing each slide's screenshot to OUT_PREFIX-N.png, and exits 1
when a slide does not fit.

One Chromium process serves every check, driven over the DevTools protocol
on a pipe (--remote-debugging-pipe: the standard library is enough): the
deck is loaded once and each slide shown through its own #slide-N, as a
reader's browser does, instead of a browser started for every picture.

Installs nothing: without Chromium (Debian's `chromium`; .ci/run installs it)
it says so and exits 77, which ctest reports as skipped."""
import base64
import importlib.util
import json
import os
import re
import select
import shutil
import subprocess
import sys
import time

MIN_PX = 24.0    # any text, the footer and the kicker too
BODY_PX = 36.0   # a slide's own text: its prose, tables and their keys
MAX_WORDS = 60   # words of prose a slide (tables, charts and code not counted)
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


class Chrome:
    """One headless Chromium, one page, driven over the DevTools protocol on
    the pipe Chromium reads on fd 3 and writes on fd 4 (messages are JSON,
    each ended by a NUL byte)."""

    def __init__(self, exe, timeout=120):
        self.timeout = timeout
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()

        def fds():  # in the child: the pipe's ends on 3 and 4 (either may be 3 or 4 now)
            r, w = os.dup(to_chrome_r), os.dup(from_chrome_w)
            os.dup2(r, 3)
            os.dup2(w, 4)

        self.proc = subprocess.Popen(
            [exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--no-first-run", "--no-default-browser-check", "--disable-extensions",
             f"--window-size={WIDTH},{HEIGHT}", "--remote-debugging-pipe", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=fds, pass_fds=(3, 4))
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buf = b""
        self.next_id = 0
        self.events = []
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget",
                                 {"targetId": target, "flatten": True})["sessionId"]
        self.call("Page.enable", session=True)
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False},
                  session=True)

    def _message(self, deadline):
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.from_chrome], [], [], left)[0]:
                fail(f"Chromium did not answer within {self.timeout} s")
            chunk = os.read(self.from_chrome, 1 << 20)
            if not chunk:
                fail(f"Chromium closed its DevTools pipe (exit {self.proc.poll()})")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=False):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = self.session
        data = json.dumps(msg).encode() + b"\0"
        while data:
            data = data[os.write(self.to_chrome, data):]
        deadline = time.monotonic() + self.timeout
        while True:
            m = self._message(deadline)
            if m.get("id") == self.next_id:
                if "error" in m:
                    fail(f"Chromium: {method}: {m['error'].get('message')}")
                return m.get("result", {})
            if "method" in m:
                self.events.append(m["method"])

    def wait_event(self, name):
        deadline = time.monotonic() + self.timeout
        while name not in self.events:
            m = self._message(deadline)
            if "method" in m:
                self.events.append(m["method"])
        self.events.remove(name)

    def evaluate(self, expression):
        r = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                           "awaitPromise": True}, session=True)
        if "exceptionDetails" in r:
            fail(f"the page's script failed: {r['exceptionDetails'].get('text')}")
        return r.get("result", {}).get("value")

    def load(self, url):
        self.events.clear()
        self.call("Page.navigate", {"url": url}, session=True)
        self.wait_event("Page.loadEventFired")

    def show(self, slide):
        """Slide `slide` of the page loaded, through its #slide-N, painted."""
        self.evaluate(f"location.hash = '#slide-{slide}'; new Promise(function (r) {{ "
                      "requestAnimationFrame(function () { requestAnimationFrame(r); }); })")

    def screenshot(self, path):
        # optimizeForSpeed: a lighter PNG encoding (the same pixels), which the
        # decoder here also reads faster
        r = self.call("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True},
                      session=True)
        with open(path, "wb") as f:
            f.write(base64.b64decode(r["data"]))

    def pdf(self, path):
        r = self.call("Page.printToPDF", {"displayHeaderFooter": False,
                                          "preferCSSPageSize": True}, session=True)
        with open(path, "wb") as f:
            f.write(base64.b64decode(r["data"]))

    def close(self):
        try:
            self.call("Browser.close")
        except SystemExit:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.to_chrome)
        os.close(self.from_chrome)


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
    # Every pixel, a row at a time in C rather than a pixel at a time in
    # Python: a row's red, green and blue bytes as three strings; a pixel is
    # white where all three are 255 (one bit each of three integers, ANDed
    # and counted); its colours are collected until there are 16.
    colours, white = set(), 0
    is_255 = bytes(1 if v == 255 else 0 for v in range(256))
    for line in rows:
        line = bytes(line)
        rgb = [line[k::bpp] for k in range(3)]
        r, g, b = (int.from_bytes(c.translate(is_255), "little") for c in rgb)
        white += bin(r & g & b).count("1")
        if len(colours) < 16:
            colours.update(zip(*rgb))
    total = width * height
    ink = 1 - white / total
    if len(colours) < 16:
        return f"{len(colours)} distinct colours: blank or nearly so"
    if not 0.02 <= ink <= 0.98:
        return f"ink on {ink:.1%} of it: blank, or one flat fill"
    return None


def layout(browser_, html):
    """The deck's own layout check, as its script wrote it on loading html."""
    browser_.load("file://" + html)
    text = browser_.evaluate("(function () { var e = document.getElementById('gs-layout'); "
                             "return e ? e.textContent : null; })()")
    if not text or not text.strip():
        return None
    rows = {}
    for line in text.strip().splitlines():
        f = re.match(r'slide (\d+) overflow=(\d+) minpx=([\d.]+) min=(".*?")(?: kinds="(.*?)")? '
                     r'first=(".*") words=(\d+) bodypx=([\d.]+) body=(".*?") h1lines=(\d+)$',
                     line)
        if f:
            rows[int(f.group(1))] = (int(f.group(2)), float(f.group(3)), f.group(4),
                                     f.group(5) or "out of place", f.group(6), int(f.group(7)),
                                     float(f.group(8)), f.group(9), int(f.group(10)))
    return rows


def problems(browser_, png_mod, html, slides, shots, prefix=None):
    """Every problem of the deck at html, one string each; the screenshots
    are html.slide-N.png, or PREFIX-N.png."""
    out = []
    rows = layout(browser_, html)
    if rows is None:
        return ["the page wrote no layout check into <pre id=\"gs-layout\"> (did its script run?)"]
    for n in range(1, slides + 1):
        if n not in rows:
            out.append(f"slide {n}: not in the layout check")
            continue
        over, px, what, kinds, first, words, body, body_what, h1_lines = rows[n]
        if over:
            out.append(f"slide {n}: {over} element(s) or text runs out of place ({kinds}), "
                       f"the first: {first}")
        if px < MIN_PX:
            out.append(f"slide {n}: text of {px:.1f} px ({what}), under {MIN_PX:.0f} px")
        if body < BODY_PX:
            out.append(f"slide {n}: body text of {body:.1f} px ({body_what}), under "
                       f"{BODY_PX:.0f} px")
        if words > MAX_WORDS:
            out.append(f"slide {n}: {words} words of prose, over {MAX_WORDS}")
        if h1_lines > 2:
            out.append(f"slide {n}: a headline of {h1_lines} lines, over 2")
    for n in shots:
        png = f"{prefix}-{n}.png" if prefix else f"{html}.slide-{n}.png"
        if os.path.exists(png):
            os.remove(png)
        browser_.show(n)
        browser_.screenshot(png)
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


def deck_only(html, prefix):
    """A deck made elsewhere (a GPU machine has no browser): every slide
    rendered to PREFIX-N.png and checked as the test checks its own deck."""
    exe = browser()
    if not exe:
        sys.exit("lecture_browser: no Chromium on this machine (apt-get install "
                 "--no-install-recommends chromium fonts-dejavu-core)")
    html = os.path.abspath(html)
    with open(html, encoding="utf-8") as f:
        slides = len(re.findall(r'<section class="slide" id="slide-\d+">', f.read()))
    browser_ = Chrome(exe)
    try:
        rows = layout(browser_, html) or {}
        for n in sorted(rows):
            over, px, what, kinds, first, words, body, _, h1_lines = rows[n]
            print(f"slide {n}: {over} out of place{' (' + kinds + ')' if over else ''}, "
                  f"smallest text {px:.1f} px, body text {body:.1f} px, {words} words, "
                  f"a headline of {h1_lines} line(s){', the first: ' + first if over else ''}")
        found = problems(browser_, load_png_module(os.path.dirname(os.path.dirname(
            os.path.abspath(__file__)))), html, slides, range(1, slides + 1),
            os.path.abspath(prefix))
    finally:
        browser_.close()
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
        deck_only(args[1], args[2])
    if len(args) != 3:
        sys.exit("usage: tests/lecture_browser.py GRIDSTRIDE SOURCE_DIR WORK_DIR")
    gridstride, source, work = (os.path.abspath(a) for a in args)
    exe = browser()
    if not exe:
        print("lecture_browser: SKIP: no Chromium on this machine (install Debian's chromium "
              "package: apt-get install --no-install-recommends chromium fonts-dejavu-core)")
        sys.exit(77)
    os.makedirs(work, exist_ok=True)
    html = os.path.join(work, "lecture.html")
    if os.path.exists(html):
        os.remove(html)
    limit = float(os.environ.get("GS_LECTURE_SECONDS", "60"))
    t0 = time.monotonic()
    env = dict(os.environ)
    env["POCL_DEVICES"] = MANY_POCL
    cmd = [gridstride, "lecture", "--device", "all", "--html", html, "--quiet"]
    r = subprocess.run(cmd, cwd=source, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=limit * 3)
    took = time.monotonic() - t0
    if r.returncode != 0:
        fail(f"gridstride lecture exited {r.returncode}: {r.stderr.decode()[-2000:]}")
    print(f"lecture_browser: POCL_DEVICES='{MANY_POCL}' gridstride {' '.join(cmd[1:])} took "
          f"{took:.1f} s")
    with open(html, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r'<section class="slide" id="slide-2">(.*?)</section>', text, re.S)
    ndev = m.group(1).count('<span class="keyitem">') if m else 0
    if ndev >= MANY_DEVICES:
        print(f"lecture_browser: a deck of {ndev} devices")
    else:
        print(f"lecture_browser: a deck of {ndev or 'at most 2'} devices, not {MANY_DEVICES}: "
              "no PoCL here (or a build without OpenCL), so the tables and keys of a deck "
              "with several APIs are not checked on this machine")
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
    browser_ = Chrome(exe)
    try:
        check_deck(browser_, source, work, html, slides)
    finally:
        browser_.close()
    print("lecture_browser: ok")


def check_deck(browser_, source, work, html, slides):
    # The print stylesheet: one slide a page.
    pdf = html + ".pdf"
    if os.path.exists(pdf):
        os.remove(pdf)
    browser_.load("file://" + html)
    browser_.pdf(pdf)
    if not os.path.exists(pdf):
        fail("chromium --print-to-pdf wrote no PDF")
    with open(pdf, "rb") as f:
        pages = len(re.findall(rb"/Type\s*/Page[^s]", f.read()))
    if pages != slides:
        fail(f"printed, the deck is {pages} pages, not one page for each of its {slides} slides")
    print(f"lecture_browser: printed, {pages} pages: one slide a page")
    png_mod = load_png_module(source)
    found = problems(browser_, png_mod, html, slides, range(1, slides + 1))
    if found:
        fail("; ".join(found))
    print(f"lecture_browser: {slides} slides at {WIDTH}x{HEIGHT}: every screenshot a picture, "
          f"nothing out of place, no text under {MIN_PX:.0f} px, body text from {BODY_PX:.0f} "
          f"px, at most {MAX_WORDS} words of prose and a headline of at most 2 lines a slide")
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
        ("a heading wider than its box", 1,
         broken(html, os.path.join(work, "broken-box.html"), 1, "",
                "#slide-1 .box h2{width:1200px}\n"),
         "outside its box"),
        ("a slide of 70 words", 4,
         broken(html, os.path.join(work, "broken-words.html"), 4,
                "<p>" + "word " * 70 + "</p>\n", "#slide-4 svg{display:none}\n"),
         "words of prose"),
        ("body text of 30 px", 7,
         broken(html, os.path.join(work, "broken-body.html"), 7,
                '<p style="font-size:30px">not for the back row</p>\n'),
         "body text of 30.0 px"),
        ("a headline of 3 lines", 7,
         broken(html, os.path.join(work, "broken-headline.html"), 7, "",
                "#slide-7 h1{width:500px}\n"),
         "a headline of"),
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
        got = problems(browser_, png_mod, path, slides, [n] if expect == "screenshot" else [])
        if not any(f"slide {n}:" in p and expect in p for p in got):
            fail(f"the check did not catch {what} on slide {n} (it found: {got or 'nothing'})")
        print(f"lecture_browser: caught {what}: {[p for p in got if f'slide {n}:' in p][0]}")


if __name__ == "__main__":
    main()
