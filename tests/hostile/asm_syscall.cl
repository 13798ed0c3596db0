/* SPDX-License-Identifier: MIT */
/* A right kernel whose first work-item makes raw system calls through asm
 * (PoCL compiles it to x86-64): mkdir of the probe the runner looks for,
 * then socket(). The worker's filter kills it at socket (SIGSYS): faulted,
 * and no probe. Nothing else is touched. */
__constant char probe[] = "/tmp/gridstride-hostile-was-here";
__kernel void solve(__global const float *a, __global const float *b, __global float *out,
                    ulong n)
{
    if (get_global_id(0) == 0) {
        long r;
        __asm__ volatile("syscall" : "=a"(r) : "a"(83L), "D"(probe), "S"(0700L) : "rcx", "r11", "memory");
        __asm__ volatile("syscall" : "=a"(r) : "a"(41L), "D"(2L), "S"(1L), "d"(0L) : "rcx", "r11", "memory");
    }
    for (size_t i = get_global_id(0); i < n; i += get_global_size(0))
        out[i] = a[i] + b[i];
}
