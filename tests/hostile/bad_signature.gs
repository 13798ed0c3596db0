/* SPDX-License-Identifier: MIT */
/* Parameters of the wrong type: bad signature. */
GS_KERNEL void solve(GS_THREAD_CTX GS_GLOBAL const float *a, GS_GLOBAL const float *b,
                     GS_GLOBAL float *out, int n)
{
    for (gs_size i = GS_GLOBAL_THREAD(); i < (gs_size)n; i += GS_GRID_THREADS())
        out[i] = a[i] + b[i];
}
