/* SPDX-License-Identifier: MIT */
/* The kernels of kernels/gs_kernels.h and kernels/gs_pitfalls.h compiled as
 * plain C, four times: as they are, as the count build (GS_COUNT_BUILD,
 * whose kernels are named <name>_count), as the trace build
 * (GS_TRACE_BUILD, <name>_trace) and in double (GS_F64_BUILD, <name>_f64),
 * with a table of each in catalogue order. Included by the host backend,
 * and by the verifier's tests, which check the owner map and the model's
 * counts against what the kernels really do. */
#ifndef GS_HOST_KERNELS_H
#define GS_HOST_KERNELS_H

#include "gs_backend.h"
#include "gs_catalog.h"
#include "prelude_host.h"

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

#define GS_F64_BUILD
#include "gs_kernels.h"
#include "gs_pitfalls.h"
#undef GS_F64_BUILD

typedef void (*gs_host_kernel_fn)(const struct gs_host_thread *, const float *, const float *,
                                  float *, gs_size, gs_size);
/* The double build's kernels take double buffers. */
typedef void (*gs_host_kernel_f64_fn)(const struct gs_host_thread *, const double *,
                                      const double *, double *, gs_size, gs_size);

static const gs_host_kernel_fn gs_host_kernels[GS_KERNEL_COUNT] = {
#define GS_HOST_KERNEL_ROW(id, sym, name, op, bytes, rule, param) [GS_K_##id] = sym,
    GS_KERNEL_LIST(GS_HOST_KERNEL_ROW)
#undef GS_HOST_KERNEL_ROW
};

static const gs_host_kernel_fn gs_host_count_kernels[GS_KERNEL_COUNT] = {
#define GS_HOST_KERNEL_ROW(id, sym, name, op, bytes, rule, param) [GS_K_##id] = sym##_count,
    GS_KERNEL_LIST(GS_HOST_KERNEL_ROW)
#undef GS_HOST_KERNEL_ROW
};

static const gs_host_kernel_fn gs_host_trace_kernels[GS_KERNEL_COUNT] = {
#define GS_HOST_KERNEL_ROW(id, sym, name, op, bytes, rule, param) [GS_K_##id] = sym##_trace,
    GS_KERNEL_LIST(GS_HOST_KERNEL_ROW)
#undef GS_HOST_KERNEL_ROW
};

static const gs_host_kernel_f64_fn gs_host_f64_kernels[GS_KERNEL_COUNT] = {
#define GS_HOST_KERNEL_ROW(id, sym, name, op, bytes, rule, param) [GS_K_##id] = sym##_f64,
    GS_KERNEL_LIST(GS_HOST_KERNEL_ROW)
#undef GS_HOST_KERNEL_ROW
};

/* The table of each float build, indexed by enum gs_build; the double
 * build, whose kernels have another type, is gs_host_f64_kernels, and its
 * entry here is NULL. */
static const gs_host_kernel_fn *const gs_host_builds[GS_BUILDS] = {
    [GS_BUILD_PLAIN] = gs_host_kernels,
    [GS_BUILD_COUNT] = gs_host_count_kernels,
    [GS_BUILD_TRACE] = gs_host_trace_kernels,
};

#endif
