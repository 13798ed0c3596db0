/* SPDX-License-Identifier: MIT */
/* Seed 001's int loop in the portable dialect, as the course prints it: an
 * int index and an int stride, on the host (cc -O2), OpenCL and CUDA alike.
 * Right at every harness size (all below 2^31). Past 2^31 - 1, `i += stride`
 * overflows int, which is undefined behaviour: what the code does there is
 * each compiler's. Run it where it could bite:
 *
 *   gridstride check examples/int_loop.gs --sizes traps
 *
 * expect: ok
 */
GS_KERNEL void solve(GS_THREAD_CTX GS_GLOBAL const float *a, GS_GLOBAL const float *b,
                     GS_GLOBAL float *out, gs_size n)
{
    const int stride = GS_GRID_THREADS();
    for (int i = GS_GLOBAL_THREAD(); i < n; i += stride)
        out[i] = a[i] + b[i];
}
