/* SPDX-License-Identifier: MIT */
/* A right kernel that floods stdout with printf: ok, and the report stays valid JSON. */
__kernel void solve(__global const float *a, __global const float *b, __global float *out,
                    ulong n)
{
    for (ulong i = get_global_id(0); i < n; i += get_global_size(0)) {
        if (i < 4096)
            printf("flood %lu\n", i);
        out[i] = a[i] + b[i];
    }
}
