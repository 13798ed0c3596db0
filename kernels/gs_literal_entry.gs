/* SPDX-License-Identifier: MIT */
/* The int loop's literal body (GS_INT_LOOP_LITERAL_BODY, kernels/gs_pitfalls.h)
 * with check's contract: (a, b, out, n). Built by the API's run-time compiler
 * at its default (NVRTC) in check's worker, after gs_literal_prefix.gs and
 * gs_pitfalls.h. */
GS_KERNEL void gs_int_loop_literal_rt(GS_THREAD_CTX GS_GLOBAL const float *a,
                                      GS_GLOBAL const float *b, GS_GLOBAL float *out, gs_size n)
{
    const gs_size param = 0;
    GS_INT_LOOP_LITERAL_BODY
}
