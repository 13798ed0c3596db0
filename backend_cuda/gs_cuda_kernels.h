/* SPDX-License-Identifier: MIT */
/* The seam between the C host side of the CUDA backend (gs_cuda*.c) and the
 * one translation unit nvcc compiles (gs_cuda_kernels.cu).
 *
 * Only the .cu file can name a __global__ function; everything else happens
 * through the runtime API, which is plain C. So the .cu exports one table:
 * the host-side handle of each kernel, in catalogue order, which is what
 * cudaLaunchKernel, cudaFuncGetAttributes and the occupancy calculator take
 * as `const void *func`. The C side then never needs a C++ compiler, and the
 * executable that links this backend stays a C program. */
#ifndef GS_CUDA_KERNELS_H
#define GS_CUDA_KERNELS_H

#include "gs_catalog.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Indexed by enum gs_kernel_id; every entry is non-NULL. */
extern const void *const gs_cuda_kernel_symbols[GS_KERNEL_COUNT];
/* The count build of each (kernels/gs_kernels.h), same order. */
extern const void *const gs_cuda_count_symbols[GS_KERNEL_COUNT];
/* The trace build of each, same order. */
extern const void *const gs_cuda_trace_symbols[GS_KERNEL_COUNT];
/* The timeline build of each (kernels/timeline_cuda.cuh), same order. */
extern const void *const gs_cuda_timeline_symbols[GS_KERNEL_COUNT];

/* The timeline build's per-SM records, as __device__ globals of the .cu:
 * each member is the symbol handle of one (for cudaGetSymbolAddress and
 * cudaMemcpyFromSymbolAsync), with `slots` entries per array. */
struct gs_cuda_timeline_vars {
    const void *start;    /* unsigned long long[slots]: each SM's first block start */
    const void *end;      /* unsigned long long[slots]: each SM's last warp finish */
    const void *blocks;   /* unsigned int[slots]: blocks that ran on each SM */
    const void *overflow; /* unsigned int: 1 when an SM numbered slots or more ran a block */
    unsigned slots;
};
extern const struct gs_cuda_timeline_vars gs_cuda_timeline_vars;
/* The double build of each (GS_F64_BUILD), same order. */
extern const void *const gs_cuda_f64_symbols[GS_KERNEL_COUNT];

#ifdef __cplusplus
}
#endif

#endif
