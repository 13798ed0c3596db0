/* SPDX-License-Identifier: MIT */
/* Right, and slow on a GPU: one contiguous chunk per work-item with
 * C = ceil(n / T) (see chunked.cu).
 *
 * expect: ok speed=measured
 */
__kernel void solve(__global const float *a, __global const float *b, __global float *out,
                    ulong n)
{
    const ulong T = get_local_size(0) * get_num_groups(0);
    const ulong C = n / T + (n % T != 0);
    const ulong begin = get_global_id(0) * C;
    for (ulong i = begin; i < begin + C && i < n; ++i)
        out[i] = a[i] + b[i];
}
