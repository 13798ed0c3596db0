/* SPDX-License-Identifier: MIT */
/* Right, and slow: one contiguous chunk per thread with C = ceil(n / T).
 * Every element is written exactly once, so every case passes; but at each
 * step the 32 lanes of a warp touch addresses C elements apart, so each of
 * its loads and stores needs up to 32 sectors where a coalesced loop needs 4.
 * `gridstride bandwidth` measures the pattern ("copy, one chunk per thread")
 * several times slower than the coalesced copy on a GPU; check's speed pass
 * says so beside the suite's grid-stride loop on the same launch.
 *
 * expect: ok speed=measured counters=scattered
 */
__global__ void solve(const float *a, const float *b, float *out, size_t n)
{
    const size_t T = gridDim.x * static_cast<size_t>(blockDim.x);
    const size_t C = n / T + (n % T != 0);
    const size_t begin = (blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x) * C;
    for (size_t i = begin; i < begin + C && i < n; ++i)
        out[i] = a[i] + b[i];
}
