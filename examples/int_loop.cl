/* SPDX-License-Identifier: MIT */
/* Seed 001's int loop in OpenCL C, as the course prints it: an int index and
 * an int stride. Right at every harness size (all below 2^31). Past 2^31 - 1,
 * `i += stride` overflows int, which is undefined behaviour: what the code
 * does there is the OpenCL compiler's (NVIDIA's OpenCL 3.0, driver 580,
 * widened the index, and every element was right). Run it where it could
 * bite:
 *
 *   gridstride check examples/int_loop.cl --sizes traps
 *
 * expect: ok
 */
__kernel void solve(__global const float *a, __global const float *b, __global float *out,
                    ulong n)
{
    const int stride = get_local_size(0) * get_num_groups(0);
    for (int i = get_global_id(0); i < n; i += stride)
        out[i] = a[i] + b[i];
}
