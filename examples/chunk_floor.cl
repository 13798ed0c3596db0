/* SPDX-License-Identifier: MIT */
/* Wrong: one contiguous chunk per work-item with C = n / T, not rounded up;
 * the last n % T elements are never written (see chunk_floor.cu).
 *
 * expect: unwritten-tail n=611 shape=1x256 first=512
 */
__kernel void solve(__global const float *a, __global const float *b, __global float *out,
                    ulong n)
{
    const ulong T = get_local_size(0) * get_num_groups(0);
    const ulong t = get_global_id(0);
    const ulong C = n / T;
    for (ulong k = 0; k < C; ++k)
        out[t * C + k] = a[t * C + k] + b[t * C + k];
}
