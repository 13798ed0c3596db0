/* SPDX-License-Identifier: MIT */
/* A step of 0: never ends on the host backend; did not finish at --timeout. */
GS_KERNEL void solve(GS_THREAD_CTX GS_GLOBAL const float *a, GS_GLOBAL const float *b,
                     GS_GLOBAL float *out, gs_size n)
{
    for (gs_size i = GS_GLOBAL_THREAD(); i < n + 1; i += 0)
        out[i % (n + 1)] = a[0] + b[0];
}
