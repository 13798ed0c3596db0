/* SPDX-License-Identifier: MIT */
/* Does not meet the contract: n is a uint, 4 bytes where the harness passes
 * a ulong. OpenCL refuses the argument's size (CL_INVALID_ARG_SIZE), and
 * gridstride says which parameter, in one line, and exits 2.
 *
 * expect: usage parameter=4
 */
__kernel void solve(__global const float *a, __global const float *b, __global float *out,
                    uint n)
{
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
        out[i] = a[i] + b[i];
}
