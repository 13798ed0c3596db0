/* SPDX-License-Identifier: MIT */
/* The traps the course warns about, each a kernel written once with the
 * macros of the preludes, so that the same trap runs through every API. The
 * model (core/device/gs_model.c) predicts each one exactly, element by element,
 * except the int loop's literal text, whose overflow is undefined: that one
 * is recorded, not predicted. `gridstride pitfalls` shows them. Included after gs_kernels.h, whose
 * GS_NAME, GS_STORE and GS_TRACE_STATE it uses, so the count and trace
 * builds see these writes too.
 *
 * The 32-bit arithmetic is written with the preludes' _U32 macros, the same
 * in every dialect: in CUDA it is what blockIdx.x * blockDim.x computes
 * (unsigned int); OpenCL's work-item functions return size_t, so there the
 * same arithmetic is spelled out, because the trap is the arithmetic, not
 * the API.
 *
 * The element type is gs_real, set by gs_kernels.h: float, or double in the
 * double build (GS_F64_BUILD), so that every catalogue row has a kernel in
 * every build. */

/* Trap 1, the block stride (i += blockDim.x). Every block walks the array
 * from its own start, so element i is written by each block b <= i / B:
 * min(grid, floor(i / B) + 1) times. A plain map still ends right. */
GS_KERNEL void GS_NAME(gs_add_block_stride)(GS_THREAD_CTX GS_GLOBAL const gs_real *a,
                                            GS_GLOBAL const gs_real *b, GS_GLOBAL gs_real *out,
                                            gs_size n, gs_size param)
{
    GS_TRACE_STATE;
    (void)param;
    for (gs_size i = GS_GLOBAL_THREAD(); i < n; i += GS_BLOCK_DIM_X())
        GS_STORE(out, i, a[i] + b[i]);
}

/* Trap 2, the stride without the cast: blockDim.x * gridDim.x in 32 bits,
 * T mod 2^32, widened only after the wrap. The index is 64-bit. A stride of
 * 0 never ends; a smaller stride than T writes elements several times.
 * Written as the course prints it, the product in the loop's increment: the
 * arithmetic is unsigned, so defined, and this kernel is the literal text. */
GS_KERNEL void GS_NAME(gs_add_stride32)(GS_THREAD_CTX GS_GLOBAL const gs_real *a,
                                        GS_GLOBAL const gs_real *b, GS_GLOBAL gs_real *out,
                                        gs_size n, gs_size param)
{
    GS_TRACE_STATE;
    (void)param;
    for (gs_size i = GS_GLOBAL_THREAD(); i < n; i += GS_GRID_THREADS_U32())
        GS_STORE(out, i, a[i] + b[i]);
}

/* Trap 3, the course's index line without the cast: 32-bit, so the threads from
 * 2^32 on write the front of the array again and elements from 2^32 on are
 * never written. Unsigned, so defined: this kernel is the literal text. */
GS_KERNEL void GS_NAME(gs_add_index32)(GS_THREAD_CTX GS_GLOBAL const gs_real *a,
                                       GS_GLOBAL const gs_real *b, GS_GLOBAL gs_real *out,
                                       gs_size n, gs_size param)
{
    GS_TRACE_STATE;
    const unsigned int i = GS_GLOBAL_THREAD_U32();
    (void)param;
    if (i < n)
        GS_STORE(out, i, a[i] + b[i]);
}

/* Trap 4, the essay's int loop: int i, int stride, against the suite's unsigned
 * 64-bit n. Past 2^31 - 1 the index wraps negative (signed overflow is
 * undefined in C, so the wrap is written with defined unsigned arithmetic:
 * GS_INT_ADD_WRAP), and `i < n` converts it to a huge unsigned value, so the
 * loop ends: nothing from 2^31 on is written. The cast below is the
 * conversion `i < n` makes implicitly. */
GS_KERNEL void GS_NAME(gs_add_int_loop)(GS_THREAD_CTX GS_GLOBAL const gs_real *a,
                                        GS_GLOBAL const gs_real *b, GS_GLOBAL gs_real *out,
                                        gs_size n, gs_size param)
{
    GS_TRACE_STATE;
    const int stride = (int)GS_GRID_THREADS_U32();
    (void)param;
    for (int i = (int)GS_GLOBAL_THREAD_U32(); (gs_size)i < n; i = GS_INT_ADD_WRAP(i, stride))
        GS_STORE(out, i, a[i] + b[i]);
}

/* Trap 4 as seed 001 prints it: `i += stride` in int, the overflow left
 * undefined. What the launch does past 2^31 - 1 is the compiler's: one that
 * keeps a 32-bit register wraps it negative and the loop ends as in
 * gs_add_int_loop; one that assumes no overflow (C lets it) widens i to 64
 * bits and covers every element. The model does not predict it; the suite
 * records it. Why such a launch ends whatever the compiler chose: i starts
 * below T < 2^31 (the suite never launches T >= 2^31 here, gs_model.c), and
 * every trip adds the same positive stride, so the index either stays
 * within 32 bits and wraps (the comparison `(gs_size)i < n` then sees
 * 2^64 - |i|, and the loop ends) or is carried in 64 bits and reaches n;
 * neither passes below the buffer, because a negative i converts to a value
 * larger than any n. The cast is the conversion `i < n` makes implicitly
 * (written out for -Wsign-compare); the addition is the course's. The body
 * is written once and built at the API's usual optimisation; where the
 * kernels are C compiled by GCC (the host and OpenMP backends) at -O0 as
 * well (GS_OPT_O0; empty in CUDA and OpenCL, whose compilers take no
 * per-function level); and, as text after kernels/gs_literal_prefix.gs with
 * kernels/gs_literal_entry.gs, by NVRTC in check's worker, where a deadline
 * would stop it. */
#define GS_INT_LOOP_LITERAL_BODY                                                           \
    GS_TRACE_STATE;                                                                        \
    const int stride = (int)GS_GRID_THREADS_U32();                                         \
    (void)param;                                                                           \
    for (int i = (int)GS_GLOBAL_THREAD_U32(); (gs_size)i < n; i += stride)                 \
        GS_STORE(out, i, a[i] + b[i]);

GS_KERNEL GS_OPT_USUAL void GS_NAME(gs_add_int_loop_literal)(GS_THREAD_CTX GS_GLOBAL
                                                             const gs_real *a,
                                                             GS_GLOBAL const gs_real *b,
                                                             GS_GLOBAL gs_real *out, gs_size n,
                                                             gs_size param)
{
    GS_INT_LOOP_LITERAL_BODY
}

GS_KERNEL GS_OPT_O0 void GS_NAME(gs_add_int_loop_literal_o0)(GS_THREAD_CTX GS_GLOBAL
                                                             const gs_real *a,
                                                             GS_GLOBAL const gs_real *b,
                                                             GS_GLOBAL gs_real *out, gs_size n,
                                                             gs_size param)
{
    GS_INT_LOOP_LITERAL_BODY
}

/* Trap 4 with a signed 64-bit n: the wrapped index stays negative, passes
 * `i < n`, and the kernel writes before the buffer. The model predicts it
 * and the suite never launches it; the text is here so the trap is shown. */
GS_KERNEL void GS_NAME(gs_add_int_loop_signed_n)(GS_THREAD_CTX GS_GLOBAL const gs_real *a,
                                                 GS_GLOBAL const gs_real *b,
                                                 GS_GLOBAL gs_real *out, gs_size n,
                                                 gs_size param)
{
    GS_TRACE_STATE;
    const gs_ssize signed_n = (gs_ssize)n;
    const int stride = (int)GS_GRID_THREADS_U32();
    (void)param;
    for (int i = (int)GS_GLOBAL_THREAD_U32(); (gs_ssize)i < signed_n;
         i = GS_INT_ADD_WRAP(i, stride))
        GS_STORE(out, i, a[i] + b[i]);
}

/* Trap 6, one block per row of `width` elements, the rows along the grid's
 * y axis: CUDA's y grid stops at 65,535 blocks. */
GS_KERNEL void GS_NAME(gs_add_rows)(GS_THREAD_CTX GS_GLOBAL const gs_real *a,
                                    GS_GLOBAL const gs_real *b, GS_GLOBAL gs_real *out, gs_size n,
                                    gs_size width)
{
    GS_TRACE_STATE;
    const gs_size row = GS_BLOCK_IDX_Y();
    for (gs_size c = GS_THREAD_IDX_X(); c < width; c += GS_BLOCK_DIM_X()) {
        const gs_size i = row * width + c;
        if (i < n)
            GS_STORE(out, i, a[i] + b[i]);
    }
}

/* Trap 7, the essay's block-local loop: block b covers its own tile
 * [b * tile, (b + 1) * tile), stepping by the block. On a grid smaller than
 * the tile count the tail is never processed. */
GS_KERNEL void GS_NAME(gs_add_tile_loop)(GS_THREAD_CTX GS_GLOBAL const gs_real *a,
                                         GS_GLOBAL const gs_real *b, GS_GLOBAL gs_real *out,
                                         gs_size n, gs_size tile)
{
    GS_TRACE_STATE;
    const gs_size start = (gs_size)GS_BLOCK_IDX_X() * tile;
    if (start >= n)
        return;
    const gs_size end = n - start > tile ? start + tile : n;
    for (gs_size i = start + GS_THREAD_IDX_X(); i < end; i += GS_BLOCK_DIM_X())
        GS_STORE(out, i, a[i] + b[i]);
}
