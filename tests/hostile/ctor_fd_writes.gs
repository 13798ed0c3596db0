/* SPDX-License-Identifier: MIT */
/* A constructor that writes to every descriptor from 3 to 63. */
long write(int, const void *, unsigned long);
__attribute__((constructor)) static void f(void) { for (int fd = 3; fd < 64; ++fd) write(fd, "forged line\n", 12); }
GS_KERNEL void solve(GS_THREAD_CTX GS_GLOBAL const float *a, GS_GLOBAL const float *b,
                     GS_GLOBAL float *out, gs_size n)
{
    for (gs_size i = GS_GLOBAL_THREAD(); i < n; i += GS_GRID_THREADS())
        out[i] = a[i] + b[i];
}
