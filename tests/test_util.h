/* SPDX-License-Identifier: MIT */
/* Helpers shared by the unit tests. */
#ifndef GS_TEST_UTIL_H
#define GS_TEST_UTIL_H

#include "gs_backend.h"

/* A launch of kernel k on n elements, <<<grid, block>>>, without buffers. */
static inline struct gs_launch launch_of(enum gs_kernel_id k, uint64_t n, uint64_t grid,
                                         uint64_t block)
{
    struct gs_launch l = {0};
    l.kernel = k;
    l.n = n;
    l.grid = grid;
    l.block = block;
    l.global = grid * block;
    return l;
}

#endif
