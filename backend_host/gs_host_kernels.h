/* The kernels of kernels/gs_kernels.h compiled as plain C, and their table
 * in catalogue order. Included by the host backend, and by the verifier's
 * tests, which check the owner map against what the kernels really do. */
#ifndef GS_HOST_KERNELS_H
#define GS_HOST_KERNELS_H

#include "gs_catalog.h"
#include "prelude_host.h"
#include "gs_kernels.h"

typedef void (*gs_host_kernel_fn)(const struct gs_host_thread *, const float *, const float *,
                                  float *, gs_size, gs_size);

static const gs_host_kernel_fn gs_host_kernels[GS_KERNEL_COUNT] = {
#define GS_HOST_KERNEL_ROW(id, sym, name, op, bytes, rule, param) [GS_K_##id] = sym,
    GS_KERNEL_LIST(GS_HOST_KERNEL_ROW)
#undef GS_HOST_KERNEL_ROW
};

#endif
