/* SPDX-License-Identifier: MIT */
/* A right host kernel that floods stdout and stderr: ok, and the report stays valid JSON. */
int printf(const char *, ...);
GS_KERNEL void solve(GS_THREAD_CTX GS_GLOBAL const float *a, GS_GLOBAL const float *b,
                     GS_GLOBAL float *out, gs_size n)
{
    for (gs_size i = GS_GLOBAL_THREAD(); i < n; i += GS_GRID_THREADS()) {
        if (i < 4096)
            printf("flood %lu\n", (unsigned long)i);
        out[i] = a[i] + b[i];
    }
}
