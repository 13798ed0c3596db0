# SPDX-License-Identifier: MIT
"""`gridstride pitfalls`: the course's traps, run where they bite, on each
backend of the partition. Sanity: exit 0 and the closing line that every
case agrees with the model (a trap that did not bite as predicted, or bit
where it should not, is a deviation and exits 1)."""
import os
import sys

import reframe as rfm
import reframe.utility.sanity as sn
from reframe.core.builtins import parameter, run_after, run_before, sanity_function, variable

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import gs_common  # noqa: E402


@rfm.simple_test
class GridstridePitfalls(gs_common.GridstrideBase):
    descr = 'gridstride pitfalls: every trap as the model predicts'
    backend = parameter(['host', 'opencl', 'cuda', 'openmp'])
    # '' runs every trap; a comma list (gridstride pitfalls --traps) fewer.
    traps = variable(str, value='')
    tags = {'gridstride', 'correctness'}

    @run_after('setup')
    def only_this_partitions_backends(self):
        self.skip_unless_backend(self.backend)

    @run_before('run')
    def set_command(self):
        self.executable_opts = ['pitfalls', '--backend', self.backend]
        if self.traps:
            self.executable_opts += ['--traps', self.traps]

    @sanity_function
    def every_trap_as_predicted(self):
        return sn.all([
            sn.assert_eq(self.exit_code(), 0, msg='gridstride pitfalls exited {0}, not 0'),
            sn.assert_found(r'^all \d+ cases agree with the model \(.*, 0 deviations\)',
                            self.stdout, msg='no closing line saying every case agrees'),
        ])
