/* SPDX-License-Identifier: MIT */
/* A kernel that makes getpid through the x32 ABI (number | 0x40000000), which
 * a filter for x86-64 alone may not see: the filter kills the process at
 * once (faulted, SIGSYS), well before the --timeout. */
long syscall(long number, ...);
GS_KERNEL void solve(GS_THREAD_CTX GS_GLOBAL const float *a, GS_GLOBAL const float *b,
                     GS_GLOBAL float *out, gs_size n)
{
    syscall(0x40000000L | 39L);
    for (gs_size i = GS_GLOBAL_THREAD(); i < n; i += GS_GRID_THREADS())
        out[i] = a[i] + b[i];
}
