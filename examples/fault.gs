/* SPDX-License-Identifier: MIT */
/* Wrong: writes 2^40 elements past the output. On the host backend and on a
 * CPU OpenCL device (PoCL) the kernel runs in check's worker process, which
 * the fault ends (SIGSEGV): reported as "faulted", like a GPU's illegal
 * address, and the next case runs in a fresh worker.
 *
 * backends: host opencl cuda
 * expect: faulted n=0 shape=Gx256
 */
GS_KERNEL void solve(GS_THREAD_CTX GS_GLOBAL const float *a, GS_GLOBAL const float *b,
                     GS_GLOBAL float *out, gs_size n)
{
    const gs_size i = GS_GLOBAL_THREAD();
    out[i + ((gs_size)1 << 40)] = a[0] + b[0] + (float)n;
}
