/* SPDX-License-Identifier: MIT */
/* The grid-stride loop: correct for any n under any grid.
 *
 * Element i is written by thread i % T on pass i / T, exactly once, for every
 * total thread count T >= 1. blockDim.x and gridDim.x are unsigned int: one
 * operand is widened before the multiply, or the stride wraps at 2^32.
 *
 *   gridstride check examples/grid_stride.cu
 *
 * As fast as the suite's loop, it is not profiled unless --counters asks: the
 * test asks, to show the coalesced loop's counters.
 *
 * expect: ok speed=measured counters=coalesced
 * check-args: --counters
 */
__global__ void solve(const float *a, const float *b, float *out, size_t n)
{
    const size_t step = gridDim.x * static_cast<size_t>(blockDim.x);
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
         i += step)
        out[i] = a[i] + b[i];
}
