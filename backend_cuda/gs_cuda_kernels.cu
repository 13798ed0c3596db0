/* SPDX-License-Identifier: MIT */
/* The kernels of kernels/gs_kernels.h compiled by nvcc (the normal, count,
 * trace and double builds), and the tables that let the C side of the
 * backend reach them. This is the only C++ in the
 * backend: no launch logic lives here, so that every API call is made (and
 * checked) in one place, gs_cuda.c and its parts. */
#include <cuda_runtime.h>

#include "gs_cuda_kernels.h"

#include "prelude_cuda.cuh"

#include "gs_kernels.h"
#include "gs_pitfalls.h"

#define GS_COUNT_BUILD
#include "gs_kernels.h"
#include "gs_pitfalls.h"
#undef GS_COUNT_BUILD

#define GS_TRACE_BUILD
#include "gs_kernels.h"
#include "gs_pitfalls.h"
#undef GS_TRACE_BUILD

/* The timeline build: the guard that GS_TRACE_STATE declares records when
 * each SM started and finished (kernels/timeline_cuda.cuh). */
#include "timeline_cuda.cuh"
#define GS_TIMELINE_BUILD
#include "gs_kernels.h"
#include "gs_pitfalls.h"
#undef GS_TIMELINE_BUILD
#define GS_F64_BUILD
#include "gs_kernels.h"
#include "gs_pitfalls.h"
#undef GS_F64_BUILD

/* Taking a kernel's address in host code yields the stub that nvcc
 * registers with the runtime: the handle cudaLaunchKernel expects. The rows
 * are positional (C++17 has no designated array initialisers), in
 * GS_KERNEL_LIST order, which is by construction the order of enum
 * gs_kernel_id. */
extern "C" const void *const gs_cuda_kernel_symbols[GS_KERNEL_COUNT] = {
#define GS_CUDA_KERNEL_ROW(id, sym, name, op, bytes, rule, param) \
    reinterpret_cast<const void *>(sym),
    GS_KERNEL_LIST(GS_CUDA_KERNEL_ROW)
#undef GS_CUDA_KERNEL_ROW
};


/* The count build of the same kernels (kernels/gs_kernels.h), same order. */
extern "C" const void *const gs_cuda_count_symbols[GS_KERNEL_COUNT] = {
#define GS_CUDA_KERNEL_ROW(id, sym, name, op, bytes, rule, param) \
    reinterpret_cast<const void *>(sym##_count),
    GS_KERNEL_LIST(GS_CUDA_KERNEL_ROW)
#undef GS_CUDA_KERNEL_ROW
};

/* The trace build (kernels/gs_kernels.h), same order. */
extern "C" const void *const gs_cuda_trace_symbols[GS_KERNEL_COUNT] = {
#define GS_CUDA_KERNEL_ROW(id, sym, name, op, bytes, rule, param) \
    reinterpret_cast<const void *>(sym##_trace),
    GS_KERNEL_LIST(GS_CUDA_KERNEL_ROW)
#undef GS_CUDA_KERNEL_ROW
};

/* The timeline build (kernels/timeline_cuda.cuh), same order. */
extern "C" const void *const gs_cuda_timeline_symbols[GS_KERNEL_COUNT] = {
#define GS_CUDA_KERNEL_ROW(id, sym, name, op, bytes, rule, param) \
    reinterpret_cast<const void *>(sym##_timeline),
    GS_KERNEL_LIST(GS_CUDA_KERNEL_ROW)
#undef GS_CUDA_KERNEL_ROW
};

/* Its records on the device, by the host-side handle that the runtime's
 * symbol calls (cudaGetSymbolAddress, cudaMemcpyFromSymbolAsync) take. */
extern "C" const struct gs_cuda_timeline_vars gs_cuda_timeline_vars = {
    &gs_timeline_start, &gs_timeline_end, &gs_timeline_blocks, &gs_timeline_overflow,
    GS_TIMELINE_SLOTS};
/* The double build (kernels/gs_kernels.h, GS_F64_BUILD), same order. */
extern "C" const void *const gs_cuda_f64_symbols[GS_KERNEL_COUNT] = {
#define GS_CUDA_KERNEL_ROW(id, sym, name, op, bytes, rule, param) \
    reinterpret_cast<const void *>(sym##_f64),
    GS_KERNEL_LIST(GS_CUDA_KERNEL_ROW)
#undef GS_CUDA_KERNEL_ROW
};
