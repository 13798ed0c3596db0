/* SPDX-License-Identifier: MIT */
/* The parsers of the command line's numbers and lists (--sizes, --shape,
 * every comma list), and the types they fill. The course's own sizes and
 * shapes are the planning's (core/run/gs_defaults.h). */
#ifndef GS_PARSE_H
#define GS_PARSE_H

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

/* Sort v and drop repeated values; returns the new count. */
int gs_sort_unique(uint64_t *v, int count);

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
