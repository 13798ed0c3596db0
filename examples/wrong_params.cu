/* SPDX-License-Identifier: MIT */
/* Does not meet the contract: n is an int, 4 bytes where the harness passes
 * a size_t. The CUDA runtime reports each parameter's size
 * (cudaFuncGetParamInfo), and gridstride says which one, in one line, and
 * exits 2. Without a GPU, --compile-only reads the same sizes from the PTX
 * NVRTC emits for it and refuses it in the same line.
 *
 * expect: usage parameter=4
 */
__global__ void solve(const float *a, const float *b, float *out, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        out[i] = a[i] + b[i];
}
