/* SPDX-License-Identifier: MIT */
/* Wrong: `i <= n` instead of `i < n`. Thread n writes out[n], one element
 * past the end; the harness's guard region after the output catches it, at
 * every n, from n = 0 on.
 *
 * expect: past-end n=0 shape=Gx256
 */
__global__ void solve(const float *a, const float *b, float *out, size_t n)
{
    const size_t step = gridDim.x * static_cast<size_t>(blockDim.x);
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i <= n;
         i += step)
        out[i] = a[i] + b[i];
}
