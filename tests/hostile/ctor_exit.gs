/* SPDX-License-Identifier: MIT */
/* A constructor that ends the process with exit status 0 before any case: faulted, never a pass. */
void _exit(int);
__attribute__((constructor)) static void f(void) { _exit(0); }
GS_KERNEL void solve(GS_THREAD_CTX GS_GLOBAL const float *a, GS_GLOBAL const float *b,
                     GS_GLOBAL float *out, gs_size n)
{
    for (gs_size i = GS_GLOBAL_THREAD(); i < n; i += GS_GRID_THREADS())
        out[i] = a[i] + b[i];
}
