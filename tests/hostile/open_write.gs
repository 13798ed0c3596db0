/* SPDX-License-Identifier: MIT */
/* A kernel that opens a file for writing: the filter refuses (EPERM), the kernel is right. */
int open(const char *, int, ...);
GS_KERNEL void solve(GS_THREAD_CTX GS_GLOBAL const float *a, GS_GLOBAL const float *b,
                     GS_GLOBAL float *out, gs_size n)
{
    open("/tmp/gridstride-hostile-was-here", 0101, 0644);
    for (gs_size i = GS_GLOBAL_THREAD(); i < n; i += GS_GRID_THREADS())
        out[i] = a[i] + b[i];
}
