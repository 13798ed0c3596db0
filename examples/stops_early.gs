/* SPDX-License-Identifier: MIT */
/* Wrong: a grid-stride loop whose bound is one short (i + 1 < n), so the last
 * element is never written. At n = 1 it writes nothing, which names no cause;
 * from n = 31 on the tail from n - 1 shows the loop stops early.
 *
 * expect: unwritten-tail n=31 shape=Gx256 first=30
 */
GS_KERNEL void solve(GS_THREAD_CTX GS_GLOBAL const float *a, GS_GLOBAL const float *b,
                     GS_GLOBAL float *out, gs_size n)
{
    for (gs_size i = GS_GLOBAL_THREAD(); i + 1 < n; i += GS_GRID_THREADS())
        out[i] = a[i] + b[i];
}
