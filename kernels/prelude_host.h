/* The kernel dialect for the host backend: plain C11. A "thread" is one call
 * of the kernel function with its coordinates in a gs_host_thread; the host
 * backend loops over blocks and threads. Coordinates are unsigned int like
 * CUDA's built-ins, so the widening casts in the macros matter here too. */
#ifndef GS_PRELUDE_HOST_H
#define GS_PRELUDE_HOST_H

#include <stdint.h>

typedef uint64_t gs_size;
typedef struct {
    float x, y, z, w;
} gs_float4;

struct gs_host_thread {
    unsigned int block_idx;  /* blockIdx.x */
    unsigned int block_dim;  /* blockDim.x */
    unsigned int grid_dim;   /* gridDim.x */
    unsigned int thread_idx; /* threadIdx.x */
};

#define GS_KERNEL static
#define GS_GLOBAL
#define GS_THREAD_CTX const struct gs_host_thread *gs_t,
#define GS_GLOBAL_THREAD() ((gs_size)gs_t->block_idx * gs_t->block_dim + gs_t->thread_idx)
#define GS_GRID_THREADS() ((gs_size)gs_t->grid_dim * gs_t->block_dim)

#endif
