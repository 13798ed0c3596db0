/* SPDX-License-Identifier: MIT */
/* The grid-stride loop in the suite's portable dialect (kernels/gs_kernels.h):
 * the same text runs on the host backend, OpenCL and CUDA, each with its own
 * prelude. GS_GRID_THREADS() is the 64-bit thread count T of the launch.
 *
 *   gridstride check examples/grid_stride.gs
 *
 * expect: ok speed=measured work=once
 */
GS_KERNEL void solve(GS_THREAD_CTX GS_GLOBAL const float *a, GS_GLOBAL const float *b,
                     GS_GLOBAL float *out, gs_size n)
{
    const gs_size step = GS_GRID_THREADS();
    for (gs_size i = GS_GLOBAL_THREAD(); i < n; i += step)
        out[i] = a[i] + b[i];
}
