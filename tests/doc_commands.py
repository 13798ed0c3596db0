#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The fenced commands of README.md and docs/ that are marked runnable,
run as written.

    tests/doc_commands.py BUILD_DIR SOURCE_DIR WORK_DIR

A block opened with ```sh runnable is a list of cheap commands a reader can
type: each block runs in bash (-e -u -o pipefail) in WORK_DIR, with the
build's gridstride first on PATH and the source tree's docs/ and
examples/ reachable by their relative names, and must exit 0. Exit 1 names
each failing block by file and line; every block that ran is listed.
"""
import glob
import os
import re
import shutil
import subprocess
import sys

if len(sys.argv) != 4:
    print("usage: doc_commands.py BUILD_DIR SOURCE_DIR WORK_DIR", file=sys.stderr)
    sys.exit(2)
BUILD, SRC, WORK = (os.path.abspath(a) for a in sys.argv[1:])
pages = [os.path.join(SRC, "README.md")] + sorted(
    glob.glob(os.path.join(SRC, "docs", "**", "*.md"), recursive=True))
OPEN = re.compile(r"^```sh runnable\s*$")
blocks = []
for page in pages:
    with open(page) as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        if OPEN.match(lines[i]):
            start = i + 1
            j = start
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            blocks.append((os.path.relpath(page, SRC), start, "\n".join(lines[start:j])))
            i = j
        i += 1
if os.path.exists(WORK):
    shutil.rmtree(WORK)
os.makedirs(WORK)
for name in ("docs", "examples"):
    os.symlink(os.path.join(SRC, name), os.path.join(WORK, name))
env = dict(os.environ, PATH=BUILD + os.pathsep + os.environ.get("PATH", ""), LC_ALL="C")
env.pop("GRIDSTRIDE_REQUIRE", None)
bad = 0
for page, line, text in blocks:
    p = subprocess.run(["bash", "-euo", "pipefail", "-c", text], cwd=WORK, env=env,
                       capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        bad += 1
        print("docs: FAIL %s:%d (exit %d)\n%s\n--- stderr\n%s" % (page, line, p.returncode, text,
                                                             p.stderr[-2000:]))
    else:
        print("docs: ok %s:%d" % (page, line))
pages_with = sorted({b[0] for b in blocks})
print("docs: %d runnable blocks in %d pages (%s), %d failed"
      % (len(blocks), len(pages_with), ", ".join(pages_with), bad))
if not blocks:
    print("docs: FAIL no block is marked ```sh runnable")
    sys.exit(1)
sys.exit(1 if bad else 0)
