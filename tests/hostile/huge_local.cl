/* SPDX-License-Identifier: MIT */
/* A 256 MiB __local array. */
__kernel void solve(__global const float *a, __global const float *b, __global float *out,
                    ulong n)
{
    __local float big[64 * 1024 * 1024];
    big[get_local_id(0)] = 1.0f;
    for (ulong i = get_global_id(0); i < n; i += get_global_size(0))
        out[i] = a[i] + b[i] + big[0] - 1.0f;
}
