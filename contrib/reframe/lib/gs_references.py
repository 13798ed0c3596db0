# SPDX-License-Identifier: MIT
"""Reference values of the bandwidth test, per system:partition and per API,
as ReFrame tuples (value, lower, upper, unit): lower and upper are fractions
of the value (-0.10: fails more than 10 % below it; None: no bound).

A site adds its own: run the bandwidth test once on a node it trusts
(reframe ... -n GridstrideBandwidth --performance-report), and add an entry
'SYSTEM:PARTITION': {API: {variable: (value, lower, upper, 'GB/s')}} to
SITE_REFERENCES in a file of its own, named by GS_RFM_REFERENCES (a Python
file defining SITE_REFERENCES), or here."""
import os
import runpy

import gs_common

# A GPU node of the same model should come within these fractions of the
# reference: 10 % for the streaming rows, 20 % for the chunked copy (a
# pathological pattern whose speed depends on the cache's luck). No upper
# bound: faster is never a failure.
GPU_BOUNDS = {'best_add': (-0.10, None), 'gridstride_add': (-0.10, None),
              'chunked_copy': (-0.20, None), 'api_copy': (-0.10, None)}


def from_results(path, bounds):
    """{API: {variable: tuple}} from a `gridstride bandwidth --json` file."""
    doc = gs_common.load_json(path)
    out = {}
    for run in doc['runs']:
        m = gs_common.bandwidth_metrics(run)
        out[run['backend']] = {k: (v, bounds[k][0], bounds[k][1], 'GB/s')
                               for k, v in m.items() if v is not None}
    return out


# This CPU machine's PoCL and host backends at --bytes 1MiB --reps 5 (the CI
# size), measured on a shared 2-core machine. Reported, never judged: the
# bounds are None, so a busy CI machine never fails the benchmark; the
# values are there so that --performance-report shows how far a run is from
# the usual.
CPU_CI = {
    'host': {'best_add': (31.9, None, None, 'GB/s'), 'gridstride_add': (3.6, None, None, 'GB/s'),
             'chunked_copy': (56.4, None, None, 'GB/s'), 'api_copy': (54.1, None, None, 'GB/s')},
    'opencl': {'best_add': (33.1, None, None, 'GB/s'),
               'gridstride_add': (3.6, None, None, 'GB/s'),
               'chunked_copy': (55.7, None, None, 'GB/s'),
               'api_copy': (70.1, None, None, 'GB/s')},
}

REFERENCES = {
    # docs/results/h200-bandwidth.json: OpenCL and CUDA at 4 GiB a buffer.
    # It has no OpenMP run, so the OpenMP backend has no H200 reference.
    'h200:gpu': from_results(gs_common.repo_path('docs', 'results', 'h200-bandwidth.json'),
                             GPU_BOUNDS),
    # docs/reference/t4-seed002.json is a correctness table only (no bandwidth
    # was recorded on the T4), so there is no T4 entry.
    'local:default': CPU_CI,
    'ci-slurm:default': CPU_CI,
}

_site = os.environ.get('GS_RFM_REFERENCES')
if _site:
    REFERENCES.update(runpy.run_path(_site)['SITE_REFERENCES'])


def for_backend(backend):
    """ReFrame's reference dict of one API: {'system:partition': {var: tuple}}."""
    return {sp: apis[backend] for sp, apis in REFERENCES.items() if backend in apis}
