/* SPDX-License-Identifier: MIT */
/* Wrong: writes 2^40 elements past the output, an address the process does
 * not own. The GPU faults (cudaErrorIllegalAddress); the CUDA context is then
 * lost for the rest of the process, so the check reports "faulted", marks the
 * backend's remaining cases "not run", and goes on with other backends.
 *
 * expect: faulted n=0 shape=Gx256
 */
__global__ void solve(const float *a, const float *b, float *out, size_t n)
{
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    out[i + (static_cast<size_t>(1) << 40)] = a[0] + b[0] + static_cast<float>(n);
}
