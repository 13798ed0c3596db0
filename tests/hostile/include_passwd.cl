/* SPDX-License-Identifier: MIT */
/* #include of /etc/passwd in OpenCL C: refused. */
#include "/etc/passwd"
__kernel void solve(__global const float *a, __global const float *b, __global float *out,
                    ulong n)
{
    for (ulong i = get_global_id(0); i < n; i += get_global_size(0))
        out[i] = a[i] + b[i];
}
