/* SPDX-License-Identifier: MIT */
/* Token pasting could spell asm: refused in .gs files. */
#define CAT(x, y) x ## y
CAT(__as, m__)(".incbin \"/etc/passwd\"");
GS_KERNEL void solve(GS_THREAD_CTX GS_GLOBAL const float *a, GS_GLOBAL const float *b,
                     GS_GLOBAL float *out, gs_size n)
{
    for (gs_size i = GS_GLOBAL_THREAD(); i < n; i += GS_GRID_THREADS())
        out[i] = a[i] + b[i];
}
