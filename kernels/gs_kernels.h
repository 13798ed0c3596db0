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
 *
 * Every kernel takes the same arguments so that one launch path serves all:
 * (a, b, out, n, param). Copy kernels ignore b; param is described in
 * core/gs_catalog.h, whose rows name these functions. No kernel has a
 * barrier, so the host backend may run a block's threads one after another.
 * The traps of the course (a block stride, 32-bit arithmetic, an int loop)
 * are kernels too, in gs_pitfalls.h, written with the same macros.
 *
 * One kernel text, two builds. Every store to `out` goes through GS_STORE.
 * Built normally it is the store. Built with GS_COUNT_BUILD defined, each
 * kernel is named <name>_count and GS_STORE instead adds one to a 32-bit
 * counter per element, in `out` itself, with the API's atomics: the count
 * build measures how many times each element is written, with the very loop
 * under test and no copy of its body. */

#undef GS_NAME
#undef GS_STORE
#undef GS_STORE4
#ifdef GS_COUNT_BUILD
#define GS_NAME(kernel) kernel##_count
/* The value is still computed (and dropped), so that the count build reads
 * what the normal build reads. */
#define GS_STORE(out, i, value)                                                                \
    ((void)(value), GS_ATOMIC_INC((GS_GLOBAL unsigned int *)(out) + (i)))
#define GS_STORE4(out4, i, value)                                                              \
    do {                                                                                       \
        (void)(value).x;                                                                       \
        for (int gs_k = 0; gs_k < 4; ++gs_k)                                                   \
            GS_ATOMIC_INC((GS_GLOBAL unsigned int *)(out4) + 4 * (i) + (gs_size)gs_k);          \
    } while (0)
#else
#define GS_NAME(kernel) kernel
#define GS_STORE(out, i, value) ((out)[i] = (value))
#define GS_STORE4(out4, i, value) ((out4)[i] = (value))
#endif

/* One thread per element, guarded by `if (i < n)`. Correct only while the launch
 * holds at least n threads: element i belongs to thread i or to nobody. */
GS_KERNEL void GS_NAME(gs_add_monolithic)(GS_THREAD_CTX GS_GLOBAL const float *a,
                                 GS_GLOBAL const float *b, GS_GLOBAL float *out,
                                 gs_size n, gs_size param)
{
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
