/* SPDX-License-Identifier: MIT */
/* Wrong in general, right at these sizes: the stride without the cast.
 * blockDim.x and gridDim.x are unsigned int, so blockDim.x * gridDim.x is
 * computed in 32 bits and wraps once a grid holds 2^32 threads or more
 * (<<<4194304, 1024>>> is a legal launch on an H100): the stride then shrinks
 * (threads overlap) or becomes 0 (the loop never ends). Every grid of the
 * check is far below 2^32 threads, so this passes, which is the trap.
 *
 * expect: ok
 */
__global__ void solve(const float *a, const float *b, float *out, size_t n)
{
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        out[i] = a[i] + b[i];
}
