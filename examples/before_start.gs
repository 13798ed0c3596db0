/* SPDX-License-Identifier: MIT */
/* Wrong: right for every i < n, and thread 0 also writes out[-1], the element
 * before the array. check keeps a guard before out[0] as well as after
 * out[n - 1]: "wrote before the start", with the offset (index -1).
 *
 * expect: before-start n=0 shape=Gx256
 */
GS_KERNEL void solve(GS_THREAD_CTX GS_GLOBAL const float *a, GS_GLOBAL const float *b,
                     GS_GLOBAL float *out, gs_size n)
{
    for (gs_size i = GS_GLOBAL_THREAD(); i < n; i += GS_GRID_THREADS())
        out[i] = a[i] + b[i];
    if (GS_GLOBAL_THREAD() == 0)
        out[-1] = 0.0f;
}
