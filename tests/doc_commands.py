#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The fenced commands of README.md and docs/ that are marked runnable,
run as typed, from a fresh clone.

    tests/doc_commands.py BUILD_DIR SOURCE_DIR WORK_DIR

A block opened with ```sh runnable is a list of cheap commands a reader can
type after the quick start, in the clone's top folder. WORK_DIR becomes that
clone: the source tree's tracked files (what `git clone` would give; every
file but build folders when SOURCE_DIR is not a git checkout), committed in a
repository of its own, with a folder build/ holding only a link to BUILD_DIR's
gridstride, where the quick start puts it. Nothing is on PATH for it. Each
block runs in bash (-e -u -o pipefail) there and must exit 0; afterwards
`git status --porcelain --ignored` must list nothing outside build/: a block
that leaves a file in the checkout fails the test. Exit 1 names each failing
block by file and line, and each leftover file; every block that ran is
listed.
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
GIT = ["git", "-c", "user.name=doc", "-c", "user.email=doc@localhost", "-c", "init.defaultBranch=main",
       "-c", "core.hooksPath=/dev/null", "-c", "commit.gpgsign=false"]


def tracked(src):
    """The files a clone of src holds: git's list, or every file but build folders."""
    p = subprocess.run(["git", "-C", src, "ls-files", "-z", "--cached"], capture_output=True)
    if p.returncode == 0 and p.stdout:
        return [f for f in p.stdout.decode().split("\0") if f]
    out = []
    for root, dirs, files in os.walk(src):
        dirs[:] = [d for d in dirs if not (root == src and (d.startswith("build") or d == ".git"))]
        out += [os.path.relpath(os.path.join(root, f), src) for f in files]
    return out


def fresh_clone(src, work):
    if os.path.exists(work):
        shutil.rmtree(work)
    os.makedirs(work)
    for rel in tracked(src):
        s = os.path.join(src, rel)
        if not os.path.lexists(s):  # deleted in the working tree, not yet committed
            continue
        d = os.path.join(work, rel)
        os.makedirs(os.path.dirname(d), exist_ok=True)
        if os.path.islink(s):
            os.symlink(os.readlink(s), d)
        else:
            shutil.copy2(s, d)
    for cmd in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "clone"]):
        subprocess.run(GIT + cmd, cwd=work, check=True, capture_output=True)
    os.makedirs(os.path.join(work, "build"))
    os.symlink(os.path.join(BUILD, "gridstride"), os.path.join(work, "build", "gridstride"))


def leftovers(work):
    p = subprocess.run(GIT + ["status", "--porcelain", "--ignored", "--untracked-files=all"],
                       cwd=work, capture_output=True, text=True, check=True)
    return [ln for ln in p.stdout.splitlines() if not ln[3:].startswith("build/")]


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
fresh_clone(SRC, WORK)
env = dict(os.environ, LC_ALL="C")
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
left = leftovers(WORK)
for ln in left:
    bad += 1
    print("docs: FAIL a block left %s in the checkout (write into build/ instead)" % ln[3:])
pages_with = sorted({b[0] for b in blocks})
print("docs: %d runnable blocks in %d pages (%s), %d failures"
      % (len(blocks), len(pages_with), ", ".join(pages_with), bad))
if not blocks:
    print("docs: FAIL no block is marked ```sh runnable")
    sys.exit(1)
sys.exit(1 if bad else 0)
