/* SPDX-License-Identifier: MIT */
/* Every kernel of the suite, written once.
 *
 * This file is compiled four ways: as plain C by the host backend
 * (prelude_host.h), as CUDA by nvcc (prelude_cuda.cuh), as OpenCL C by the
 * driver at run time from a copy embedded into the binary at build time
 * (prelude_opencl.h), and as C with OpenMP target regions by the OpenMP
 * backend's offloading compiler (prelude_openmp.h). It must therefore stay
 * in the common subset of C99, C++ and OpenCL C, and use only the GS_*
 * macros of the preludes:
 *
 *   GS_KERNEL           marks a kernel entry point (before its void)
 *   GS_GLOBAL           address-space qualifier of a device buffer
 *   GS_THREAD_CTX       the host backend's hidden thread argument (empty on GPUs)
 *   GS_GLOBAL_THREAD()  this thread's global index, 64-bit
 *   GS_GRID_THREADS()   the launch's total thread count T, 64-bit
 *   GS_RESTRICT         the API's restrict qualifier: this pointer is the only
 *                       way the kernel reaches its buffer (true of every kernel
 *                       here but one, which exists to show the difference)
 *   gs_size             64-bit unsigned index
 *   gs_float2, gs_float4   two and four packed floats (8 and 16 bytes)
 *   GS_FLOAT2(x,y), GS_FLOAT4(x,y,z,w)   their values
 *   gs_double2, gs_double4, GS_DOUBLE2(x,y), GS_DOUBLE4(x,y,z,w)
 *                       the same in double (16 and 32 bytes), needed only
 *                       where the file is compiled with GS_F64_BUILD
 *   GS_ATOMIC_INC(p), GS_ATOMIC_MIN_U64(p, v)
 *                       the API's atomics on a 32-bit counter and a 64-bit
 *                       word, for the count and trace builds below
 *
 * Every kernel takes the same arguments so that one launch path serves all:
 * (a, b, out, n, param). Copy kernels ignore b; param is described in
 * core/device/gs_catalog.h, whose rows name these functions. No kernel has a
 * barrier, so the host backend may run a block's threads one after another.
 * The traps of the course (a block stride, 32-bit arithmetic, an int loop)
 * are kernels too, in gs_pitfalls.h, written with the same macros.
 *
 * One kernel text, four builds: normal, count, trace and double (and CUDA's
 * timeline build, GS_TIMELINE_BUILD, below). Every store to `out` goes through GS_STORE,
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
 * traces of fewer than 2^32 threads over fewer than 2^32 elements.
 *
 * The element type is gs_real, with gs_real2, gs_real4, GS_REAL2 and
 * GS_REAL4 for its vectors: float, unless the file is compiled with
 * GS_F64_BUILD defined, which makes it double and names each kernel
 * <name>_f64 (`gridstride bandwidth --type double`). Only the plain build
 * exists in double: the count and trace builds count in 32-bit words and
 * stay float. The inputs are small integers and their sums are exact in
 * either type, so the double build is verified bit for bit like the float. */

#if defined(GS_F64_BUILD) && (defined(GS_COUNT_BUILD) || defined(GS_TRACE_BUILD))
#error "GS_F64_BUILD is the plain build in double: no count or trace build in double"
#endif
#undef gs_real
#undef gs_real2
#undef gs_real4
#undef GS_REAL2
#undef GS_REAL4
#if defined(GS_F64_BUILD)
#define gs_real double
#define gs_real2 gs_double2
#define gs_real4 gs_double4
#define GS_REAL2(x, y) GS_DOUBLE2(x, y)
#define GS_REAL4(x, y, z, w) GS_DOUBLE4(x, y, z, w)
#else
#define gs_real float
#define gs_real2 gs_float2
#define gs_real4 gs_float4
#define GS_REAL2(x, y) GS_FLOAT2(x, y)
#define GS_REAL4(x, y, z, w) GS_FLOAT4(x, y, z, w)
#endif

#undef GS_NAME
#undef GS_STORE
#undef GS_STORE2
#undef GS_STOREV
#undef GS_STORE4
#undef GS_TRACE_STATE
#undef GS_RECORD
#undef GS_STORED
#if defined(GS_COUNT_BUILD) || defined(GS_TRACE_BUILD)
/* The instrumented builds. The value is still computed (and dropped), so
 * that they read what the normal build reads; GS_RECORD records element e,
 * and GS_STORED ends each store (a float4 is one store of four elements). */
#define GS_STORE(out, i, value) ((void)(value), (void)GS_RECORD(out, i), GS_STORED)
#define GS_STOREV(width, outv, i, value)                                                       \
    do {                                                                                       \
        (void)(value).x;                                                                       \
        for (int gs_k = 0; gs_k < (width); ++gs_k)                                             \
            (void)GS_RECORD(outv, (width) * (gs_size)(i) + (gs_size)gs_k);                     \
        GS_STORED;                                                                             \
    } while (0)
#define GS_STORE2(out2, i, value) GS_STOREV(2, out2, i, value)
#define GS_STORE4(out4, i, value) GS_STOREV(4, out4, i, value)
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
#elif defined(GS_TIMELINE_BUILD)
/* The timeline build (CUDA only: `gridstride bandwidth --spread`): each
 * kernel is named <name>_timeline and stores as normal; GS_TRACE_STATE
 * declares the guard of kernels/timeline_cuda.cuh, which records when each
 * SM started and finished. */
#define GS_NAME(kernel) kernel##_timeline
#define GS_TRACE_STATE GS_TIMELINE_GUARD
#define GS_STORE(out, i, value) ((out)[i] = (value))
#define GS_STORE2(out2, i, value) ((out2)[i] = (value))
#define GS_STORE4(out4, i, value) ((out4)[i] = (value))
#elif defined(GS_F64_BUILD)
#define GS_NAME(kernel) kernel##_f64
#define GS_TRACE_STATE
#define GS_STORE(out, i, value) ((out)[i] = (value))
#define GS_STORE2(out2, i, value) ((out2)[i] = (value))
#define GS_STORE4(out4, i, value) ((out4)[i] = (value))
#else
#define GS_NAME(kernel) kernel
#define GS_TRACE_STATE
#define GS_STORE(out, i, value) ((out)[i] = (value))
#define GS_STORE2(out2, i, value) ((out2)[i] = (value))
#define GS_STORE4(out4, i, value) ((out4)[i] = (value))
#endif

/* The kernels' arguments: a and b read, out written, three distinct buffers.
 * GS_ARGS_MAY_ALIAS is the same list without restrict, for the one kernel
 * that shows what the qualifier buys. */
#undef GS_ARGS
#undef GS_ARGS_MAY_ALIAS
#define GS_ARGS                                                                                \
    GS_THREAD_CTX GS_GLOBAL const gs_real *GS_RESTRICT a,                                      \
        GS_GLOBAL const gs_real *GS_RESTRICT b, GS_GLOBAL gs_real *GS_RESTRICT out, gs_size n,  \
        gs_size param
#define GS_ARGS_MAY_ALIAS                                                                      \
    GS_THREAD_CTX GS_GLOBAL const gs_real *a, GS_GLOBAL const gs_real *b,                      \
        GS_GLOBAL gs_real *out, gs_size n, gs_size param

/* One thread per element, guarded by `if (i < n)`. Correct only while the launch
 * holds at least n threads: element i belongs to thread i or to nobody. */
GS_KERNEL void GS_NAME(gs_add_monolithic)(GS_ARGS)
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
GS_KERNEL void GS_NAME(gs_add_grid_stride)(GS_ARGS)
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
GS_KERNEL void GS_NAME(gs_add_chunked)(GS_ARGS)
{
    GS_TRACE_STATE;
    const gs_size begin = GS_GLOBAL_THREAD() * param;
    const gs_size end = (begin < n && n - begin > param) ? begin + param : n;
    for (gs_size i = begin; i < end; ++i)
        GS_STORE(out, i, a[i] + b[i]);
}

/* Grid-stride with four elements per trip, each one stride apart: every
 * access stays coalesced and the loop control is paid once per four. Two
 * builds of one body. Without restrict (may alias) the compiler must assume
 * that the store of element k can change a[] or b[] at element k + 1, so it
 * issues each pair of loads only after the previous store: one pair of loads
 * in flight, as in the plain loop. With restrict all eight loads may go
 * first. */
#define GS_ADD_X4_BODY                                                                         \
    GS_TRACE_STATE;                                                                            \
    const gs_size step = GS_GRID_THREADS();                                                    \
    (void)param;                                                                               \
    for (gs_size base = GS_GLOBAL_THREAD(); base < n; base += 4 * step) {                      \
        for (int k = 0; k < 4; ++k) {                                                          \
            const gs_size i = base + (gs_size)k * step;                                        \
            if (i < n)                                                                         \
                GS_STORE(out, i, a[i] + b[i]);                                                 \
        }                                                                                      \
    }
GS_KERNEL void GS_NAME(gs_add_grid_stride_x4_may_alias)(GS_ARGS_MAY_ALIAS)
{
    GS_ADD_X4_BODY
}
GS_KERNEL void GS_NAME(gs_add_grid_stride_x4)(GS_ARGS)
{
    GS_ADD_X4_BODY
}
#undef GS_ADD_X4_BODY

/* Four elements per trip, the k-th at offset[k] from the trip's first,
 * loads first: all eight loads are written before the first store, so the
 * order needs no help from the compiler. A trip that ends past n takes the
 * guarded path. Used by the grid-stride x4 (offsets one stride apart) and
 * the warp-contiguous x4 (offsets 32 apart); copy reads a only. */
#undef GS_X4_TRIP
#define GS_X4_TRIP(out, i, o1, o2, o3, value_at)                                               \
    do {                                                                                       \
        if ((i) + (o3) < n) {                                                                  \
            const gs_real v0 = value_at(i), v1 = value_at((i) + (o1));                         \
            const gs_real v2 = value_at((i) + (o2)), v3 = value_at((i) + (o3));                \
            GS_STORE(out, i, v0);                                                              \
            GS_STORE(out, (i) + (o1), v1);                                                     \
            GS_STORE(out, (i) + (o2), v2);                                                     \
            GS_STORE(out, (i) + (o3), v3);                                                     \
        } else {                                                                               \
            const gs_size gs_o[4] = {0, (o1), (o2), (o3)};                                     \
            for (int k = 0; k < 4 && (i) + gs_o[k] < n; ++k)                                   \
                GS_STORE(out, (i) + gs_o[k], value_at((i) + gs_o[k]));                         \
        }                                                                                      \
    } while (0)
#undef GS_SUM_AT
#undef GS_COPY_AT
#define GS_SUM_AT(j) (a[j] + b[j])
#define GS_COPY_AT(j) (a[j])

GS_KERNEL void GS_NAME(gs_add_grid_stride_x4_loads_first)(GS_ARGS)
{
    GS_TRACE_STATE;
    const gs_size step = GS_GRID_THREADS();
    (void)param;
    for (gs_size i = GS_GLOBAL_THREAD(); i < n; i += 4 * step)
        GS_X4_TRIP(out, i, step, 2 * step, 3 * step, GS_SUM_AT);
}

/* Warp-contiguous x4. Each group of 32 consecutive threads takes a tile of
 * four adjacent 128-element lines per trip: lane l writes elements l,
 * l + 32, l + 64 and l + 96 of its tile, so every statement is one element
 * per thread and every warp-wide access is one whole line. The groups take
 * tiles T / 32 apart. That needs T to be a multiple of 32: otherwise the
 * last group is short and its tiles would keep gaps, so such a launch runs
 * the plain grid-stride loop, which is right for any T. */
#undef GS_WARP_X4
#define GS_WARP_X4(value_at)                                                                   \
    do {                                                                                       \
        const gs_size T = GS_GRID_THREADS(), t = GS_GLOBAL_THREAD();                           \
        (void)param;                                                                           \
        if (T % 32 != 0) {                                                                     \
            for (gs_size i = t; i < n; i += T)                                                 \
                GS_STORE(out, i, value_at(i));                                                 \
        } else {                                                                               \
            for (gs_size i = t / 32 * 128 + t % 32; i < n; i += 4 * T)                         \
                GS_X4_TRIP(out, i, 32, 64, 96, value_at);                                      \
        }                                                                                      \
    } while (0)

GS_KERNEL void GS_NAME(gs_add_warp_x4)(GS_ARGS)
{
    GS_TRACE_STATE;
    GS_WARP_X4(GS_SUM_AT);
}

GS_KERNEL void GS_NAME(gs_copy_warp_x4)(GS_ARGS)
{
    GS_TRACE_STATE;
    (void)b;
    GS_WARP_X4(GS_COPY_AT);
}

/* Grid-stride over vectors of two and four elements (8 and 16 bytes in
 * float, 16 and 32 in double), then a scalar grid-stride tail for the last
 * n % 2 or n % 4 elements. The buffers come from the API's allocator, which
 * aligns them to at least 64 bytes (CUDA 256, OpenCL its base address
 * alignment, the host 64). */
GS_KERNEL void GS_NAME(gs_add_grid_stride_float2)(GS_ARGS)
{
    GS_TRACE_STATE;
    const gs_size step = GS_GRID_THREADS();
    const gs_size n2 = n / 2;
    GS_GLOBAL const gs_real2 *a2 = (GS_GLOBAL const gs_real2 *)a;
    GS_GLOBAL const gs_real2 *b2 = (GS_GLOBAL const gs_real2 *)b;
    GS_GLOBAL gs_real2 *out2 = (GS_GLOBAL gs_real2 *)out;
    (void)param;
    for (gs_size i = GS_GLOBAL_THREAD(); i < n2; i += step) {
        const gs_real2 va = a2[i];
        const gs_real2 vb = b2[i];
        GS_STORE2(out2, i, GS_REAL2(va.x + vb.x, va.y + vb.y));
    }
    for (gs_size i = 2 * n2 + GS_GLOBAL_THREAD(); i < n; i += step)
        GS_STORE(out, i, a[i] + b[i]);
}

GS_KERNEL void GS_NAME(gs_add_grid_stride_float4)(GS_ARGS)
{
    GS_TRACE_STATE;
    const gs_size step = GS_GRID_THREADS();
    const gs_size n4 = n / 4;
    GS_GLOBAL const gs_real4 *a4 = (GS_GLOBAL const gs_real4 *)a;
    GS_GLOBAL const gs_real4 *b4 = (GS_GLOBAL const gs_real4 *)b;
    GS_GLOBAL gs_real4 *out4 = (GS_GLOBAL gs_real4 *)out;
    (void)param;
    for (gs_size i = GS_GLOBAL_THREAD(); i < n4; i += step) {
        const gs_real4 va = a4[i];
        const gs_real4 vb = b4[i];
        GS_STORE4(out4, i, GS_REAL4(va.x + vb.x, va.y + vb.y, va.z + vb.z, va.w + vb.w));
    }
    for (gs_size i = 4 * n4 + GS_GLOBAL_THREAD(); i < n; i += step)
        GS_STORE(out, i, a[i] + b[i]);
}

/* Copy, coalesced: the grid-stride loop again, reading one array. */
GS_KERNEL void GS_NAME(gs_copy_grid_stride)(GS_ARGS)
{
    GS_TRACE_STATE;
    const gs_size step = GS_GRID_THREADS();
    (void)b;
    (void)param;
    for (gs_size i = GS_GLOBAL_THREAD(); i < n; i += step)
        GS_STORE(out, i, a[i]);
}

/* Copy, four elements a thread per trip (16 bytes in float, 32 in double):
 * gs_real4 grid-stride, then the tail. */
GS_KERNEL void GS_NAME(gs_copy_grid_stride_float4)(GS_ARGS)
{
    GS_TRACE_STATE;
    const gs_size step = GS_GRID_THREADS();
    const gs_size n4 = n / 4;
    GS_GLOBAL const gs_real4 *a4 = (GS_GLOBAL const gs_real4 *)a;
    GS_GLOBAL gs_real4 *out4 = (GS_GLOBAL gs_real4 *)out;
    (void)b;
    (void)param;
    for (gs_size i = GS_GLOBAL_THREAD(); i < n4; i += step)
        GS_STORE4(out4, i, a4[i]);
    for (gs_size i = 4 * n4 + GS_GLOBAL_THREAD(); i < n; i += step)
        GS_STORE(out, i, a[i]);
}

/* Copy, one contiguous chunk of C elements per thread. */
GS_KERNEL void GS_NAME(gs_copy_chunked)(GS_ARGS)
{
    GS_TRACE_STATE;
    const gs_size begin = GS_GLOBAL_THREAD() * param;
    const gs_size end = (begin < n && n - begin > param) ? begin + param : n;
    (void)b;
    for (gs_size i = begin; i < end; ++i)
        GS_STORE(out, i, a[i]);
}

/* Copy with consecutive lanes S elements apart (S = param, a power of two).
 * The grid-stride slot s that a coalesced copy would touch is remapped inside
 * a tile of 32 * S elements, so that lane r % 32 of step r / 32 touches
 * tile + (r % 32) * S + r / 32. The remap is a bijection on every whole tile
 * and the identity on the partial tile at the end, so every element is still
 * copied exactly once, and only the access pattern changes. */
GS_KERNEL void GS_NAME(gs_copy_lane_strided)(GS_ARGS)
{
    GS_TRACE_STATE;
    const gs_size step = GS_GRID_THREADS();
    const gs_size span = 32 * param;
    const gs_size whole = n - (n & (span - 1));
    (void)b;
    for (gs_size s = GS_GLOBAL_THREAD(); s < n; s += step) {
        gs_size e = s;
        if (s < whole) {
            const gs_size r = s & (span - 1);
            e = (s - r) + (r & 31) * param + (r >> 5);
        }
        GS_STORE(out, e, a[e]);
    }
}
