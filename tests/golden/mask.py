#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The masking step of the golden-output test (tests/golden.sh).

Reads what each case of commands.txt produced (its exit status, stdout,
stderr, and every file it wrote in its own folder) and writes one masked,
combined text per case, which golden.sh compares with expected/NAME.txt.

Masking replaces ONLY what legitimately differs between two runs, two builds
or two machines, each with a named placeholder, so that everything else
(verdicts, predictions, wrong@ cells, counts, indices, error messages, exit
statuses, JSON member names and their order, layout) stays compared:

  run      dates (<DATE>); timings and everything computed from them in the
           bandwidth rows, the sweep, the bandwidth comparison and their JSON
           and CSV (<T>: GB/s, %copy, %best, ms, us, ratios, samples, which
           row was fastest, the crossover); progress lines on stderr, which
           appear only once a run has taken a second (deleted); the host's
           and PoCL's free memory in the pitfalls' "skipped" lines (<MEM>)
  build    the gridstride version (<VERSION>) and toolkit string
           (<TOOLKIT>), both given by CMake; the commit the build was made
           from, in --version, the results files and compare (<COMMIT>);
           the host C compiler's `cc --version` line (<CC-VERSION>)
  paths    the source tree (<SRC>) and the test's work folder (<WORK>)
  machine  compute units (<N>), memory sizes of --list (<MEM>), and PoCL's
           details: its device name, which is the CPU's (<OPENCL-DEVICE>,
           also where a table column cuts it short), its HSTR (<HSTR>) and
           its driver version (<OPENCL-DRIVER>); in a table with a column
           headed by that name (compare's), the runs of spaces that pad its
           rows to the name's width (one space)

Case-specific grids and sizes (--grid 8, --sizes ...) keep the rest of the
output independent of the machine; cases that show the machine's own grid
are limited by commands.txt to a machine like the one that recorded them.

With --expected DIR it also compares each masked text with DIR/NAME.txt and
prints one line for each that is not the same, "differs NAME" or "missing
NAME" (golden.sh shows the differences, or updates the files): one process
compares them all, rather than a cmp a case.

usage: mask.py --raw DIR --out DIR [--expected DIR] [--src D] [--work D]
               [--version V] [--toolkit T] [--opencl-device NAME]
               [--opencl-driver V] NAME...
"""
import argparse
import os
import re
import sys

T = "<T>"  # a timing, or a value computed from timings

# --- run: timing-gated progress lines (stderr), deleted -------------------
# Printed only once a run has taken more than a second, so whether they
# appear at all depends on the machine's speed and load.
PROGRESS = [
    re.compile(r"^gridstride: .*: (inputs|poison|read\+verify) \d+%$"),
    re.compile(r"^bandwidth: \S+ \d+/\d+ .*: (\d+\.\d GB/s|WRONG)$"),
    re.compile(r"^bandwidth --sweep: \S+ \d+/\d+ n = \d+ done$"),
]

DATE = re.compile(r"\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:?\d\d)?\b")

# --- run: timings in JSON, by member name ---------------------------------
# Numbers only: a null stays null, and each member keeps its place.
JSON_TIMED = ("min_ms|median_ms|max_ms|mean_ms|stddev_ms|gbps|pct_of_copy|pct_of_best|"
              "copy_gbps|best_gbps|chunked_over_coalesced|stride32_over_coalesced|"
              "pct_of_peak|min_us|median_us|max_us|mean_us|stddev_us|wall_s")
JSON_NUMBER = re.compile(r'("(?:%s)": )-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?' % JSON_TIMED)
# Sample arrays: every sample masked, their count kept.
JSON_SAMPLES = re.compile(r'("samples_(?:ms|us)": \[)([^\]]*)(\])')
SAMPLE = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
# check's wall time by phase: every number of the object masked, its keys kept.
JSON_ELAPSED = re.compile(r'("elapsed_s": \{)([^}]*)(\})')
# Which row was fastest, and where the sweep's crossover fell: chosen by timings.
JSON_BEST = re.compile(r'("best_variant": )"(?:[^"\\]|\\.)*"')
JSON_CROSSOVER = re.compile(r'("crossover": )"(found|none)", ("crossover_n": )(\d+|null)')

# --- run: timings in text reports ----------------------------------------
# A table row whose cells after its first '|' hold nothing but decimal
# numbers (12.3, 45.6%, 0.78x, 0.29..0.31): a bandwidth row (GB/s %copy
# %best min..max ms, spread), a sweep row (us GB/s ..., the ratios) or a
# bandwidth comparison row (GB/s, vs 1). What is left of the first '|' (the
# variant, MB/launch, KB/SM; the sweep's n) is kept; a cell with a word in
# it (WRONG, ok, wrong@I) keeps the whole row unmasked.
TIMED_TOKEN = re.compile(r"^(\d+\.\d+)(%|x)?$|^\d+\.\d+\.\.\d+\.\d+$")
DECIMAL = re.compile(r"\d+\.\d+")
# The bandwidth report's summary lines, computed from the timings.
BW_REFERENCES = re.compile(r"(references: the API's copy )[\d.]+( GB/s; the best row )"
                           r'"[^"]*" [\d.]+ GB/s \([\d.]+% of the copy\)')
BW_BEST_LAUNCH = re.compile(r'(best launch of \S+: )"[^"]*", <<<\d+, \d+>>>, [\d.]+ trips a '
                            r"thread, [\d.]+ GB/s \([\d.]+% of the copy\)")
# The bandwidth report's first line: each API's fastest GB/s.
BW_SUMMARY = re.compile(r"^(bandwidth: .*; fastest:.*)$")
GBPS = re.compile(r"\d+\.\d+( GB/s)")
BW_RATIO = re.compile(r"= [\d.]+ \([\d.]+x (?:faster|slower)\)")
# The sweep's crossover sentences (but not "no crossover computed", which
# says a point was wrong): which form a sentence takes depends on timings.
SWEEP_VARIANT = r"(grid-stride on (?:G|min\(G, ceil\(n/B\)\)))"
SWEEP_SENTENCE = [
    re.compile(r"^(\S+: )below n = 2\^\d+ %s costs up to .*$" % SWEEP_VARIANT),
    re.compile(r"^(\S+: )%s is more than \d+%% slower than the monolithic kernel .*$"
               % SWEEP_VARIANT),
    re.compile(r"^(\S+: )at every n of the sweep \(2\^\d+ to 2\^\d+\) %s is within .*$"
               % SWEEP_VARIANT),
]

# --- run and machine: memory ------------------------------------------------
PIT_MEMORY = [
    re.compile(r"(this device has )[\d.]+( GB)"),
    re.compile(r"(buffers of at most )[\d.]+( GB)"),
    re.compile(r"(which has )\d+( bytes available)"),
]
LIST_MEMORY = re.compile(r"(blocks up to \d+ threads, )[\d.]+( [KMGT]iB, largest buffer )"
                         r"[\d.]+( [KMGT]iB)")
# --list --format json: the same sizes, in bytes.
LIST_MEMORY_JSON = re.compile(r'("(?:global_mem|max_alloc)": )\d+')

# --- machine: compute units -------------------------------------------------
CU_TEXT = re.compile(r"\b\d+( compute units?)\b")
CU_JSON = re.compile(r'("compute_units": )\d+')

# --- machine: PoCL ----------------------------------------------------------
HSTR = re.compile(r"(PoCL HSTR: )[A-Za-z0-9_.+-]+")

# --- build: the host C compiler ---------------------------------------------
CC_VERSION = re.compile(r"( -std=c11 -O2 )\[[^\]\n]*\]")
# --version: the commit the build was configured from, and its build type.
VERSION_COMMIT = re.compile(r"^(commit: )\S+", re.M)
# The commit in results files: JSON's "commit", Markdown's "Commit:" line
# (check's "- commit:"), compare's "  commit ..." line of each file; CSV's
# column by name (CSV_MASKED). A file without one ("not recorded", null) stays.
COMMIT = r"(?:[0-9a-f]{7,40}(?:-modified)?|unknown \(not a git checkout\))"
COMMIT_JSON = re.compile(r'("commit": )"%s"' % COMMIT)
COMMIT_TEXT = re.compile(r"^(Commit: `|- commit: `|  commit )%s" % COMMIT)
VERSION_BUILD_TYPE = re.compile(r"^(build type: )\S+", re.M)

# --- tables in CSV and Markdown: columns by header name ----------------------
CSV_HEADER = re.compile(r"^[A-Za-z][A-Za-z0-9_]*(,[A-Za-z][A-Za-z0-9_]*)+$")
CSV_FIELD = re.compile(r'"(?:[^"]|"")*"|[^,]*')
CSV_MASKED = {
    "compute_units": "<N>",
    "min_ms": T, "median_ms": T, "max_ms": T, "mean_ms": T, "stddev_ms": T,
    "min_us": T, "median_us": T, "max_us": T, "mean_us": T, "stddev_us": T,
    "gbps": T, "pct_of_copy": T, "pct_of_best": T, "pct_of_peak": T, "best_variant": T,
    "crossover": T, "crossover_n": T, "commit": "<COMMIT>",
}
MD_RULE = re.compile(r"^\|(\s*:?-+:?\s*\|)+\s*$")


def md_masked(header):
    h = header.strip()
    if h == "compute units":
        return "<N>"
    if re.search(r"(GB/s|%copy|%best|\bus|vs \d+|/mono|^spread)$", h):
        return T
    return None


def csv_fields(line):
    out, pos = [], 0
    while True:
        m = CSV_FIELD.match(line, pos)
        out.append(m.group(0))
        pos = m.end()
        if pos >= len(line) or line[pos] != ",":
            return out
        pos += 1


def mask_tables(lines):
    """CSV (a header line, then rows) and Markdown pipe tables: mask the
    cells of the columns named in CSV_MASKED / md_masked, keep the rest."""
    out, i = [], 0
    while i < len(lines):
        line = lines[i]
        if CSV_HEADER.match(line):
            names = line.split(",")
            masked = {k: CSV_MASKED[n] for k, n in enumerate(names) if n in CSV_MASKED}
            out.append(line)
            i += 1
            while masked and i < len(lines) and lines[i] and not CSV_HEADER.match(lines[i]):
                f = csv_fields(lines[i])
                if len(f) == len(names):
                    f = [masked.get(k, v) if v not in ("", '""') else v for k, v in enumerate(f)]
                out.append(",".join(f))
                i += 1
            continue
        if line.startswith("|") and i + 1 < len(lines) and MD_RULE.match(lines[i + 1]):
            cells = line.split("|")
            masked = {k: md_masked(c) for k, c in enumerate(cells) if md_masked(c)}
            out += [line, lines[i + 1]]
            i += 2
            while masked and i < len(lines) and lines[i].startswith("|"):
                c = lines[i].split("|")
                if len(c) == len(cells):
                    for k, v in masked.items():
                        if c[k].strip():
                            c[k] = " %s " % v
                out.append("|".join(c))
                i += 1
            continue
        out.append(line)
        i += 1
    return out


DEVICE_COLUMN = re.compile(r"\] <OPENCL-DEVICE> \|")
SPACES = re.compile(r"  +")


def device_width_tables(lines):
    """A table with a column headed by PoCL's device name (compare's tables:
    "| 2 opencl [0:0] <OPENCL-DEVICE> |") is as wide as that name, which is
    the machine's CPU: in the block of lines (up to a blank line) holding
    such a header, every run of spaces in a line with a '|' becomes one
    space. The cells, their order and the '|' between them stay compared."""
    out, block = [], []

    def flush():
        if any(DEVICE_COLUMN.search(ln) for ln in block):
            block[:] = [SPACES.sub(" ", ln) if "|" in ln else ln for ln in block]
        out.extend(block)
        block.clear()

    for ln in lines:
        if ln.strip():
            block.append(ln)
        else:
            flush()
            out.append(ln)
    flush()
    return out


def mask_timed_row(line):
    if "|" not in line:
        return line
    head, rest = line.split("|", 1)
    cells = rest.split("|")
    tokens = [c.split() for c in cells]
    flat = [t for ts in tokens for t in ts]
    if not flat or not all(TIMED_TOKEN.match(t) or t == "-" for t in flat):
        return line
    if not any(DECIMAL.search(t) for t in flat):
        return line
    new = []
    for k, ts in enumerate(tokens):
        ts = [DECIMAL.sub(T, t) for t in ts]
        last = k == len(tokens) - 1
        if not ts:
            new.append("" if last else " ")
        else:
            new.append(" " + " ".join(ts) + ("" if last else " "))
    return head + "|" + "|".join(new)


class Masker:
    def __init__(self, a):
        self.literals = []  # (text, placeholder), longest first
        for path, name in ((a.work, "<WORK>"), (a.src, "<SRC>")):
            if path:
                for p in {path, os.path.realpath(path)}:
                    self.literals.append((p.rstrip("/"), name))
        if a.toolkit:
            self.literals.append((a.toolkit, "<TOOLKIT>"))
        if a.opencl_driver:
            self.literals.append((a.opencl_driver, "<OPENCL-DRIVER>"))
        self.literals.sort(key=lambda t: -len(t[0]))
        self.version = a.version
        self.device = a.opencl_device
        if self.device:
            # A table's column header may cut the name short ("[0:0] pthr |"):
            # any non-empty prefix of it right after the id and before a '|'.
            alts = "|".join(re.escape(self.device[:k]) for k in range(len(self.device), 0, -1))
            self.device_cell = re.compile(r"(\] )(?:<OPENCL-DEVICE>|%s) *\|" % alts)

    def line(self, s):
        for text, name in self.literals:
            s = s.replace(text, name)
        if self.device:
            s = s.replace(self.device, "<OPENCL-DEVICE>")
            s = self.device_cell.sub(r"\1<OPENCL-DEVICE> |", s)
        if self.version:
            v = re.escape(self.version)
            s = re.sub(r"(\bgridstride )%s\b" % v, r"\1<VERSION>", s)
            s = re.sub(r'("version": )"%s"' % v, r'\1"<VERSION>"', s)
        s = DATE.sub("<DATE>", s)
        s = HSTR.sub(r"\1<HSTR>", s)
        s = CC_VERSION.sub(r"\1[<CC-VERSION>]", s)
        s = VERSION_COMMIT.sub(r"\1<COMMIT>", s)
        s = VERSION_BUILD_TYPE.sub(r"\1<BUILD-TYPE>", s)
        s = COMMIT_JSON.sub(r'\1"<COMMIT>"', s)
        s = COMMIT_TEXT.sub(r"\1<COMMIT>", s)
        s = CU_TEXT.sub(r"<N>\1", s)
        s = CU_JSON.sub(r"\1<N>", s)
        s = LIST_MEMORY.sub(r"\1<MEM>\2<MEM>\3", s)
        s = LIST_MEMORY_JSON.sub(r"\1<MEM>", s)
        for r in PIT_MEMORY:
            s = r.sub(r"\1<MEM>\2", s)
        # timings
        s = JSON_NUMBER.sub(r"\1" + T, s)
        s = JSON_SAMPLES.sub(lambda m: m.group(1) + SAMPLE.sub(T, m.group(2)) + m.group(3), s)
        s = JSON_ELAPSED.sub(lambda m: m.group(1) + SAMPLE.sub(T, m.group(2)) + m.group(3), s)
        s = JSON_BEST.sub(r'\1"%s"' % T, s)
        s = JSON_CROSSOVER.sub(r'\1"%s", \3%s' % (T, T), s)
        s = BW_REFERENCES.sub(r'\1%s\2"%s" %s GB/s (%s%% of the copy)' % (T, T, T, T), s)
        s = BW_BEST_LAUNCH.sub(r'\1"%s", <<<%s, %s>>>, %s trips a thread, %s GB/s (%s%% of the copy)'
                               % ((T,) * 6), s)
        s = BW_SUMMARY.sub(lambda m: GBPS.sub(T + r"\1", m.group(1)), s)
        s = BW_RATIO.sub("= %s (%sx faster or slower)" % (T, T), s)
        for r in SWEEP_SENTENCE:
            s = r.sub(r"\1\2: %s (the crossover sentence, from timings)" % T, s)
        return mask_timed_row(s)

    def text(self, data, stderr=False):
        if not data:
            return ["(empty)"]
        text = data.decode("utf-8", "backslashreplace")
        lines = text.split("\n")
        newline = lines[-1] == ""
        if newline:
            lines.pop()
        if stderr:
            lines = [ln for ln in lines if not any(p.match(ln) for p in PROGRESS)]
        lines = device_width_tables(mask_tables([self.line(ln) for ln in lines]))
        if not newline:
            lines.append("\\ no newline at the end")
        return lines or ["(empty)"]


def read(path):
    with open(path, "rb") as f:
        return f.read()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--raw", required=True, help="NAME.cmd, .rc, .out, .err of each case")
    ap.add_argument("--out", required=True, help="where NAME.txt goes")
    ap.add_argument("--expected", default="", help="NAME.txt to compare with")
    ap.add_argument("--src", default="")
    ap.add_argument("--work", default="", help="the parent of each case's folder")
    ap.add_argument("--version", default="")
    ap.add_argument("--toolkit", default="")
    ap.add_argument("--opencl-device", default="")
    ap.add_argument("--opencl-driver", default="")
    ap.add_argument("names", nargs="*")
    a = ap.parse_args()
    m = Masker(a)
    os.makedirs(a.out, exist_ok=True)
    for name in a.names:
        raw = os.path.join(a.raw, name)
        cmd = read(raw + ".cmd").decode().strip()
        rc = read(raw + ".rc").decode().strip()
        words = cmd.split()
        env = []
        while words and re.match(r"[A-Za-z_][A-Za-z0-9_]*=", words[0]):
            env.append(words.pop(0))
        shown = " ".join(env + ["gridstride"] + words).replace("@SRC@", "<SRC>")
        out = ["$ " + shown, "exit status: " + rc, "--- stdout"]
        out += m.text(read(raw + ".out"))
        out += ["--- stderr"] + m.text(read(raw + ".err"), stderr=True)
        folder = os.path.join(a.work, name)
        for root, dirs, files in os.walk(folder):
            dirs.sort()
            for f in sorted(files):
                p = os.path.join(root, f)
                out += ["--- file " + os.path.relpath(p, folder)] + m.text(read(p))
        text = "\n".join(out) + "\n"
        with open(os.path.join(a.out, name + ".txt"), "w", encoding="utf-8") as f:
            f.write(text)
        if a.expected:
            try:
                with open(os.path.join(a.expected, name + ".txt"), "rb") as f:
                    if f.read() != text.encode("utf-8"):
                        print("differs", name)
            except FileNotFoundError:
                print("missing", name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
