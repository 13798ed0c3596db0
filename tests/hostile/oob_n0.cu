/* SPDX-License-Identifier: MIT */
/* i < n - 1 with an unsigned n: at n = 0 it writes far past the end (an
 * illegal address: faulted, in words); above, the last element is never
 * written, in a fresh context. */
__global__ void solve(const float *a, const float *b, float *out, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n - 1;
         i += (size_t)blockDim.x * gridDim.x)
        out[i] = a[i] + b[i];
}
