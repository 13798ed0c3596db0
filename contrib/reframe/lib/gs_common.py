# SPDX-License-Identifier: MIT
"""What every gridstride test shares: where the program and the repository
are, which backends a partition runs, one GPU per test, and the readers of
gridstride's JSON."""
import json
import os

import reframe as rfm
from reframe.core.builtins import run_after, variable

EXIT_FILE = 'gridstride.exit'
REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))
# One run per device, its JSON named <node>.<backend><index>.<mode>.json.
PER_DEVICE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'gs_per_device.sh')


def repo_path(*parts):
    return os.path.join(REPO, *parts)


def load_json(path):
    with open(path, encoding='utf-8') as f:
        return json.load(f)


def validate(doc, schema_file):
    """Raise jsonschema.ValidationError (its message names the member) when
    doc does not follow docs/schema/<schema_file>."""
    import jsonschema
    schema = load_json(repo_path('docs', 'schema', schema_file))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(doc)


def bandwidth_metrics(run):
    """The four numbers of one run of `gridstride bandwidth --json`, in GB/s:
    the fastest verified add, the plain grid-stride add at G, the chunked
    copy (one contiguous chunk per thread) and the API's own copy. The same
    rule as core/report/gs_fleet.c."""
    rows = [r for r in run['rows'] if r.get('verified')]

    def one(kernel):
        got = [r['gbps'] for r in rows if r['kernel'] == kernel]
        return got[0] if got else None
    adds = [r['gbps'] for r in rows if r['variant'].startswith('add')]
    return {
        'best_add': max(adds) if adds else None,
        'gridstride_add': one('grid-stride'),
        'chunked_copy': one('copy-chunked'),
        'api_copy': one('api-copy'),
    }


class GridstrideBase(rfm.RunOnlyRegressionTest):
    """A test of the gridstride program already built on the system.

    The program is `gridstride` on PATH unless the partition's extras or -S
    gridstride=PATH name it; the backends a partition runs come from its
    extras ('backends': 'host,opencl') unless -S backends=... names them."""
    gridstride = variable(str, value='')
    backends = variable(str, value='')
    valid_systems = ['*']
    valid_prog_environs = ['*']
    # One GPU per test: ReFrame asks the scheduler for it through the
    # partition's 'gpu' resource (a Slurm site maps it to --gres=gpu:1).
    num_gpus_per_node = 1
    num_tasks = 1
    num_tasks_per_node = 1
    time_limit = '10m'
    maintainers = ['gridstride']
    tags = {'gridstride'}

    @run_after('init')
    def ask_for_one_gpu(self):
        self.extra_resources = {'gpu': {'num_gpus_per_node': self.num_gpus_per_node}}

    @run_after('setup')
    def pick_program(self):
        extras = self.current_partition.extras
        if not self.gridstride:
            self.gridstride = os.environ.get('GRIDSTRIDE') or extras.get('gridstride',
                                                                         'gridstride')
        if not self.backends:
            self.backends = extras.get('backends', 'host,opencl,cuda')
        self.executable = self.gridstride
        # The job's own exit code is not known under every scheduler (the
        # squeue one has none), so the program's is kept in a file.
        self.postrun_cmds = [f'echo $? > {EXIT_FILE}']

    def exit_code(self):
        """gridstride's exit code, from the file the job wrote (-1: none)."""
        try:
            with open(os.path.join(self.stagedir, EXIT_FILE), encoding='utf-8') as f:
                return int(f.read().strip())
        except (OSError, ValueError):
            return -1

    def partition_backends(self):
        return [b for b in self.backends.split(',') if b]

    def skip_unless_backend(self, backend):
        self.skip_if(backend not in self.partition_backends(),
                     f'{backend} is not among this partition\'s backends '
                     f'({self.backends}); set them in its extras or with -S backends=...')
