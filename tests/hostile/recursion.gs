/* SPDX-License-Identifier: MIT */
/* Deep recursion on the host backend: the stack ends (faulted). */
static float deep(volatile float x, unsigned long d) { volatile char pad[4096]; pad[0] = (char)d; return d ? deep(x, d + 1) + pad[0] : x; }
GS_KERNEL void solve(GS_THREAD_CTX GS_GLOBAL const float *a, GS_GLOBAL const float *b,
                     GS_GLOBAL float *out, gs_size n)
{
    for (gs_size i = GS_GLOBAL_THREAD(); i < n; i += GS_GRID_THREADS())
        out[i] = deep(a[i], 1) + b[i];
}
