/* SPDX-License-Identifier: MIT */
/* Does not compile: `c` is not declared. gridstride shows the driver's build
 * log, with line numbers pointing into this file, and exits 2.
 *
 * expect: compile-error
 */
__kernel void solve(__global const float *a, __global const float *b, __global float *out,
                    ulong n)
{
    const ulong step = get_local_size(0) * get_num_groups(0);
    for (ulong i = get_global_id(0); i < n; i += step)
        out[i] = a[i] + c[i]; /* error-here */
}
