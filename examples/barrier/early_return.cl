/* SPDX-License-Identifier: MIT */
/* Seed 002's pitfall in OpenCL C: `if (i >= n) return;` above a barrier. At
 * a ragged n some work-items of the last work-group return and never reach
 * barrier(); OpenCL calls that undefined (every work-item of a group must
 * reach the barrier). `check` records what the device did, each launch in
 * its sandboxed worker under --timeout. No expect: line: nothing predicts it.
 *
 *   gridstride check examples/barrier/early_return.cl --sizes 1,611 --shape 3x256 --timeout 10
 */
__kernel void solve(__global const float *a, __global const float *b, __global float *out,
                    ulong n)
{
    __local float tile[1024];
    const ulong i = get_global_id(0);
    if (i >= n)
        return;
    tile[get_local_id(0)] = a[i] + b[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[i] = tile[get_local_id(0)];
}
