/* SPDX-License-Identifier: MIT */
/* Wrong: a grid-stride loop that stops after two passes. Right wherever the
 * grid covers n in two passes; under one thread (<<<1, 1>>>) at n = 611 it
 * writes elements 0 and 1 only, and on the device grid n = 2T + 1 (a size
 * check adds to the seed's) leaves element 2T unwritten.
 *
 * expect: unwritten-tail n=611 shape=1x1 first=2
 */
GS_KERNEL void solve(GS_THREAD_CTX GS_GLOBAL const float *a, GS_GLOBAL const float *b,
                     GS_GLOBAL float *out, gs_size n)
{
    int pass = 0;
    for (gs_size i = GS_GLOBAL_THREAD(); i < n && pass < 2; i += GS_GRID_THREADS(), ++pass)
        out[i] = a[i] + b[i];
}
