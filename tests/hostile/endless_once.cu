/* SPDX-License-Identifier: MIT */
/* Right, except that it never ends at n = 31: that case did not finish, the
 * worker (and its CUDA context) is killed at --timeout, and every other case
 * passes in a fresh one: the GPU is usable right after the kill. */
__global__ void solve(const float *a, const float *b, float *out, size_t n)
{
    const size_t stride = n == 31 ? 0 : (size_t)blockDim.x * gridDim.x;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = a[i] + b[i];
}
