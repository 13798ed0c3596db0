# SPDX-License-Identifier: MIT
"""ReFrame site configuration for gridstride's test library: pick a system
with --system NAME (or let ReFrame match the hostname).

  local     a laptop or CI machine: ReFrame's local scheduler, no GPU needed
            (backends host and opencl: PoCL on the CPU)
  ci-slurm  the Slurm of four nodes on one machine that scripts/slurm-local.sh
            starts for CI: jobs go through sbatch, spread over the nodes with
            --distribute=idle; the squeue scheduler, since that Slurm has no
            accounting (ReFrame's slurm scheduler calls sacct)
  cluster   a generic Slurm GPU partition: sbatch -p gpu, one GPU a job
            (--gres=gpu:1), launched with srun
  h200      one NVIDIA machine (an H200) without a batch system: the local
            scheduler and launcher

A site adds its own system: copy the 'cluster' entry, set its name,
hostnames, the partition's access (-p, -A), its 'gpu' resource and the
backends its gridstride build has, and put it before 'local' (ReFrame
takes the first system whose hostnames match, and 'local' matches any); then add references for
'NAME:PARTITION' (lib/gs_references.py says how). docs/cluster.md has the
whole recipe."""

# ReFrame's stage, output and report folders go under the working folder
# unless the command line (--prefix, --report-file) says otherwise.
site_configuration = {
    'systems': [
        {
            'name': 'local',
            'descr': 'a laptop or CI machine, no batch system',
            'hostnames': ['.*'],
            'modules_system': 'nomod',
            'partitions': [{
                'name': 'default',
                'descr': 'the local machine: host backend and OpenCL (PoCL on a CPU)',
                'scheduler': 'local',
                'launcher': 'local',
                'environs': ['builtin'],
                # Two at a time: a CI machine's two cores. Its bandwidth
                # figures are reported, not judged (lib/gs_references.py).
                'max_jobs': 2,
                'extras': {'backends': 'host,opencl'},
            }],
        },
        {
            'name': 'ci-slurm',
            'descr': 'nodes n1..n4 of one machine (scripts/slurm-local.sh)',
            'hostnames': ['^$'],
            'modules_system': 'nomod',
            'partitions': [{
                'name': 'default',
                'descr': 'the emulated nodes, no GPU: host backend and OpenCL (PoCL)',
                'scheduler': 'squeue',
                'launcher': 'local',
                'access': ['--partition=debug'],
                'environs': ['builtin'],
                # One job per node at a time (the nodes share two cores).
                'max_jobs': 4,
                # No 'gpu' resource: the CI node has no GPU, so the tests'
                # one-GPU request asks Slurm for nothing here.
                'extras': {'backends': 'host,opencl'},
            }],
        },
        {
            'name': 'cluster',
            'descr': 'a generic Slurm cluster with a GPU partition',
            'hostnames': ['^$'],
            'modules_system': 'nomod',
            'partitions': [{
                'name': 'gpu',
                'descr': 'one GPU a job',
                'scheduler': 'slurm',
                'launcher': 'srun',
                'access': ['--partition=gpu'],
                'environs': ['builtin'],
                'max_jobs': 64,
                'resources': [{'name': 'gpu', 'options': ['--gres=gpu:{num_gpus_per_node}']}],
                'extras': {'backends': 'cuda,opencl'},
            }],
        },
        {
            'name': 'h200',
            'descr': 'one NVIDIA H200 machine, no batch system',
            'hostnames': ['^$'],
            'modules_system': 'nomod',
            'partitions': [{
                'name': 'gpu',
                'descr': 'the local machine and its first GPU',
                'scheduler': 'local',
                'launcher': 'local',
                'environs': ['builtin'],
                'max_jobs': 1,
                'extras': {'backends': 'host,opencl,cuda'},
            }],
        },
    ],
    'environments': [
        {'name': 'builtin', 'cc': 'cc', 'cxx': '', 'ftn': ''},
    ],
    'logging': [{
        'level': 'debug',
        'handlers': [
            {'type': 'stream', 'name': 'stdout', 'level': 'info', 'format': '%(message)s'},
            {'type': 'file', 'name': 'reframe.log', 'level': 'debug',
             'format': '[%(asctime)s] %(levelname)s: %(check_info)s: %(message)s',
             'append': False},
        ],
        'handlers_perflog': [{
            'type': 'filelog',
            'prefix': '%(check_system)s/%(check_partition)s',
            'level': 'info',
            'format': ('%(check_job_completion_time)s|%(check_info)s|%(check_job_nodelist)s|'
                       '%(check_perfvalues)s'),
            'format_perfvars': '%(check_perf_var)s=%(check_perf_value)s %(check_perf_unit)s '
                               '(ref %(check_perf_ref)s, %(check_perf_lower_thres)s..'
                               '%(check_perf_upper_thres)s)|',
            'append': True,
        }],
    }],
}
