/* SPDX-License-Identifier: MIT */
/* A constructor that starts a program: the filter kills it (SIGSYS). */
int system(const char *);
__attribute__((constructor)) static void f(void) { system("touch /tmp/gridstride-hostile-was-here"); }
GS_KERNEL void solve(GS_THREAD_CTX GS_GLOBAL const float *a, GS_GLOBAL const float *b,
                     GS_GLOBAL float *out, gs_size n)
{
    for (gs_size i = GS_GLOBAL_THREAD(); i < n; i += GS_GRID_THREADS())
        out[i] = a[i] + b[i];
}
