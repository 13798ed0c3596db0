/* SPDX-License-Identifier: MIT */
/* Wrong, and the check passes it: a stride of blockDim.x instead of the
 * grid's thread count. Every block walks the array from its own start, so
 * element i is written once by each block whose start is at or below i: the
 * work is done many times over. A plain map survives that, because each of
 * those threads stores the same value (seed 002: "your test passes while the
 * kernel does the work several times over"); anything that accumulates would
 * be wrong by a factor that moves with the grid. The harness compares the
 * output only, so it cannot see repeated stores.
 *
 * expect: ok speed=measured counters=repeated
 */
__global__ void solve(const float *a, const float *b, float *out, size_t n)
{
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
         i += blockDim.x)
        out[i] = a[i] + b[i];
}
