/* SPDX-License-Identifier: MIT */
/* A 16 MiB private array. */
__kernel void solve(__global const float *a, __global const float *b, __global float *out,
                    ulong n)
{
    volatile float big[4 * 1024 * 1024];
    for (ulong k = 0; k < 4 * 1024 * 1024; k += 4096)
        big[k] = (float)k;
    for (ulong i = get_global_id(0); i < n; i += get_global_size(0))
        out[i] = a[i] + b[i] + big[0];
}
