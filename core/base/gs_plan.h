/* SPDX-License-Identifier: MIT */
/* What a run covers: the course's ten sizes and four launch shapes, and the
 * parsers for the user's own (--sizes, --shape). */
#ifndef GS_PLAN_H
#define GS_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "gs_status.h"

#define GS_DEFAULT_BLOCK 256u
#define GS_MAX_SIZES 64
#define GS_MAX_SHAPES 16

/* A launch shape <<<grid, block>>>. grid == 0 in a default shape means "the
 * device grid G", filled in per device. */
struct gs_shape {
    uint64_t grid;
    uint64_t block;
};

/* Seed 002's ten sizes for a device grid of T threads: 0, 1, 31, 32, 611,
 * 1024, 1025, T, T+1, 4194304, sorted, duplicates removed. Returns the count. */
int gs_default_sizes(uint64_t T, uint64_t out[GS_MAX_SIZES]);

/* Merge `add` into v (sorted, unique). Returns the new count, or -1 when the
 * result would exceed GS_MAX_SIZES. */
int gs_sizes_merge(uint64_t v[GS_MAX_SIZES], int count, const uint64_t *add, int add_count);

/* Seed 002's four shapes for a device grid of G blocks of `block` threads:
 * <<<1,1>>>, <<<1,256>>>, <<<G,block>>>, <<<10000,32>>>. Returns 4. */
int gs_default_shapes(uint64_t G, uint64_t block, struct gs_shape out[GS_MAX_SHAPES]);

/* A whole decimal number in [min, max]: no sign, no suffix, no blanks. `what`
 * names the option in the message. */
int gs_parse_u64(const char *s, uint64_t min, uint64_t max, const char *what, uint64_t *out,
                 struct gs_err *e);

/* Split the comma list s into at most max entries: items point into buf, a
 * copy of s of at most size bytes. Every list of the command line and the
 * environment goes through here, so a stray comma (",a", "a,", "a,,b") is
 * refused the same way everywhere: GS_USAGE naming `what` and the list;
 * `wanted` ends "give ..." for an empty list. */
int gs_split_list(const char *s, const char *what, const char *wanted, char *buf, size_t size,
                  char **items, int max, int *count, struct gs_err *e);

/* "0,1,611,4194304" -> sorted unique sizes. */
int gs_parse_sizes(const char *s, uint64_t out[GS_MAX_SIZES], int *count, struct gs_err *e);

/* "GxB", e.g. "160x256". Grid >= 1, block >= 1; device limits are checked later. */
int gs_parse_shape(const char *s, struct gs_shape *out, struct gs_err *e);

#endif
