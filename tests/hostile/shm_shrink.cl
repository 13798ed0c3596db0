/* SPDX-License-Identifier: MIT */
/* A right kernel whose first work-item truncates the worker's shared memory
 * (descriptor 4) to nothing with a raw ftruncate, so that check's next read
 * of it would be a SIGBUS. The memory is sealed against shrinking: the call
 * fails, and the verdict is the kernel's (ok). */
__kernel void solve(__global const float *a, __global const float *b, __global float *out,
                    ulong n)
{
    if (get_global_id(0) == 0) {
        long r;
        __asm__ volatile("syscall" : "=a"(r) : "a"(77L), "D"(4L), "S"(0L) : "rcx", "r11", "memory");
    }
    for (size_t i = get_global_id(0); i < n; i += get_global_size(0))
        out[i] = a[i] + b[i];
}
