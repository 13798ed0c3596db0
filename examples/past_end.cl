/* SPDX-License-Identifier: MIT */
/* Wrong: `i <= n`: one element written past the end, at every n (see
 * past_end.cu).
 *
 * expect: past-end n=0 shape=Gx256
 */
__kernel void solve(__global const float *a, __global const float *b, __global float *out,
                    ulong n)
{
    const ulong step = get_local_size(0) * get_num_groups(0);
    for (ulong i = get_global_id(0); i <= n; i += step)
        out[i] = a[i] + b[i];
}
