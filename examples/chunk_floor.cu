/* SPDX-License-Identifier: MIT */
/* Wrong: one contiguous chunk per thread with C = n / T, not rounded up.
 * The T chunks cover T * C elements; the last n % T elements belong to no
 * thread. At n = 1 on any grid of more than one thread C is 0 and nothing is
 * written at all. (With C = ceil(n / T) it is correct, but uncoalesced on a
 * GPU: see `gridstride bandwidth`.)
 *
 * expect: unwritten-tail n=611 shape=1x256 first=512
 */
__global__ void solve(const float *a, const float *b, float *out, size_t n)
{
    const size_t T = gridDim.x * static_cast<size_t>(blockDim.x);
    const size_t t = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    const size_t C = n / T;
    for (size_t k = 0; k < C; ++k)
        out[t * C + k] = a[t * C + k] + b[t * C + k];
}
