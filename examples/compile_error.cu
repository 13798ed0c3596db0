/* SPDX-License-Identifier: MIT */
/* Does not compile: `c` is not declared. gridstride shows NVRTC's messages,
 * with line numbers pointing into this file, and exits 2.
 *
 * expect: compile-error
 */
__global__ void solve(const float *a, const float *b, float *out, size_t n)
{
    const size_t step = gridDim.x * static_cast<size_t>(blockDim.x);
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
         i += step)
        out[i] = a[i] + c[i]; /* error-here */
}
