/* SPDX-License-Identifier: MIT */
/* Wrong: one work-item per element. Correct only while the NDRange holds at
 * least n work-items: under <<<1, 1>>> at n = 611 only element 0 is written.
 *
 * expect: short-grid n=611 shape=1x1 first=1
 */
__kernel void solve(__global const float *a, __global const float *b, __global float *out,
                    ulong n)
{
    const ulong i = get_global_id(0);
    if (i < n)
        out[i] = a[i] + b[i];
}
