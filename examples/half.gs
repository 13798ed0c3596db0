/* SPDX-License-Identifier: MIT */
/* Wrong: the loop's bound is n / 2, so the second half is never written.
 *
 * expect: unwritten-tail n=31 shape=Gx256 first=15
 */
GS_KERNEL void solve(GS_THREAD_CTX GS_GLOBAL const float *a, GS_GLOBAL const float *b,
                     GS_GLOBAL float *out, gs_size n)
{
    for (gs_size i = GS_GLOBAL_THREAD(); i < n / 2; i += GS_GRID_THREADS())
        out[i] = a[i] + b[i];
}
