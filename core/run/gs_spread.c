/* SPDX-License-Identifier: MIT */
#include "gs_spread.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gs_device.h"
#include "gs_parse.h"
#include "gs_verify.h"

/* ---- the numbers of one timeline ----------------------------------------- */

/* A unit's place in finish order: its finish, then its id on a tie. */
struct finish_key {
    uint64_t end;
    unsigned id, index;
};

static int by_finish(const void *x, const void *y)
{
    const struct finish_key *a = x, *b = y;
    if (a->end != b->end)
        return a->end < b->end ? -1 : 1;
    return (a->id > b->id) - (a->id < b->id);
}

static int by_value(const void *x, const void *y)
{
    const uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* The smallest nonzero difference between any two of the recorded times. */
static double clock_step(const struct gs_timeline *t)
{
    uint64_t *v = malloc(2 * (size_t)t->nunits * sizeof *v), step = 0;
    if (!v)
        return 0;
    for (unsigned i = 0; i < t->nunits; ++i) {
        v[2 * i] = t->unit[i].start_ns;
        v[2 * i + 1] = t->unit[i].end_ns;
    }
    qsort(v, 2 * (size_t)t->nunits, sizeof *v, by_value);
    for (size_t i = 1; i < 2 * (size_t)t->nunits; ++i)
        if (v[i] > v[i - 1] && (step == 0 || v[i] - v[i - 1] < step))
            step = v[i] - v[i - 1];
    free(v);
    return (double)step;
}

void gs_spread_stats_of(const struct gs_timeline *t, struct gs_spread_stats *s, unsigned *order)
{
    const unsigned k = t->nunits;
    struct finish_key *key = malloc((k ? k : 1) * sizeof *key);
    uint64_t first = UINT64_MAX, last_start = 0, last = 0;
    memset(s, 0, sizeof *s);
    s->event_ms = t->ms;
    if (!key || k == 0) {
        free(key);
        return;
    }
    s->units = k;
    s->blocks_min = UINT32_MAX;
    for (unsigned i = 0; i < k; ++i) {
        const struct gs_timeline_unit *u = &t->unit[i];
        key[i] = (struct finish_key){u->end_ns, u->id, i};
        first = u->start_ns < first ? u->start_ns : first;
        last_start = u->start_ns > last_start ? u->start_ns : last_start;
        last = u->end_ns > last ? u->end_ns : last;
        s->blocks_min = u->blocks < s->blocks_min ? u->blocks : s->blocks_min;
        s->blocks_max = u->blocks > s->blocks_max ? u->blocks : s->blocks_max;
    }
    qsort(key, k, sizeof *key, by_finish);
    for (unsigned i = 0; order && i < k; ++i)
        order[i] = key[i].index;
    const double earliest = (double)(key[0].end - first);
    const double median = k % 2 ? (double)(key[k / 2].end - first)
                                : 0.5 * ((double)(key[k / 2 - 1].end - first) +
                                         (double)(key[k / 2].end - first));
    free(key);
    s->span_us = (double)(last - first) / 1e3;
    s->first_finish_us = earliest / 1e3;
    s->median_finish_us = median / 1e3;
    s->first_idle_us = s->span_us - s->first_finish_us;
    s->median_idle_us = s->span_us - s->median_finish_us;
    s->start_skew_us = (double)(last_start - first) / 1e3;
    s->clock_step_ns = clock_step(t);
}

/* ---- the run ---------------------------------------------------------------- */

void gs_spread_probe(struct gs_device *dev, struct gs_spread *s)
{
    memset(s, 0, sizeof *s);
    s->dev = dev;
    s->available = gs_dev_timeline_check(dev, s->why, sizeof s->why) == GS_OK;
}

void gs_spread_free(struct gs_spread *s)
{
    for (int i = 0; i < GS_SPREAD_LAUNCHES; ++i) {
        free(s->launch[i].rep);
        free(s->launch[i].timeline);
        s->launch[i].rep = NULL;
        s->launch[i].timeline = NULL;
    }
}

/* One launch of the timeline build on a poisoned output, verified after.
 * A wrong or refused launch leaves its reason in row->wrong. */
static int verified_timeline(struct gs_workspace *w, struct gs_spread_launch *row,
                             struct gs_timeline *t, struct gs_err *e)
{
    struct gs_launch_result r;
    struct gs_verdict v;
    struct gs_launch l = row->launch;
    gs_workspace_bind(w, &l);
    int rc = gs_workspace_poison(w, l.n, e);
    if (rc == GS_OK)
        rc = gs_dev_timeline(w->dev, &l, &r, t, e);
    if (rc != GS_OK)
        return rc;
    if (!r.accepted) {
        snprintf(row->wrong, sizeof row->wrong, "launch refused: %s: %s", r.api_error,
                 r.api_message);
        return GS_OK;
    }
    if ((rc = gs_workspace_verify(w, &l, &v, e)) != GS_OK)
        return rc;
    if (!gs_verdict_clean(&v))
        gs_diagnosis(&v, row->wrong, sizeof row->wrong);
    return GS_OK;
}

/* A repetition's place in span order. */
struct span_key {
    double span;
    unsigned index;
};

static int by_span(const void *x, const void *y)
{
    const struct span_key *a = x, *b = y;
    if (a->span != b->span)
        return a->span < b->span ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

/* The kept record, its units in finish order. */
static int keep(struct gs_spread_launch *row, const struct gs_timeline *src, struct gs_err *e)
{
    struct gs_timeline *kept = malloc(sizeof *kept);
    unsigned *order = malloc((src->nunits ? src->nunits : 1) * sizeof *order);
    struct gs_spread_stats unused;
    if (!kept || !order) {
        free(kept);
        free(order);
        return gs_err_set(e, GS_NOMEM, "bandwidth --spread: out of memory");
    }
    for (unsigned i = 0; i < src->nunits; ++i)
        order[i] = i; /* as recorded, should the sort find no memory */
    gs_spread_stats_of(src, &unused, order);
    *kept = *src;
    for (unsigned i = 0; i < src->nunits; ++i)
        kept->unit[i] = src->unit[order[i]];
    free(order);
    row->timeline = kept;
    return GS_OK;
}

/* The repetitions of one row: one warm-up, then `reps` kept, each verified;
 * the one of median span is kept whole (t[0] is the warm-up's). */
static int run_row(struct gs_workspace *w, struct gs_spread *s, struct gs_spread_launch *row,
                   struct gs_err *e)
{
    struct gs_timeline *t = malloc((size_t)(s->reps + 1) * sizeof *t);
    struct span_key *idx = malloc(s->reps * sizeof *idx);
    int rc = GS_OK;
    row->rep = calloc(s->reps, sizeof *row->rep);
    if (!row->rep || !t || !idx) {
        rc = gs_err_set(e, GS_NOMEM, "bandwidth --spread: out of memory for %u timelines",
                        s->reps);
        goto out;
    }
    for (unsigned i = 0; i <= s->reps; ++i) {
        snprintf(w->label, sizeof w->label, "%s %s: %u wave%s, %s %u of %u",
                 s->dev->backend->name, s->dev->name, row->waves, row->waves == 1 ? "" : "s",
                 i ? "launch" : "warm-up", i, s->reps);
        if ((rc = verified_timeline(w, row, &t[i], e)) != GS_OK)
            goto out;
        if (row->wrong[0]) {
            s->wrong++;
            goto out;
        }
        if (i)
            gs_spread_stats_of(&t[i], &row->rep[row->made++], NULL);
    }
    for (unsigned i = 0; i < s->reps; ++i)
        idx[i] = (struct span_key){row->rep[i].span_us, i};
    qsort(idx, s->reps, sizeof *idx, by_span);
    row->kept = idx[(s->reps - 1) / 2].index;
    row->stats = row->rep[row->kept];
    if ((rc = keep(row, &t[row->kept + 1], e)) == GS_OK)
        row->verified = 1;
out:
    free(t);
    free(idx);
    return rc;
}

int gs_spread_run(struct gs_device *dev, const struct gs_spread_plan *p, struct gs_spread *s,
                  struct gs_err *e)
{
    struct gs_workspace w = {0};
    int rc;
    gs_spread_probe(dev, s);
    s->n = p->n;
    s->block = p->block ? p->block : GS_DEFAULT_BLOCK;
    s->reps = p->reps ? p->reps : GS_SPREAD_DEFAULT_REPS;
    if (!s->available)
        return GS_OK;
    if (s->reps > GS_SPREAD_MAX_REPS)
        return gs_err_set(e, GS_USAGE, "--reps: --spread keeps at most %u launches; choose "
                                       "fewer", GS_SPREAD_MAX_REPS);
    if (p->n < 4)
        return gs_err_set(e, GS_USAGE, "bandwidth --spread: n = %llu; give at least 4 elements",
                          (unsigned long long)p->n);
    if ((rc = gs_dev_grid(dev, GS_SPREAD_KERNEL, s->block, &s->grid, s->grid_rule,
                          sizeof s->grid_rule, e)) != GS_OK)
        return rc;
    for (int i = 0; i < GS_SPREAD_LAUNCHES; ++i) {
        struct gs_spread_launch *row = &s->launch[i];
        struct gs_launch *l = &row->launch;
        char why[160];
        row->waves = i == 0 ? 1u : GS_SPREAD_WAVES;
        l->kernel = GS_SPREAD_KERNEL;
        l->n = p->n;
        l->block = s->block;
        l->grid = s->grid * row->waves;
        l->global = l->grid * l->block;
        if (gs_dev_predicts_accept(dev, l, why, sizeof why) != GS_ACCEPTS)
            return gs_err_set(e, GS_USAGE,
                              "bandwidth --spread: %u wave%s of G = %llu needs <<<%llu, %llu>>>, "
                              "which %s refuses (%s); choose another --block",
                              row->waves, row->waves == 1 ? "" : "s",
                              (unsigned long long)s->grid, (unsigned long long)l->grid,
                              (unsigned long long)l->block, dev->backend->name, why);
    }
    if ((rc = gs_workspace_open(&w, dev, p->n, p->progress, e)) != GS_OK)
        return rc;
    for (int i = 0; i < GS_SPREAD_LAUNCHES && rc == GS_OK; ++i)
        rc = run_row(&w, s, &s->launch[i], e);
    gs_workspace_close(&w);
    return rc;
}
