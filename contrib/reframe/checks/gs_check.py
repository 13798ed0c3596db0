# SPDX-License-Identifier: MIT
"""`gridstride check` of every example of examples/, on each backend that
can run it, judged against the verdict the example's own header states in
its " * expect: " line (the same rules as tests/check_example.cmake):

  expect: ok                    exit 0, verdict ok
  expect: CLASS [n=N] [shape=GxB] [first=I]
                                exit 1, verdict wrong, the smallest failing case
                                of that class (G: the device grid)
  expect: usage [parameter=K]   exit 2, the JSON verdict bad-signature (or
                                bad-usage), one line on stderr (naming K)
  expect: compile-error         exit 2, the JSON verdict compile-error with a
                                diagnostic at the line marked "error-here", and
                                the compiler's message there on stderr

A file runs by its extension (.cl on opencl, .cu on cuda, .gs on host, opencl
and cuda) unless a " * backends: " line says otherwise."""
import glob
import json
import os
import re
import sys

import reframe as rfm
import reframe.utility.sanity as sn
from reframe.core.builtins import parameter, run_after, run_before, sanity_function

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import gs_common  # noqa: E402

RUNS_BY_EXTENSION = {'.cl': ['opencl'], '.cu': ['cuda'], '.gs': ['host', 'opencl', 'cuda']}


def header_line(path, key):
    with open(path, encoding='utf-8') as f:
        for line in f:
            if line.startswith(f' * {key}: '):
                return line[len(f' * {key}: '):].strip()
    return None


def cases():
    """(example file name, backend) for every example and backend that runs it."""
    out = []
    for path in sorted(glob.glob(gs_common.repo_path('examples', '*'))):
        ext = os.path.splitext(path)[1]
        if ext not in RUNS_BY_EXTENSION:
            continue
        backends = header_line(path, 'backends')
        for b in (backends.split() if backends else RUNS_BY_EXTENSION[ext]):
            out.append((os.path.basename(path), b))
    return out


def error_line(path):
    with open(path, encoding='utf-8') as f:
        for i, line in enumerate(f, 1):
            if 'error-here' in line:
                return i
    raise ValueError(f'{path}: no line marked error-here')


def judge(path, backend, expect, code, out, err):
    """None when the run matches the expect line, else what differs."""
    base = os.path.basename(path)
    cls = re.match(r'[a-z-]+', expect).group(0)
    if cls == 'compile-error':
        line = error_line(path)
        if code != 2 or not re.search(rf'{re.escape(base)}(\({line}\)|:{line}:)', err):
            return f'expected exit 2 and the compiler\'s message at {base} line {line}'
        doc = json.loads(out)
        if doc.get('verdict') != 'compile-error':
            return f'verdict {doc.get("verdict")}, expected compile-error'
        if backend != 'cuda' and not any(d.get('line') == line
                                         for d in doc.get('diagnostics', [])):
            return f'expected a diagnostic at line {line} in the JSON'
        return None
    if cls == 'usage':
        if code != 2 or err.count('\n') != 1:
            return 'expected exit 2 and one line on stderr'
        if json.loads(out).get('verdict') not in ('bad-signature', 'bad-usage'):
            return 'expected the JSON verdict bad-signature'
        m = re.search(r' parameter=(\d+)', expect)
        if m and f'parameter {m.group(1)} ' not in err:
            return f'expected the line to name parameter {m.group(1)}'
        return None
    want = 0 if cls == 'ok' else 1
    if code != want:
        return f'expected exit {want} and a report, got exit {code}'
    doc = json.loads(out)
    if doc['backends'][0]['backend'] != backend:
        return f'the report is for {doc["backends"][0]["backend"]}, not {backend}'
    if cls == 'ok':
        return None if doc['verdict'] == 'ok' else f'verdict {doc["verdict"]}, expected ok'
    if doc['verdict'] != 'wrong':
        return f'verdict {doc["verdict"]}, expected wrong'
    b = doc['backends'][0]
    s = b['smallest']
    if s['class'] != cls:
        return f'the smallest failing case is {s["class"]}, expected {cls}'
    m = re.search(r' n=(\d+)', expect)
    if m and s['n'] != int(m.group(1)):
        return f'the smallest failing n is {s["n"]}, expected {m.group(1)}'
    m = re.search(r' shape=([0-9G]+)x(\d+)', expect)
    if m:
        grid = b['G'] if m.group(1) == 'G' else int(m.group(1))
        if (s['grid'], s['block']) != (grid, int(m.group(2))):
            return (f'the smallest failing shape is <<<{s["grid"]}, {s["block"]}>>>, '
                    f'expected <<<{grid}, {m.group(2)}>>>')
    m = re.search(r' first=(\d+)', expect)
    if m and s['first_wrong_indices'][0]['index'] != int(m.group(1)):
        return (f'the first wrong index is {s["first_wrong_indices"][0]["index"]}, '
                f'expected {m.group(1)}')
    return None


@rfm.simple_test
class GridstrideCheck(gs_common.GridstrideBase):
    descr = 'gridstride check of an example: the verdict its header states'
    case = parameter(cases(), fmt=lambda c: f'{c[0]}@{c[1]}')
    tags = {'gridstride', 'correctness', 'check'}

    @run_after('setup')
    def only_this_partitions_backends(self):
        self.skip_unless_backend(self.case[1])

    @run_before('run')
    def set_command(self):
        self.example = gs_common.repo_path('examples', self.case[0])
        self.expect = header_line(self.example, 'expect')
        self.executable_opts = ['check', self.example, '--backend', self.case[1],
                                '--format', 'json']

    @sanity_function
    def verdict_as_stated(self):
        with open(os.path.join(self.stagedir, self.stdout.evaluate()), encoding='utf-8') as f:
            out = f.read()
        with open(os.path.join(self.stagedir, self.stderr.evaluate()), encoding='utf-8') as f:
            err = f.read()
        why = judge(self.example, self.case[1], self.expect, self.exit_code(), out, err)
        return sn.assert_true(why is None,
                              msg=f'{self.case[0]} on {self.case[1]} (expect: {self.expect}): '
                                  f'{why}')
