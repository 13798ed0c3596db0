/* SPDX-License-Identifier: MIT */
/* Seed 002's pitfall: the guard written as an early return above a barrier.
 * At a ragged n the threads of the last block past n return and never reach
 * the barrier; the course says the block hangs. CUDA and OpenCL leave a
 * barrier that not every thread of the block reaches undefined, so nothing
 * predicts this kernel: `gridstride pitfalls` (trap early-return) builds it
 * in the portable dialect through the API's run-time compiler (NVRTC, the
 * OpenCL driver) and runs every launch in check's worker, under a deadline,
 * recording whether the block completed, hung (killed at the deadline) or
 * faulted. GS_BARRIER() is CUDA's __syncthreads() and OpenCL's barrier();
 * the host's prelude has none (it runs a block's threads one after
 * another). */
GS_KERNEL void gs_early_return_barrier(GS_THREAD_CTX GS_GLOBAL const float *a,
                                       GS_GLOBAL const float *b, GS_GLOBAL float *out, gs_size n)
{
    const gs_size i = GS_GLOBAL_THREAD();
    if (i >= n)
        return;
    GS_BARRIER();
    out[i] = a[i] + b[i];
}
