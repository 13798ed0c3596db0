/* SPDX-License-Identifier: MIT */
/* The grid-stride loop in OpenCL C: correct for any n under any NDRange.
 *
 * get_global_id(0) and the work-group counts are size_t already, so OpenCL
 * needs no cast where CUDA does; n is ulong (size_t is not a legal kernel
 * argument type in OpenCL C).
 *
 *   gridstride check examples/grid_stride.cl
 *
 * expect: ok speed=measured
 */
__kernel void solve(__global const float *a, __global const float *b, __global float *out,
                    ulong n)
{
    const ulong step = get_local_size(0) * get_num_groups(0);
    for (ulong i = get_global_id(0); i < n; i += step)
        out[i] = a[i] + b[i];
}
