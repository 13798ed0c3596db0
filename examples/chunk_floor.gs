/* SPDX-License-Identifier: MIT */
/* Wrong: one contiguous chunk per thread with C = n / T, not rounded up, in
 * the portable dialect (see chunk_floor.cu): the last n % T elements are
 * never written.
 *
 * expect: unwritten-tail n=611 shape=1x256 first=512
 */
GS_KERNEL void solve(GS_THREAD_CTX GS_GLOBAL const float *a, GS_GLOBAL const float *b,
                     GS_GLOBAL float *out, gs_size n)
{
    const gs_size T = GS_GRID_THREADS();
    const gs_size t = GS_GLOBAL_THREAD();
    const gs_size C = n / T;
    for (gs_size k = 0; k < C; ++k)
        out[t * C + k] = a[t * C + k] + b[t * C + k];
}
