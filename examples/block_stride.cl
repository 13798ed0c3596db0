/* SPDX-License-Identifier: MIT */
/* Wrong, and the check passes it: a stride of one work-group. See
 * block_stride.cu: every group walks the array from its own start, so the
 * work is done many times over, with the same values.
 *
 * expect: ok speed=measured
 *
 * Its test (tests/check_example.cmake) stops at n = 65536: at the default
 * n = 4194304 on a T4's grid every element is written up to 160 times, a
 * minute of a CPU's OpenCL for a verdict that smaller sizes, still written
 * by many groups each, give the same.
 * check-args: --sizes 0,1,31,32,611,1024,1025,2048,2049,65536
 */
__kernel void solve(__global const float *a, __global const float *b, __global float *out,
                    ulong n)
{
    for (ulong i = get_global_id(0); i < n; i += get_local_size(0))
        out[i] = a[i] + b[i];
}
