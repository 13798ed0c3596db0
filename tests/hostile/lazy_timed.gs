/* SPDX-License-Identifier: MIT */
/* Right in every case, then lazy once it is timed: at the speed pass's size
 * (65536 on a CPU device, over 50000; the cases here are at most 611) it does
 * the work of its first few launches only, so that the later ones
 * look fast. Every timed launch starts from a poisoned output and is sampled,
 * so its output is wrong when timed (verdict wrong, class timed-wrong), never
 * a fast kernel. */
static unsigned long gs_launches;

GS_KERNEL void solve(GS_THREAD_CTX GS_GLOBAL const float *a, GS_GLOBAL const float *b,
                     GS_GLOBAL float *out, gs_size n)
{
    if (GS_GLOBAL_THREAD() == 0 && n > 50000)
        ++gs_launches;
    if (n > 50000 && gs_launches > 4)
        return;
    for (gs_size i = GS_GLOBAL_THREAD(); i < n; i += GS_GRID_THREADS())
        out[i] = a[i] + b[i];
}
