/* SPDX-License-Identifier: MIT */
/* A section name is passed to the assembler as it is: a newline in it starts
 * a directive (.incbin reads a file) although asm is refused. Refused. */
__attribute__((section(".rodata\n.incbin \"/etc/hostname\"\n#"))) const char gs_x = 1;
GS_KERNEL void solve(GS_THREAD_CTX GS_GLOBAL const float *a, GS_GLOBAL const float *b,
                     GS_GLOBAL float *out, gs_size n)
{
    for (gs_size i = GS_GLOBAL_THREAD(); i < n; i += GS_GRID_THREADS())
        out[i] = a[i] + b[i];
}
