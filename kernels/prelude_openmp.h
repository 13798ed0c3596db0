/* SPDX-License-Identifier: MIT */
/* The kernel dialect for OpenMP target offload (C11 with OpenMP 4.5+).
 *
 * A kernel runs as an SPMD region: `target teams num_teams(G)
 * thread_limit(B)` and, inside it, `parallel`, and every thread of every
 * team calls the kernel once (backend_openmp/gs_openmp_kernels.c). A team
 * is a block and an OpenMP thread a thread of it. num_teams and
 * thread_limit are upper bounds, and GCC's nvptx offload runs an OpenMP
 * thread as a whole warp, so the launch that runs is not the one asked for:
 * every index below is read from the runtime inside the region, never from
 * the launch arguments. The runtime's values are int; the products are
 * taken in 64 bits.
 *
 * Include it, and the kernels after it, between `#pragma omp declare target`
 * and `#pragma omp end declare target`: every function here is device code. */
#ifndef GS_PRELUDE_OPENMP_H
#define GS_PRELUDE_OPENMP_H

#include <omp.h>
#include <stdint.h>

typedef uint64_t gs_size;
typedef int64_t gs_ssize;
typedef struct {
    float x, y;
} gs_float2;
typedef struct {
    float x, y, z, w;
} gs_float4;
/* The double build's vectors (kernels/gs_kernels.h, GS_F64_BUILD); this
 * backend builds no double kernels, but the prelude has every type. */
typedef struct {
    double x, y;
} gs_double2;
typedef struct {
    double x, y, z, w;
} gs_double4;

#define GS_KERNEL static
#define GS_GLOBAL
#define GS_THREAD_CTX
#define GS_GLOBAL_THREAD()                                                                     \
    ((gs_size)omp_get_team_num() * (gs_size)omp_get_num_threads() +                            \
     (gs_size)omp_get_thread_num())
#define GS_GRID_THREADS() ((gs_size)omp_get_num_teams() * (gs_size)omp_get_num_threads())
#define GS_FLOAT2(x, y) ((gs_float2){(x), (y)})
#define GS_FLOAT4(x, y, z, w) ((gs_float4){(x), (y), (z), (w)})
#define GS_DOUBLE2(x, y) ((gs_double2){(x), (y)})
#define GS_DOUBLE4(x, y, z, w) ((gs_double4){(x), (y), (z), (w)})
#define GS_RESTRICT restrict
#define GS_BLOCK_IDX_X() ((unsigned int)omp_get_team_num())
/* Teams are one-dimensional: the backend runs no 2D launch (no GS_CAP_2D),
 * so every launch it runs is row 0. */
#define GS_BLOCK_IDX_Y() 0u
#define GS_THREAD_IDX_X() ((unsigned int)omp_get_thread_num())
#define GS_BLOCK_DIM_X() ((unsigned int)omp_get_num_threads())
/* The pitfalls' 32-bit arithmetic: unsigned int, as CUDA's built-ins. */
#define GS_GLOBAL_THREAD_U32()                                                                 \
    ((unsigned int)omp_get_team_num() * (unsigned int)omp_get_num_threads() +                  \
     (unsigned int)omp_get_thread_num())
#define GS_GRID_THREADS_U32() ((unsigned int)omp_get_num_teams() * (unsigned int)omp_get_num_threads())
/* int + int with two's-complement wrap, from defined unsigned arithmetic
 * (the conversion back to int is GCC's documented modulo). */
#define GS_INT_ADD_WRAP(x, y) ((int)((unsigned int)(x) + (unsigned int)(y)))
/* The literal pitfalls' optimisation (kernels/gs_pitfalls.h): GCC's usual
 * -O2 whatever the build's level, and -O0 beside it, per function. The
 * signed overflow is what those rows record, so a sanitizer build (no
 * recovery) does not stop at it. */
#if defined(__clang__)
#define GS_OPT_USUAL __attribute__((no_sanitize("signed-integer-overflow")))
#define GS_OPT_O0 __attribute__((optnone, no_sanitize("signed-integer-overflow")))
#elif defined(__GNUC__)
#define GS_OPT_USUAL __attribute__((optimize("O2"), no_sanitize("signed-integer-overflow")))
#define GS_OPT_O0 __attribute__((optimize("O0"), no_sanitize("signed-integer-overflow")))
#else
#define GS_OPT_USUAL
#define GS_OPT_O0
#endif

/* The count build: GS_STORE is an expression, and a pragma cannot be one,
 * so the atomic lives in a function. */
static inline void gs_omp_atomic_inc(unsigned int *p)
{
#pragma omp atomic update
    ++*p;
}
#define GS_ATOMIC_INC(p) gs_omp_atomic_inc(p)

/* The trace build's 64-bit minimum. OpenMP has it only from 5.1 (atomic
 * compare), newer than the GCC offload compilers this backend takes, so a
 * compare-and-swap loop of GCC's atomics, which nvptx has for 64 bits. */
static inline void gs_omp_atomic_min_u64(uint64_t *p, uint64_t v)
{
    uint64_t old = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (v < old &&
           !__atomic_compare_exchange_n(p, &old, v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
}
#define GS_ATOMIC_MIN_U64(p, v) gs_omp_atomic_min_u64((p), (v))

#endif
