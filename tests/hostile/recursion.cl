/* SPDX-License-Identifier: MIT */
/* Deep recursion in OpenCL C, which the language forbids and PoCL runs anyway: the stack ends (faulted). */
float deep(float x, ulong d)
{
    volatile float pad[256];
    pad[d % 256] = x;
    return d < 100000000 ? deep(x, d + 1) + pad[(d + 1) % 256] : x;
}
__kernel void solve(__global const float *a, __global const float *b, __global float *out,
                    ulong n)
{
    for (ulong i = get_global_id(0); i < n; i += get_global_size(0))
        out[i] = deep(a[i], 1) + b[i];
}
