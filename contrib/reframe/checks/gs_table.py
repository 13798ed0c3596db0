# SPDX-License-Identifier: MIT
"""The correctness table on every backend of the partition, side by side.

Sanity: exit 0, the closing line that every prediction held, and the JSON
of each device (lib/gs_per_device.sh: <node>.<backend><index>.table.json,
the node as the scheduler names it, for the fleet report) valid against
docs/schema/table.schema.json with every device held. Every device of
each backend runs (--device all), so a node with several GPUs has each in
the table and a file of each."""
import glob
import os
import sys

import reframe as rfm
import reframe.utility.sanity as sn
from reframe.core.builtins import run_before, sanity_function, variable

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import gs_common  # noqa: E402


@rfm.simple_test
class GridstrideTable(gs_common.GridstrideBase):
    descr = 'gridstride correctness table: every prediction held, on every backend'
    # '' runs gridstride's own sizes (seed 002's, with T and T+1 of each device).
    sizes = variable(str, value='')
    tags = {'gridstride', 'correctness'}
    # Kept in ReFrame's output folder, for gridstride compare --fleet.
    keep_files = ['*.table.json']

    @run_before('run')
    def set_command(self):
        sizes = ['--sizes', self.sizes] if self.sizes else []
        self.executable_opts = ['--backend', self.backends, '--device', 'all'] + sizes
        json_cmd = ' '.join([gs_common.PER_DEVICE, self.gridstride, 'table', self.backends] +
                            sizes)
        self.postrun_cmds += [f'{json_cmd}; echo "json exit $?"']

    @sanity_function
    def every_prediction_held(self):
        files = glob.glob(os.path.join(self.stagedir, '*.table.json'))
        docs = [gs_common.load_json(f) for f in files]
        for doc in docs:
            gs_common.validate(doc, 'table.schema.json')
        return sn.all([
            sn.assert_eq(self.exit_code(), 0, msg='gridstride exited {0}, not 0'),
            sn.assert_found(r'^(\d+) of \1 cases held their prediction on ',
                            self.stdout, msg='no closing line saying every prediction held'),
            sn.assert_found(r'^json exit 0$', self.stdout, msg='the JSON run did not exit 0'),
            sn.assert_true(len(files) >= 1, msg='no *.table.json was written'),
            sn.assert_true(all(doc['held'] and all(d['failed'] == 0 for d in doc['devices'])
                               for doc in docs),
                           msg='a JSON file says a prediction failed'),
        ])
