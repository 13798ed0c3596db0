/* SPDX-License-Identifier: MIT */
/* Right, and slow on a GPU: one contiguous chunk per thread with
 * C = ceil(n / T), in the portable dialect (see chunked.cu). Every element
 * is written once, so every case passes; check's speed pass times it beside
 * the suite's grid-stride loop on the same launch. On a GPU a warp's lanes
 * are C elements apart at every step (uncoalesced); on a CPU each core
 * streams its own chunk, and the pattern is fast.
 *
 * expect: ok speed=measured work=once
 */
GS_KERNEL void solve(GS_THREAD_CTX GS_GLOBAL const float *a, GS_GLOBAL const float *b,
                     GS_GLOBAL float *out, gs_size n)
{
    const gs_size T = GS_GRID_THREADS();
    const gs_size C = n / T + (n % T != 0);
    const gs_size begin = GS_GLOBAL_THREAD() * C;
    for (gs_size i = begin; i < begin + C && i < n; ++i)
        out[i] = a[i] + b[i];
}
