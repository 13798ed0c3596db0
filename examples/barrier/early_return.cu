/* SPDX-License-Identifier: MIT */
/* Seed 002's pitfall: the guard written as `if (i >= n) return;` above a
 * barrier. At a ragged n some threads of the last block return and never
 * reach __syncthreads(); the course says the block hangs. The behaviour is
 * undefined, so nothing predicts it: `check` records it, each launch in its
 * sandboxed worker under --timeout (a launch past it is killed, "did not
 * finish", and the next runs in a fresh context). Not among the examples
 * with an expect: line, because there is no expected answer.
 *
 *   gridstride check examples/barrier/early_return.cu --sizes 1,611 --shape 3x256 --timeout 10
 */
__global__ void solve(const float *a, const float *b, float *out, size_t n)
{
    __shared__ float tile[1024];
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (i >= n)
        return;
    tile[threadIdx.x] = a[i] + b[i];
    __syncthreads();
    out[i] = tile[threadIdx.x];
}
