/* SPDX-License-Identifier: MIT */
/* The assembler reads files (.incbin): asm is refused in .gs files. */
__asm__(".section .rodata\n.incbin \"/etc/passwd\"\n.previous");
GS_KERNEL void solve(GS_THREAD_CTX GS_GLOBAL const float *a, GS_GLOBAL const float *b,
                     GS_GLOBAL float *out, gs_size n)
{
    for (gs_size i = GS_GLOBAL_THREAD(); i < n; i += GS_GRID_THREADS())
        out[i] = a[i] + b[i];
}
