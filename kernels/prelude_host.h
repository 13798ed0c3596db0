/* SPDX-License-Identifier: MIT */
/* The kernel dialect for the host backend: plain C11. A "thread" is one call
 * of the kernel function with its coordinates in a gs_host_thread; the host
 * backend loops over blocks and threads. Coordinates are unsigned int like
 * CUDA's built-ins, so the widening casts in the macros matter here too. */
#ifndef GS_PRELUDE_HOST_H
#define GS_PRELUDE_HOST_H

#include <stdint.h>

typedef uint64_t gs_size;
typedef int64_t gs_ssize;
typedef struct {
    float x, y;
} gs_float2;
typedef struct {
    float x, y, z, w;
} gs_float4;
/* The double build's vectors (kernels/gs_kernels.h, GS_F64_BUILD). */
typedef struct {
    double x, y;
} gs_double2;
typedef struct {
    double x, y, z, w;
} gs_double4;

struct gs_host_thread {
    unsigned int block_idx;  /* blockIdx.x */
    unsigned int block_dim;  /* blockDim.x */
    unsigned int grid_dim;   /* gridDim.x */
    unsigned int thread_idx; /* threadIdx.x */
    unsigned int block_idx_y; /* blockIdx.y */
};

#define GS_KERNEL static
#define GS_GLOBAL
#define GS_THREAD_CTX const struct gs_host_thread *gs_t,
#define GS_GLOBAL_THREAD() ((gs_size)gs_t->block_idx * gs_t->block_dim + gs_t->thread_idx)
#define GS_GRID_THREADS() ((gs_size)gs_t->grid_dim * gs_t->block_dim)
#define GS_FLOAT2(x, y) ((gs_float2){(x), (y)})
#define GS_FLOAT4(x, y, z, w) ((gs_float4){(x), (y), (z), (w)})
#define GS_DOUBLE2(x, y) ((gs_double2){(x), (y)})
#define GS_DOUBLE4(x, y, z, w) ((gs_double4){(x), (y), (z), (w)})
#define GS_RESTRICT restrict
#define GS_BLOCK_IDX_X() (gs_t->block_idx)
#define GS_BLOCK_IDX_Y() (gs_t->block_idx_y)
#define GS_THREAD_IDX_X() (gs_t->thread_idx)
#define GS_BLOCK_DIM_X() (gs_t->block_dim)
/* The pitfalls' 32-bit arithmetic: unsigned int, as CUDA's built-ins. */
#define GS_GLOBAL_THREAD_U32() (gs_t->block_idx * gs_t->block_dim + gs_t->thread_idx)
#define GS_GRID_THREADS_U32() (gs_t->grid_dim * gs_t->block_dim)
/* int + int with two's-complement wrap, from defined unsigned arithmetic
 * (the conversion back to int is GCC's and Clang's documented modulo). */
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
/* The count and trace builds: the host backend runs blocks on several cores
 * at once, so the updates are atomic (GCC's and Clang's builtins, relaxed:
 * only the end state of each word matters, a count and a minimum, and it
 * does not depend on the order). */
#define GS_ATOMIC_INC(p) __atomic_add_fetch((p), 1u, __ATOMIC_RELAXED)
#define GS_ATOMIC_MIN_U64(p, v) gs_host_atomic_min_u64((p), (v))
static inline void gs_host_atomic_min_u64(uint64_t *p, uint64_t v)
{
    uint64_t seen = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (v < seen &&
           !__atomic_compare_exchange_n(p, &seen, v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
}

#endif
