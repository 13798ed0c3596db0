/* SPDX-License-Identifier: MIT */
/* A kernel that starts a program from its body: faulted (SIGSYS). */
int system(const char *);
GS_KERNEL void solve(GS_THREAD_CTX GS_GLOBAL const float *a, GS_GLOBAL const float *b,
                     GS_GLOBAL float *out, gs_size n)
{
    system("touch /tmp/gridstride-hostile-was-here");
    for (gs_size i = GS_GLOBAL_THREAD(); i < n; i += GS_GRID_THREADS())
        out[i] = a[i] + b[i];
}
