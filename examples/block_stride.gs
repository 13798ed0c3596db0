/* SPDX-License-Identifier: MIT */
/* Wrong, and the check passes it: a stride of one block, in the portable
 * dialect (see block_stride.cu). Every block walks the array from its own
 * start, so the work is done many times over, with the same values: the
 * cases are right, and check's speed pass shows the cost beside the suite's
 * grid-stride loop on the same launch.
 *
 * expect: ok speed=measured work=block-stride
 *
 * Its test stops at n = 65536, as block_stride.cl's does: at the default
 * n = 4194304 on a T4's grid every element is written up to 160 times.
 * check-args: --sizes 0,1,31,32,611,1024,1025,2048,2049,65536
 */
GS_KERNEL void solve(GS_THREAD_CTX GS_GLOBAL const float *a, GS_GLOBAL const float *b,
                     GS_GLOBAL float *out, gs_size n)
{
    for (gs_size i = GS_GLOBAL_THREAD(); i < n; i += GS_BLOCK_DIM_X())
        out[i] = a[i] + b[i];
}
