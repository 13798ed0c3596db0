/* SPDX-License-Identifier: MIT */
/* Wrong, and the check passes it: a stride of one work-group. See
 * block_stride.cu: every group walks the array from its own start, so the
 * work is done many times over, with the same values.
 *
 * expect: ok
 */
__kernel void solve(__global const float *a, __global const float *b, __global float *out,
                    ulong n)
{
    for (ulong i = get_global_id(0); i < n; i += get_local_size(0))
        out[i] = a[i] + b[i];
}
