/* SPDX-License-Identifier: MIT */
#include "gs_parse.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The largest n any run accepts: 2^40 elements (4 TiB of floats) is beyond
 * every device, so allocation limits, not this, refuse real requests. */
#define GS_MAX_N (1ull << 40)

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

int gs_sort_unique(uint64_t *v, int count)
{
    qsort(v, (size_t)count, sizeof *v, cmp_u64);
    int w = 0;
    for (int r = 0; r < count; ++r)
        if (w == 0 || v[w - 1] != v[r])
            v[w++] = v[r];
    return w;
}

int gs_parse_u64(const char *s, uint64_t min, uint64_t max, const char *what, uint64_t *out,
                 struct gs_err *e)
{
    if (!s || !*s)
        return gs_err_set(e, GS_USAGE, "%s: empty value; give a whole number from %llu to %llu",
                          what, (unsigned long long)min, (unsigned long long)max);
    for (const char *p = s; *p; ++p)
        if (*p < '0' || *p > '9')
            return gs_err_set(e, GS_USAGE,
                              "%s: '%.*s%s' is not a whole number; give digits only, from %llu "
                              "to %llu",
                              what, GS_ECHO(s), (unsigned long long)min, (unsigned long long)max);
    errno = 0;
    unsigned long long v = strtoull(s, NULL, 10);
    if (errno == ERANGE || v < min || v > max)
        return gs_err_set(e, GS_USAGE, "%s: %.*s%s is out of range; give a number from %llu to %llu",
                          what, GS_ECHO(s), (unsigned long long)min, (unsigned long long)max);
    *out = v;
    return GS_OK;
}

int gs_split_list(const char *s, const char *what, const char *wanted, char *buf, size_t size,
                  char **items, int max, int *count, struct gs_err *e)
{
    *count = 0;
    if (!s || !*s)
        return gs_err_set(e, GS_USAGE, "%s: empty list; give %s", what, wanted);
    if (strlen(s) >= size)
        return gs_err_set(e, GS_USAGE, "%s: list of %zu bytes; it holds at most %zu bytes (and "
                                       "%d entries): give a shorter list", what, strlen(s),
                          size - 1, max);
    strcpy(buf, s);
    for (char *item = buf;; ++item) {
        char *comma = strchr(item, ',');
        if (comma)
            *comma = '\0';
        if (!*item)
            return gs_err_set(e, GS_USAGE,
                              "%s: '%.*s%s' has an empty entry; separate entries by single commas",
                              what, GS_ECHO(s));
        if (*count == max)
            return gs_err_set(e, GS_USAGE, "%s: more than %d entries; give at most %d", what, max,
                              max);
        items[(*count)++] = item;
        if (!comma)
            return GS_OK;
        item = comma;
    }
}

int gs_parse_sizes(const char *s, uint64_t out[GS_MAX_SIZES], int *count, struct gs_err *e)
{
    char buf[1024], *items[GS_MAX_SIZES];
    int n = 0;
    int rc = gs_split_list(s, "--sizes", "sizes like 0,1,611,4194304", buf, sizeof buf, items,
                           GS_MAX_SIZES, &n, e);
    for (int i = 0; i < n && rc == GS_OK; ++i)
        rc = gs_parse_u64(items[i], 0, GS_MAX_N, "--sizes", &out[i], e);
    if (rc != GS_OK)
        return rc;
    *count = gs_sort_unique(out, n);
    return GS_OK;
}

int gs_parse_shape(const char *s, struct gs_shape *out, struct gs_err *e)
{
    const char *x = s ? strchr(s, 'x') : NULL;
    char grid[32], block[32];
    if (!x || x == s || !x[1] || (size_t)(x - s) >= sizeof grid || strlen(x + 1) >= sizeof block)
        return gs_err_set(e, GS_USAGE,
                          "--shape: '%.*s%s' is not GRIDxBLOCK; write it like 160x256",
                          GS_ECHO(s ? s : ""));
    memcpy(grid, s, (size_t)(x - s));
    grid[x - s] = '\0';
    strcpy(block, x + 1);
    int rc = gs_parse_u64(grid, 1, UINT32_MAX, "--shape grid", &out->grid, e);
    if (rc == GS_OK)
        rc = gs_parse_u64(block, 1, UINT32_MAX, "--shape block", &out->block, e);
    return rc;
}
