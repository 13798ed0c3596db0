/* SPDX-License-Identifier: MIT */
/* Wrong: out[i] += a[i] + b[i]. out is not zero and not the kernel's to read:
 * the harness poisons it with a NaN, and NaN + x is NaN, which looks like an
 * element never written. check runs a failing case again on a finite poison
 * (-2^22): an element that then reads the poison + a[i] + b[i] was accumulated
 * into (seeds 000 and 002: a repeated write turns into a wrong answer).
 *
 * expect: accumulates n=1 shape=Gx256 first=0
 */
GS_KERNEL void solve(GS_THREAD_CTX GS_GLOBAL const float *a, GS_GLOBAL const float *b,
                     GS_GLOBAL float *out, gs_size n)
{
    for (gs_size i = GS_GLOBAL_THREAD(); i < n; i += GS_GRID_THREADS())
        out[i] += a[i] + b[i];
}
