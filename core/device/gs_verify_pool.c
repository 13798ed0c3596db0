/* SPDX-License-Identifier: MIT */
#include "gs_verify_pool.h"

#include <stdlib.h>
#include <string.h>

#include "gs_catalog.h"

/* Parts of at least 1 Mi elements, at most 256 (merged in index order). */
#define PART_MIN (1ull << 20)
#define PARTS_MAX 256u

struct job {
    float *out;
    const char *in;
    enum gs_type type;
    uint64_t n;
    unsigned parts;
    enum gs_op op;
    struct gs_vpart *part;
};

static unsigned parts_for(uint64_t n)
{
    const uint64_t p = n / PART_MIN;
    return p < 1 ? 1u : p > PARTS_MAX ? PARTS_MAX : (unsigned)p;
}

static void slice(const struct job *j, unsigned k, uint64_t *lo, uint64_t *hi)
{
    *lo = j->n * k / j->parts;
    *hi = j->n * (k + 1) / j->parts;
}

static void poison_part(void *ctx, unsigned k)
{
    const struct job *j = ctx;
    uint64_t lo, hi;
    slice(j, k, &lo, &hi);
    const uint32_t poison = GS_POISON_BITS;
    for (uint64_t i = lo; i < hi; ++i)
        memcpy(&j->out[i], &poison, sizeof poison);
}

void gs_poison_pool(struct gs_pool *pool, float *out, uint64_t n)
{
    struct job j = {out, NULL, GS_TYPE_FLOAT, n, pool ? parts_for(n) : 1, GS_OP_ADD, NULL};
    if (j.parts > 1)
        gs_pool_run(pool, poison_part, &j, j.parts);
    else
        poison_part(&j, 0);
    const uint32_t guard = GS_GUARD_BITS;
    for (uint64_t i = n; i < n + GS_GUARD_ELEMS; ++i)
        memcpy(&out[i], &guard, sizeof guard);
}

static void verify_part(void *ctx, unsigned k)
{
    const struct job *j = ctx;
    uint64_t lo, hi;
    slice(j, k, &lo, &hi);
    gs_verify_span_as(j->type, j->in + lo * gs_type_size(j->type), NULL, j->op, lo, hi - lo,
                      &j->part[k]);
}

void gs_verify_pool(struct gs_pool *pool, const void *out, const struct gs_launch *l,
                    struct gs_verdict *v)
{
    const struct gs_kernel_info *k = gs_kernel_info(l->kernel);
    struct job j = {NULL, out, l->type, l->n, parts_for(l->n), k ? k->op : GS_OP_ADD, NULL};
    j.part = pool && j.parts > 1 ? calloc(j.parts, sizeof *j.part) : NULL;
    if (!j.part) { /* one thread: the same verdict */
        gs_verify(out, NULL, l, v);
        return;
    }
    gs_pool_run(pool, verify_part, &j, j.parts);
    gs_verify_begin(l, v);
    for (unsigned p = 0; p < j.parts; ++p)
        gs_verify_merge(l, &j.part[p], v);
    gs_verify_end(l, (const char *)out + l->n * gs_type_size(l->type), v);
    free(j.part);
}

void gs_poison_readback(struct gs_pool *pool, float *out, uint64_t n)
{
    gs_poison_pool(pool, out, n);
    const uint32_t guard = GS_GUARD_BITS;
    float *front = gs_readback_front(out, n);
    for (uint64_t i = 0; i < GS_FRONT_ELEMS; ++i)
        memcpy(&front[i], &guard, sizeof guard);
}

void gs_verify_readback(struct gs_pool *pool, const float *out, const struct gs_launch *l,
                        struct gs_verdict *v)
{
    gs_verify_pool(pool, out, l, v);
    gs_verify_front(l, gs_readback_front((void *)out, l->n), v);
}
