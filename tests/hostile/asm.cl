/* SPDX-License-Identifier: MIT */
/* asm in OpenCL C: PoCL compiles it to host code. Refused in every dialect. */
__kernel void solve(__global const float *a, __global const float *b, __global float *out,
                    ulong n)
{
    __asm__ volatile("" ::: "memory");
    for (ulong i = get_global_id(0); i < n; i += get_global_size(0))
        out[i] = a[i] + b[i];
}
