/* SPDX-License-Identifier: MIT */
/* Wrong: one thread per element, in the portable dialect, so that the host
 * backend shows the short grid too.
 *
 * expect: short-grid n=611 shape=1x1 first=1
 */
GS_KERNEL void solve(GS_THREAD_CTX GS_GLOBAL const float *a, GS_GLOBAL const float *b,
                     GS_GLOBAL float *out, gs_size n)
{
    const gs_size i = GS_GLOBAL_THREAD();
    if (i < n)
        out[i] = a[i] + b[i];
}
