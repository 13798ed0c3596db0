/* SPDX-License-Identifier: MIT */
#include "gs_trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gs_device.h"
#include "gs_memory.h"
#include "gs_parallel.h"

/* A cell takes the bytes of its record, so the record is decoded in place. */
_Static_assert(sizeof(struct gs_trace_cell) == GS_TRACE_WORDS * sizeof(uint32_t),
               "a trace cell is the size of its record");

#define GS_2_32 (1ull << 32)
/* Parts of the comparison with the model: plenty for every pool. */
#define GS_TRACE_PARTS 64u

int gs_trace_plan_check(const struct gs_trace_plan *p, struct gs_err *e)
{
    if (p->n < 1 || p->n > GS_TRACE_MAX_N)
        return gs_err_set(e, GS_USAGE,
                          "--n %llu: a trace draws 1 to %llu elements; choose --n in that range",
                          (unsigned long long)p->n, (unsigned long long)GS_TRACE_MAX_N);
    if (p->grid < 1 || p->block < 1)
        return gs_err_set(e, GS_USAGE, "a trace needs a grid and a block; give --grid and "
                                       "--block of at least 1");
    if (p->grid >= GS_2_32 / p->block)
        return gs_err_set(e, GS_USAGE,
                          "<<<%llu, %llu>>> has 2^32 threads or more; a trace records 32-bit "
                          "thread indices: choose a smaller --grid or --block",
                          (unsigned long long)p->grid, (unsigned long long)p->block);
    if (p->nkernels < 1)
        return gs_err_set(e, GS_USAGE, "a trace needs a kernel; name at least one with --kernels");
    return GS_OK;
}

void gs_trace_launch(const struct gs_trace_plan *p, enum gs_kernel_id k, struct gs_launch *l)
{
    const struct gs_kernel_info *info = gs_kernel_info(k);
    *l = (struct gs_launch){0};
    l->kernel = k;
    l->n = p->n;
    l->grid = p->grid;
    l->block = p->block;
    l->global = p->grid * p->block;
    switch (info ? info->param : GS_PARAM_NONE) {
    case GS_PARAM_CHUNK:
        l->param = (p->n + l->global - 1) / l->global;
        break;
    case GS_PARAM_STRIDE:
        l->param = GS_TRACE_STRIDE;
        break;
    case GS_PARAM_TILE:
        l->param = 2 * p->block;
        break;
    case GS_PARAM_WIDTH:
        /* the grid's blocks become rows along y, one block wide */
        l->grid = 1;
        l->grid_y = p->grid;
        l->global = p->block;
        l->param = (p->n + p->grid - 1) / p->grid;
        break;
    default:
        break;
    }
}

void gs_trace_expect(const struct gs_launch *l, unsigned t_bits, uint64_t i,
                     struct gs_trace_cell *c)
{
    const uint64_t count = gs_model_count(l, t_bits, i);
    struct gs_owner o;
    c->count = count > UINT32_MAX ? UINT32_MAX : (uint32_t)count;
    c->pass = GS_TRACE_NO_PASS;
    c->writer = GS_TRACE_NONE;
    if (count == 0)
        return;
    gs_owner_of(l, i, &o);
    c->writer = o.writer;
    c->pass = o.store > UINT32_MAX ? UINT32_MAX : (uint32_t)o.store;
}

/* ---- the record ---------------------------------------------------------- */

/* The n records (kernels/gs_kernels.h, GS_TRACE_BUILD) become cells, in
 * place. Returns how many fence words changed. */
static uint64_t decode(struct gs_trace_cell *cells, uint64_t n)
{
    uint64_t fence_hits = 0;
    for (uint64_t i = 0; i < n; ++i) {
        uint32_t w[GS_TRACE_WORDS];
        uint64_t key;
        memcpy(w, &cells[i], sizeof w);
        memcpy(&key, &w[2], sizeof key); /* the devices' byte order is the host's */
        fence_hits += w[1] != GS_TRACE_EMPTY;
        cells[i].count = w[0] - GS_TRACE_EMPTY;
        cells[i].writer = key == UINT64_MAX ? GS_TRACE_NONE : key >> 32;
        cells[i].pass = key == UINT64_MAX ? GS_TRACE_NO_PASS : (uint32_t)key;
    }
    return fence_hits;
}

static int cells_equal(const struct gs_trace_cell *a, const struct gs_trace_cell *b)
{
    return a->count == b->count && a->pass == b->pass && a->writer == b->writer;
}

/* ---- the comparison with the model, on the workspace's threads ------------ */

struct compare_part {
    uint64_t mismatched, first;
    int listed;
    struct gs_trace_mismatch list[GS_LISTED];
};

struct compare_job {
    const struct gs_trace_kernel *k;
    unsigned t_bits, parts;
    struct compare_part part[GS_TRACE_PARTS];
};

static void compare_part(void *ctx, unsigned p)
{
    struct compare_job *j = ctx;
    struct compare_part *out = &j->part[p];
    const uint64_t n = j->k->launch.n;
    const uint64_t lo = n * p / j->parts, hi = n * (p + 1) / j->parts;
    *out = (struct compare_part){0};
    for (uint64_t i = lo; i < hi; ++i) {
        struct gs_trace_cell want;
        gs_trace_expect(&j->k->launch, j->t_bits, i, &want);
        if (cells_equal(&j->k->cells[i], &want))
            continue;
        if (out->mismatched++ == 0)
            out->first = i;
        if (out->listed < GS_LISTED)
            out->list[out->listed++] = (struct gs_trace_mismatch){i, j->k->cells[i], want};
    }
}

/* Parts are merged in index order, so the first mismatch and the listed
 * ones are those of one pass. */
int gs_trace_compare(struct gs_trace_kernel *k, unsigned t_bits, struct gs_pool *pool,
                     struct gs_err *e)
{
    struct compare_job *j = calloc(1, sizeof *j);
    if (!j)
        return gs_err_set(e, GS_NOMEM, "out of memory");
    j->k = k;
    j->t_bits = t_bits;
    j->parts = GS_TRACE_PARTS;
    k->mismatched = k->first_mismatch = 0;
    k->listed = 0;
    if (pool)
        gs_pool_run(pool, compare_part, j, j->parts);
    else
        for (unsigned p = 0; p < j->parts; ++p)
            compare_part(j, p);
    for (unsigned p = 0; p < j->parts; ++p) {
        const struct compare_part *part = &j->part[p];
        if (part->mismatched && k->mismatched == 0)
            k->first_mismatch = part->first;
        k->mismatched += part->mismatched;
        for (int m = 0; m < part->listed && k->listed < GS_LISTED; ++m)
            k->list[k->listed++] = part->list[m];
    }
    free(j);
    return GS_OK;
}

/* ---- facts of a recorded map --------------------------------------------- */

static uint64_t count_segments(const uint64_t *elems, uint64_t count)
{
    uint64_t segments = 0;
    for (uint64_t a = 0; a < count; ++a) {
        int seen = 0;
        for (uint64_t b = 0; b < a && !seen; ++b)
            seen = elems[b] / GS_TRACE_SEGMENT == elems[a] / GS_TRACE_SEGMENT;
        segments += !seen;
    }
    return segments;
}

/* Lanes 0..31 of block 0 at step s: the elements they are recorded for. */
static void warp_step(const struct gs_trace_kernel *k, uint32_t s, struct gs_warp_step *w)
{
    enum { MAX = 4 * GS_TRACE_WARP }; /* a float4 lane touches four */
    uint64_t elems[MAX];
    uint64_t n = 0;
    *w = (struct gs_warp_step){0};
    for (unsigned l = 0; l < GS_TRACE_WARP; ++l)
        w->lane_at[l] = GS_TRACE_NONE;
    for (uint64_t i = 0; i < k->launch.n; ++i) {
        const struct gs_trace_cell *c = &k->cells[i];
        if (c->writer >= GS_TRACE_WARP || c->writer >= k->launch.block || c->pass != s)
            continue;
        if (w->elements++ == 0)
            w->first = i;
        w->last = i;
        if (n < MAX)
            elems[n++] = i;
        if (w->lane_at[c->writer] == GS_TRACE_NONE)
            w->lane_at[c->writer] = i;
    }
    while (w->lanes < GS_TRACE_WARP && w->lane_at[w->lanes] != GS_TRACE_NONE)
        ++w->lanes;
    w->segments = count_segments(elems, n);
    if (w->lanes < 2)
        return;
    w->apart = w->lane_at[1] - w->lane_at[0];
    for (unsigned l = 2; l < w->lanes; ++l)
        if (w->lane_at[l] - w->lane_at[l - 1] != w->apart)
            w->apart = 0;
}

void gs_trace_facts(struct gs_trace_kernel *k)
{
    const uint64_t n = k->launch.n;
    k->written = k->writes = k->duplicated = k->max_count = k->passes = 0;
    k->thread0_total = 0;
    k->nthread0 = k->nsteps = 0;
    k->first_unwritten = n;
    for (uint64_t i = 0; i < n; ++i) {
        const struct gs_trace_cell *c = &k->cells[i];
        if (c->count == 0 && k->first_unwritten == n)
            k->first_unwritten = i;
        k->written += c->count > 0;
        k->writes += c->count;
        k->duplicated += c->count > 1;
        if (c->count > k->max_count)
            k->max_count = c->count;
        if (c->writer == GS_TRACE_NONE)
            continue;
        if ((uint64_t)c->pass + 1 > k->passes)
            k->passes = (uint64_t)c->pass + 1;
        if (c->writer == 0 && k->thread0_total++ < GS_TRACE_SHOWN)
            k->thread0[k->nthread0++] = i;
    }
    for (int s = 0; s < GS_TRACE_STEPS && (uint64_t)s < k->passes; ++s) {
        warp_step(k, (uint32_t)s, &k->warp[s]);
        k->nsteps = s + 1;
    }
}

/* ---- running a plan ------------------------------------------------------ */

static int open_workspace(struct gs_device *dev, const struct gs_trace_plan *plan,
                          struct gs_workspace *w, struct gs_err *e)
{
    const uint64_t words = GS_TRACE_WORDS * plan->n;
    struct gs_err why = {0};
    if (gs_memory_preflight(dev, words, &why) != GS_OK)
        return gs_err_set(e, GS_USAGE, "--n %llu: the trace's buffers (%u words per element) do "
                                       "not fit (%s); choose a smaller --n",
                          (unsigned long long)plan->n, GS_TRACE_WORDS, why.msg);
    return gs_workspace_open(w, dev, words, plan->progress, e);
}

/* The launch's outcome against its prediction; the map when it ran. */
static int trace_kernel(struct gs_trace *t, struct gs_workspace *w, struct gs_trace_kernel *k,
                        struct gs_err *e)
{
    const char *api = t->dev->backend->name;
    snprintf(w->label, sizeof w->label, "%s %s: trace of %s", api, t->dev->name,
             gs_kernel_info(k->launch.kernel)->name);
    k->cells = malloc(k->launch.n * sizeof *k->cells);
    if (!k->cells)
        return gs_err_set(e, GS_NOMEM, "out of memory for a trace of %llu elements",
                          (unsigned long long)k->launch.n);
    gs_workspace_bind(w, &k->launch);
    int rc = gs_checked_trace(w, &k->launch, (uint32_t *)(void *)k->cells, &k->got,
                              &k->guard_hits, e);
    k->launch.a = k->launch.b = k->launch.out = NULL;
    if (rc != GS_OK || !k->got.accepted) {
        free(k->cells);
        k->cells = NULL;
        k->held = rc == GS_OK && k->pred.outcome == GS_OUT_REFUSED;
        /* through a copy: GCC cannot tell k->why from the strings beside it */
        char why[sizeof k->why];
        snprintf(why, sizeof why, "%s %s the launch: %s (%s)%s", api,
                 k->got.not_sent ? "did not send" : "refused", k->got.api_error,
                 k->got.api_message, k->held ? ", as predicted" : ", unpredicted");
        gs_strlcpy(k->why, why, sizeof k->why);
        return rc;
    }
    k->fence_hits = decode(k->cells, k->launch.n);
    if ((rc = gs_trace_compare(k, t->t_bits, w->pool, e)) != GS_OK)
        return rc;
    gs_trace_facts(k);
    k->held = k->mismatched == 0 && k->guard_hits == 0 && k->fence_hits == 0;
    if (!k->held)
        snprintf(k->why, sizeof k->why,
                 "the recorded map differs from the model at %llu elements (the first at %llu); "
                 "%llu guard and %llu fence words written",
                 (unsigned long long)k->mismatched, (unsigned long long)k->first_mismatch,
                 (unsigned long long)k->guard_hits, (unsigned long long)k->fence_hits);
    else if (k->pred.outcome == GS_OUT_REFUSED) {
        char why[sizeof k->why];
        snprintf(why, sizeof why, "deviation: predicted refused (%s), yet %s ran it, and the map "
                                  "is the model's", k->pred.why, api);
        gs_strlcpy(k->why, why, sizeof k->why);
    }
    return GS_OK;
}

int gs_trace_run(struct gs_device *dev, const struct gs_trace_plan *plan, struct gs_trace *t,
                 struct gs_err *e)
{
    struct gs_workspace w = {0};
    memset(t, 0, sizeof *t);
    t->dev = dev;
    t->plan = *plan;
    t->t_bits = gs_model_t_bits(dev);
    int rc = gs_trace_plan_check(plan, e);
    if (rc != GS_OK)
        return rc;
    if (!(dev->caps & GS_CAP_TRACE))
        return gs_err_set(e, GS_UNSUPPORTED, "the %s backend has no trace build on %s",
                          dev->backend->name, dev->name);
    if ((rc = open_workspace(dev, plan, &w, e)) != GS_OK)
        return rc;
    for (int i = 0; i < plan->nkernels && rc == GS_OK; ++i) {
        struct gs_trace_kernel *k = &t->k[t->nkernels++];
        gs_trace_launch(plan, plan->kernels[i], &k->launch);
        if (k->launch.grid_y > 1 && !(dev->caps & GS_CAP_2D)) {
            k->held = 1;
            snprintf(k->why, sizeof k->why, "not run: the %s backend has no 2D launches",
                     dev->backend->name);
            continue;
        }
        /* the model predicts, and the map is compared with, what runs */
        if ((rc = gs_dev_grant(dev, &k->launch, e)) != GS_OK)
            break;
        gs_predict(dev, &k->launch, &k->pred);
        if (k->pred.outcome == GS_OUT_NOT_LAUNCHED) {
            k->held = 1;
            char why[sizeof k->why];
            snprintf(why, sizeof why, "not launched: %s", k->pred.why);
            gs_strlcpy(k->why, why, sizeof k->why);
            continue;
        }
        rc = trace_kernel(t, &w, k, e);
        t->failed += rc == GS_OK && !k->held;
    }
    gs_workspace_close(&w);
    return rc;
}

void gs_trace_free(struct gs_trace *t)
{
    for (int i = 0; i < t->nkernels; ++i) {
        free(t->k[i].cells);
        t->k[i].cells = NULL;
    }
}

/* ---- the backends against each other ------------------------------------- */

static uint64_t first_difference(const struct gs_trace_kernel *a, const struct gs_trace_kernel *b)
{
    for (uint64_t i = 0; i < a->launch.n; ++i)
        if (!cells_equal(&a->cells[i], &b->cells[i]))
            return i;
    return a->launch.n;
}

int gs_trace_same_launch(const struct gs_launch *a, const struct gs_launch *b)
{
    return a->grid == b->grid && a->block == b->block && a->global == b->global &&
           a->grid_y == b->grid_y && a->n == b->n && a->param == b->param;
}

int gs_trace_agree(const struct gs_trace *const *runs, int nruns,
                   struct gs_trace_agreement out[GS_KERNEL_COUNT])
{
    int all = 1;
    const int nk = nruns > 0 ? runs[0]->nkernels : 0;
    for (int k = 0; k < nk; ++k) {
        struct gs_trace_agreement *g = &out[k];
        int first = -1;
        *g = (struct gs_trace_agreement){0, 0, 1, -1, -1, 0};
        for (int r = 0; r < nruns; ++r) {
            const struct gs_trace_kernel *tk = &runs[r]->k[k];
            if (!tk->cells)
                continue;
            if (first >= 0 && !gs_trace_same_launch(&runs[first]->k[k].launch, &tk->launch)) {
                ++g->other_launch;
                continue;
            }
            ++g->compared;
            if (first < 0) {
                first = r;
                continue;
            }
            const uint64_t d = first_difference(&runs[first]->k[k], tk);
            if (d < tk->launch.n && g->equal) {
                g->equal = 0;
                g->a = first;
                g->b = r;
                g->first_difference = d;
            }
        }
        all &= g->equal;
    }
    return all;
}
