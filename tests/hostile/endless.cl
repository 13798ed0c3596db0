/* SPDX-License-Identifier: MIT */
/* A step of 0 in OpenCL C: never ends on PoCL; did not finish at --timeout. */
__kernel void solve(__global const float *a, __global const float *b, __global float *out,
                    ulong n)
{
    for (ulong i = get_global_id(0); i < n + 1; i += 0)
        out[i % (n + 1)] = a[0] + b[0];
}
