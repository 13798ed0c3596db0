/* SPDX-License-Identifier: MIT */
/* Wrong: one thread per element (day 5's kernel). Correct only while the
 * grid holds at least n threads; on a smaller grid the elements from T on
 * keep their poison, and every API call reports success.
 *
 * The smallest failing case is n = 611 under <<<1, 1>>>: one thread writes
 * element 0, and index 1 is the first that no thread owns.
 *
 * expect: short-grid n=611 shape=1x1 first=1
 */
__global__ void solve(const float *a, const float *b, float *out, size_t n)
{
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (i < n)
        out[i] = a[i] + b[i];
}
