/* SPDX-License-Identifier: MIT */
/* What a run covers when the command line does not say: seed 002's ten
 * sizes and four launch shapes, which the table and check share. */
#ifndef GS_DEFAULTS_H
#define GS_DEFAULTS_H

#include "gs_parse.h"

/* Seed 002's ten sizes for a device grid of T threads: 0, 1, 31, 32, 611,
 * 1024, 1025, T, T+1, 4194304, sorted, duplicates removed. Returns the count. */
int gs_default_sizes(uint64_t T, uint64_t out[GS_MAX_SIZES]);

/* Merge `add` into v (sorted, unique). Returns the new count, or -1 when the
 * result would exceed GS_MAX_SIZES. */
int gs_sizes_merge(uint64_t v[GS_MAX_SIZES], int count, const uint64_t *add, int add_count);

/* Seed 002's four shapes for a device grid of G blocks of `block` threads:
 * <<<1,1>>>, <<<1,256>>>, <<<G,block>>>, <<<10000,32>>>. Returns 4. */
int gs_default_shapes(uint64_t G, uint64_t block, struct gs_shape out[GS_MAX_SHAPES]);

#endif
