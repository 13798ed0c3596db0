/* SPDX-License-Identifier: MIT */
/* Every kernel of the suite, written once.
 *
 * This file is compiled three ways: as plain C by the host backend
 * (prelude_host.h), as CUDA by nvcc (prelude_cuda.cuh), and as OpenCL C by the
 * driver at run time from a copy embedded into the binary at build time
 * (prelude_opencl.h). It must therefore stay in the common subset of C99,
 * C++ and OpenCL C, and use only the GS_* macros of the preludes:
 *
 *   GS_KERNEL           marks a kernel entry point (before its void)
 *   GS_GLOBAL           address-space qualifier of a device buffer
 *   GS_THREAD_CTX       the host backend's hidden thread argument (empty on GPUs)
 *   GS_GLOBAL_THREAD()  this thread's global index, 64-bit
 *   GS_GRID_THREADS()   the launch's total thread count T, 64-bit
 *   gs_size, gs_float4  64-bit unsigned index, four packed floats
 *   GS_FLOAT4(x,y,z,w)  a gs_float4 value
 *   GS_ATOMIC_INC(p), GS_ATOMIC_MIN_U64(p, v)
 *                       the API's atomics on a 32-bit counter and a 64-bit
 *                       word, for the count and trace builds below
 *
 * Every kernel takes the same arguments so that one launch path serves all:
 * (a, b, out, n, param). Copy kernels ignore b; param is described in
 * core/gs_catalog.h, whose rows name these functions. No kernel has a
 * barrier, so the host backend may run a block's threads one after another.
 * The traps of the course (a block stride, 32-bit arithmetic, an int loop)
 * are kernels too, in gs_pitfalls.h, written with the same macros.
 *
 * One kernel text, three builds. Every store to `out` goes through GS_STORE,
 * and every kernel opens with GS_TRACE_STATE. Built normally GS_STORE is the
 * store and GS_TRACE_STATE declares nothing. Built with GS_COUNT_BUILD
 * defined, each kernel is named <name>_count and GS_STORE instead adds one to
 * a 32-bit counter per element, in `out` itself, with the API's atomics: the
 * count build measures how many times each element is written, with the very
 * loop under test and no copy of its body.
 *
 * Built with GS_TRACE_BUILD defined, each kernel is named <name>_trace and
 * records who wrote each element (`gridstride trace`). `out` then holds a
 * record of four 32-bit words per element, all 0xFFFFFFFF before the launch:
 *   word 0     the write count, plus one modulo 2^32 (atomic increment);
 *   word 1     a fence that no store touches (a write there is a defect);
 *   words 2-3  a 64-bit key, writer x 2^32 + pass, lowered by an atomic
 *              minimum, so that the lowest-numbered writer is kept whatever
 *              order the threads ran in: every API leaves the same map.
 * The writer is the thread's linear global index (blockIdx.y x T + its index
 * in x, T the threads along x); the pass is how many stores that thread made
 * before this one (GS_TRACE_STATE's counter): the trip of a grid-stride loop,
 * the step within a chunk. Both must stay below 2^32: the core launches
 * traces of fewer than 2^32 threads over fewer than 2^32 elements. */

#undef GS_NAME
#undef GS_STORE
#undef GS_STORE4
#undef GS_TRACE_STATE
#undef GS_RECORD
#undef GS_STORED
#if defined(GS_COUNT_BUILD) || defined(GS_TRACE_BUILD)
/* The instrumented builds. The value is still computed (and dropped), so
 * that they read what the normal build reads; GS_RECORD records element e,
 * and GS_STORED ends each store (a float4 is one store of four elements). */
#define GS_STORE(out, i, value) ((void)(value), (void)GS_RECORD(out, i), GS_STORED)
#define GS_STORE4(out4, i, value)                                                              \
    do {                                                                                       \
        (void)(value).x;                                                                       \
        for (int gs_k = 0; gs_k < 4; ++gs_k)                                                   \
            (void)GS_RECORD(out4, 4 * (gs_size)(i) + (gs_size)gs_k);                           \
        GS_STORED;                                                                             \
    } while (0)
#endif
#if defined(GS_COUNT_BUILD)
#define GS_NAME(kernel) kernel##_count
#define GS_TRACE_STATE
#define GS_RECORD(out, e) GS_ATOMIC_INC((GS_GLOBAL unsigned int *)(out) + (e))
#define GS_STORED ((void)0)
#elif defined(GS_TRACE_BUILD)
#define GS_NAME(kernel) kernel##_trace
/* The thread's store counter: its value at a store is that store's pass. */
#define GS_TRACE_STATE gs_size gs_trace_pass = 0
#define GS_TRACE_WRITER() ((gs_size)GS_BLOCK_IDX_Y() * GS_GRID_THREADS() + GS_GLOBAL_THREAD())
#define GS_TRACE_KEY() ((GS_TRACE_WRITER() << 32) | (gs_trace_pass & (gs_size)0xFFFFFFFFu))
/* Element e's record: count up, key down to the smallest writer's. */
#define GS_RECORD(out, e)                                                                      \
    (GS_ATOMIC_INC((GS_GLOBAL unsigned int *)(out) + 4 * (gs_size)(e)),                        \
     GS_ATOMIC_MIN_U64((GS_GLOBAL gs_size *)((GS_GLOBAL unsigned int *)(out) +                 \
                                             4 * (gs_size)(e) + 2),                            \
                       GS_TRACE_KEY()))
#define GS_STORED ((void)++gs_trace_pass)
#else
#define GS_NAME(kernel) kernel
#define GS_TRACE_STATE
#define GS_STORE(out, i, value) ((out)[i] = (value))
#define GS_STORE4(out4, i, value) ((out4)[i] = (value))
#endif

/* One thread per element, guarded by `if (i < n)`. Correct only while the launch
 * holds at least n threads: element i belongs to thread i or to nobody. */
GS_KERNEL void GS_NAME(gs_add_monolithic)(GS_THREAD_CTX GS_GLOBAL const float *a,
                                 GS_GLOBAL const float *b, GS_GLOBAL float *out,
                                 gs_size n, gs_size param)
{
    GS_TRACE_STATE;
    const gs_size i = GS_GLOBAL_THREAD();
    (void)param;
    if (i < n)
        GS_STORE(out, i, a[i] + b[i]);
}

/* The grid-stride loop. Element i is written by thread i % T on pass i / T,
 * exactly once for every T >= 1. The stride is 64-bit: the widening inside
 * GS_GRID_THREADS() is load-bearing, not style. */
GS_KERNEL void GS_NAME(gs_add_grid_stride)(GS_THREAD_CTX GS_GLOBAL const float *a,
                                  GS_GLOBAL const float *b, GS_GLOBAL float *out,
                                  gs_size n, gs_size param)
{
    GS_TRACE_STATE;
    const gs_size step = GS_GRID_THREADS();
    (void)param;
    for (gs_size i = GS_GLOBAL_THREAD(); i < n; i += step)
        GS_STORE(out, i, a[i] + b[i]);
}

/* One contiguous chunk per thread: thread t handles [t*C, (t+1)*C). Correct
 * when C >= ceil(n / T), but the lanes of a warp touch addresses C elements
 * apart at every step: a strided access with a tidy name. */
GS_KERNEL void GS_NAME(gs_add_chunked)(GS_THREAD_CTX GS_GLOBAL const float *a,
                              GS_GLOBAL const float *b, GS_GLOBAL float *out,
                              gs_size n, gs_size chunk)
{
    GS_TRACE_STATE;
    const gs_size begin = GS_GLOBAL_THREAD() * chunk;
    const gs_size end = (begin < n && n - begin > chunk) ? begin + chunk : n;
    for (gs_size i = begin; i < end; ++i)
        GS_STORE(out, i, a[i] + b[i]);
}

/* Grid-stride with four elements per trip, each one stride apart, so every
 * access stays coalesced and the loop control is paid once per four. */
GS_KERNEL void GS_NAME(gs_add_grid_stride_x4)(GS_THREAD_CTX GS_GLOBAL const float *a,
                                     GS_GLOBAL const float *b, GS_GLOBAL float *out,
                                     gs_size n, gs_size param)
{
    GS_TRACE_STATE;
    const gs_size step = GS_GRID_THREADS();
    (void)param;
    for (gs_size base = GS_GLOBAL_THREAD(); base < n; base += 4 * step) {
        for (int k = 0; k < 4; ++k) {
            const gs_size i = base + (gs_size)k * step;
            if (i < n)
                GS_STORE(out, i, a[i] + b[i]);
        }
    }
}

/* Grid-stride over 16-byte vectors, then a scalar grid-stride tail for the
 * last n % 4 elements. The buffers come from the API's allocator, which aligns
 * them to at least 16 bytes. */
GS_KERNEL void GS_NAME(gs_add_grid_stride_float4)(GS_THREAD_CTX GS_GLOBAL const float *a,
                                                  GS_GLOBAL const float *b, GS_GLOBAL float *out,
                                         gs_size n, gs_size param)
{
    GS_TRACE_STATE;
    const gs_size step = GS_GRID_THREADS();
    const gs_size n4 = n / 4;
    GS_GLOBAL const gs_float4 *a4 = (GS_GLOBAL const gs_float4 *)a;
    GS_GLOBAL const gs_float4 *b4 = (GS_GLOBAL const gs_float4 *)b;
    GS_GLOBAL gs_float4 *out4 = (GS_GLOBAL gs_float4 *)out;
    (void)param;
    for (gs_size i = GS_GLOBAL_THREAD(); i < n4; i += step) {
        const gs_float4 va = a4[i];
        const gs_float4 vb = b4[i];
        GS_STORE4(out4, i, GS_FLOAT4(va.x + vb.x, va.y + vb.y, va.z + vb.z, va.w + vb.w));
    }
    for (gs_size i = 4 * n4 + GS_GLOBAL_THREAD(); i < n; i += step)
        GS_STORE(out, i, a[i] + b[i]);
}

/* Copy, coalesced: the grid-stride loop again, reading one array. */
GS_KERNEL void GS_NAME(gs_copy_grid_stride)(GS_THREAD_CTX GS_GLOBAL const float *a,
                                   GS_GLOBAL const float *b, GS_GLOBAL float *out,
                                   gs_size n, gs_size param)
{
    GS_TRACE_STATE;
    const gs_size step = GS_GRID_THREADS();
    (void)b;
    (void)param;
    for (gs_size i = GS_GLOBAL_THREAD(); i < n; i += step)
        GS_STORE(out, i, a[i]);
}

/* Copy, one contiguous chunk of C elements per thread. */
GS_KERNEL void GS_NAME(gs_copy_chunked)(GS_THREAD_CTX GS_GLOBAL const float *a,
                               GS_GLOBAL const float *b, GS_GLOBAL float *out,
                               gs_size n, gs_size chunk)
{
    GS_TRACE_STATE;
    const gs_size begin = GS_GLOBAL_THREAD() * chunk;
    const gs_size end = (begin < n && n - begin > chunk) ? begin + chunk : n;
    (void)b;
    for (gs_size i = begin; i < end; ++i)
        GS_STORE(out, i, a[i]);
}

/* Copy with consecutive lanes S elements apart (S a power of two). The
 * grid-stride slot s that a coalesced copy would touch is remapped inside a
 * tile of 32 * S elements, so that lane r % 32 of step r / 32 touches
 * tile + (r % 32) * S + r / 32. The remap is a bijection on every whole tile
 * and the identity on the partial tile at the end, so every element is still
 * copied exactly once, and only the access pattern changes. */
GS_KERNEL void GS_NAME(gs_copy_lane_strided)(GS_THREAD_CTX GS_GLOBAL const float *a,
                                    GS_GLOBAL const float *b, GS_GLOBAL float *out,
                                    gs_size n, gs_size stride)
{
    GS_TRACE_STATE;
    const gs_size step = GS_GRID_THREADS();
    const gs_size span = 32 * stride;
    const gs_size whole = n - (n & (span - 1));
    (void)b;
    for (gs_size s = GS_GLOBAL_THREAD(); s < n; s += step) {
        gs_size e = s;
        if (s < whole) {
            const gs_size r = s & (span - 1);
            e = (s - r) + (r & 31) * stride + (r >> 5);
        }
        GS_STORE(out, e, a[e]);
    }
}
