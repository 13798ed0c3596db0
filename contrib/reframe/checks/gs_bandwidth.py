# SPDX-License-Identifier: MIT
"""`gridstride bandwidth` on one API: a benchmark, not a test of correctness
(every row must still verify). Performance variables, in GB/s, from the run's
JSON: the fastest add (best_add), the plain grid-stride add at the device
grid (gridstride_add), the copy with one contiguous chunk per thread
(chunked_copy) and the API's own device-to-device copy (api_copy); their
references per system:partition and API are in lib/gs_references.py."""
import os
import sys

import reframe as rfm
import reframe.utility.sanity as sn
from reframe.core.builtins import (parameter, performance_function, run_after, run_before,
                                   sanity_function, variable)

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import gs_common  # noqa: E402
import gs_references  # noqa: E402


@rfm.simple_test
class GridstrideBandwidth(gs_common.GridstrideBase):
    descr = 'gridstride bandwidth: GB/s of the add and copy variants'
    backend = parameter(['cuda', 'opencl', 'openmp', 'host'])
    # '' and 0: gridstride's defaults (4 GiB a buffer on a GPU, 20 repetitions),
    # which the H200 references were measured at.
    bytes = variable(str, value='')
    reps = variable(int, value=0)
    tags = {'gridstride', 'benchmark'}
    # Kept in ReFrame's output folder, for gridstride compare --fleet.
    keep_files = ['*.bandwidth.json']

    @run_after('init')
    def set_references(self):
        self.reference = gs_references.for_backend(self.backend)

    @run_after('setup')
    def only_this_partitions_backends(self):
        self.skip_unless_backend(self.backend)

    @run_before('run')
    def set_command(self):
        # One run per device of the backend, each written as
        # <node>.<backend><index>.bandwidth.json (lib/gs_per_device.sh).
        self.executable = gs_common.PER_DEVICE
        self.executable_opts = [self.gridstride, 'bandwidth', self.backend, '--quiet']
        if self.bytes:
            self.executable_opts += ['--bytes', self.bytes]
        if self.reps:
            self.executable_opts += ['--reps', str(self.reps)]

    def _runs(self):
        import glob
        files = sorted(glob.glob(os.path.join(self.stagedir, '*.bandwidth.json')))
        if not files:
            raise ValueError('no *.bandwidth.json was written')
        return [gs_common.load_json(f)['runs'][0] for f in files]

    def _run(self):
        """The first device's run: the one judged against the references
        (every device's is in the fleet report)."""
        return self._runs()[0]

    def _metric(self, name):
        value = gs_common.bandwidth_metrics(self._run())[name]
        if value is None:
            raise ValueError(f'the run has no verified row for {name}')
        return value

    @sanity_function
    def every_row_verified(self):
        runs = self._runs()
        wrong = [r['variant'] for run in runs for r in run['rows'] if not r['verified']]
        return sn.all([
            sn.assert_eq(self.exit_code(), 0, msg='gridstride bandwidth exited {0}, not 0'),
            sn.assert_true(all(run['backend'] == self.backend for run in runs),
                           msg='a run is not of this backend'),
            sn.assert_true(not wrong, msg=f'rows that did not verify: {wrong}'),
        ])

    @performance_function('GB/s')
    def best_add(self):
        return self._metric('best_add')

    @performance_function('GB/s')
    def gridstride_add(self):
        return self._metric('gridstride_add')

    @performance_function('GB/s')
    def chunked_copy(self):
        return self._metric('chunked_copy')

    @performance_function('GB/s')
    def api_copy(self):
        return self._metric('api_copy')
