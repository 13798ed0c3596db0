/* SPDX-License-Identifier: MIT */
/* Right, except that it never ends at n = 31: that case did not finish, the
 * worker is killed at --timeout, and every other case passes in a fresh one. */
GS_KERNEL void solve(GS_THREAD_CTX GS_GLOBAL const float *a, GS_GLOBAL const float *b,
                     GS_GLOBAL float *out, gs_size n)
{
    for (gs_size i = GS_GLOBAL_THREAD(); i < n; i += (n == 31 ? 0 : GS_GRID_THREADS()))
        out[i] = a[i] + b[i];
}
