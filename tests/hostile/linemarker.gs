/* SPDX-License-Identifier: MIT */
/* A GNU linemarker does what #line does. Refused. */
# 1 "/etc/passwd"
int error_here = ;
GS_KERNEL void solve(GS_THREAD_CTX GS_GLOBAL const float *a, GS_GLOBAL const float *b,
                     GS_GLOBAL float *out, gs_size n)
{
    for (gs_size i = GS_GLOBAL_THREAD(); i < n; i += GS_GRID_THREADS())
        out[i] = a[i] + b[i];
}
