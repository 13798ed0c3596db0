/* SPDX-License-Identifier: MIT */
/* Seed 001's int loop, exactly as the course prints it: an int index and an
 * int stride. Right at every harness size (all below 2^31). Past 2^31 - 1,
 * `i += stride` overflows int, which is undefined behaviour: the compiler may
 * assume it never happens, and what the code does there is the compiler's
 * (NVRTC 13.0 for sm_90 widened the index to 64 bits, and every element was
 * right). Run it where it could bite:
 *
 *   gridstride check examples/int_loop.cu --sizes traps
 *
 * expect: ok
 */
__global__ void solve(const float *a, const float *b, float *out, size_t n)
{
    const int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = a[i] + b[i];
}
