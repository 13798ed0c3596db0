/* SPDX-License-Identifier: MIT */
/* The stride without the cast, written out in OpenCL C. OpenCL's work-item
 * functions return size_t, so the trap needs the 32-bit product spelt out;
 * as in no_cast.cu it wraps only at 2^32 work-items, beyond every grid of the
 * check, so this passes.
 *
 * expect: ok
 */
__kernel void solve(__global const float *a, __global const float *b, __global float *out,
                    ulong n)
{
    const uint step = (uint)get_local_size(0) * (uint)get_num_groups(0);
    for (ulong i = get_global_id(0); i < n; i += step)
        out[i] = a[i] + b[i];
}
