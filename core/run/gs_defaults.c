/* SPDX-License-Identifier: MIT */
#include "gs_defaults.h"

#include <string.h>

int gs_default_sizes(uint64_t T, uint64_t out[GS_MAX_SIZES])
{
    const uint64_t sizes[] = {0, 1, 31, 32, 611, 1024, 1025, T, T + 1, 4194304};
    int n = (int)(sizeof sizes / sizeof sizes[0]);
    memcpy(out, sizes, sizeof sizes);
    return gs_sort_unique(out, n);
}

int gs_sizes_merge(uint64_t v[GS_MAX_SIZES], int count, const uint64_t *add, int add_count)
{
    uint64_t tmp[2 * GS_MAX_SIZES];
    if (count + add_count > 2 * GS_MAX_SIZES)
        return -1;
    memcpy(tmp, v, (size_t)count * sizeof *v);
    memcpy(tmp + count, add, (size_t)add_count * sizeof *add);
    int n = gs_sort_unique(tmp, count + add_count);
    if (n > GS_MAX_SIZES)
        return -1;
    memcpy(v, tmp, (size_t)n * sizeof *v);
    return n;
}

int gs_default_shapes(uint64_t G, uint64_t block, struct gs_shape out[GS_MAX_SHAPES])
{
    out[0] = (struct gs_shape){1, 1};
    out[1] = (struct gs_shape){1, 256};
    out[2] = (struct gs_shape){G, block};
    out[3] = (struct gs_shape){10000, 32};
    return 4;
}

