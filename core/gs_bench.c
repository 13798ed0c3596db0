/* SPDX-License-Identifier: MIT */
#include "gs_bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gs_device.h"
#include "gs_plan.h"
#include "gs_verify.h"
#include "gs_workspace.h"

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
    return a / b + (a % b != 0);
}

static struct gs_bench_row *add_row(struct gs_bench *b, enum gs_bench_group g, const char *label,
                                    enum gs_kernel_id k, uint64_t grid, uint64_t param)
{
    struct gs_bench_row *r = &b->rows[b->nrows++];
    memset(r, 0, sizeof *r);
    r->group = g;
    snprintf(r->label, sizeof r->label, "%s", label);
    r->launch.kernel = k;
    r->launch.n = b->n;
    r->launch.grid = grid;
    r->launch.block = b->block;
    r->launch.global = grid * b->block;
    r->launch.param = param;
    r->bytes = (uint64_t)gs_kernel_info(k)->bytes_per_element * b->n;
    return r;
}

static void plan_rows(struct gs_bench *b)
{
    static const unsigned strides[] = {2, 4, 8, 16, 32};
    static const struct { unsigned num, den; const char *label; } scales[] = {
        {1, 8, "G/8"}, {1, 4, "G/4"}, {1, 2, "G/2"}, {1, 1, "G"},
        {3, 2, "1.5G"}, {2, 1, "2G"}, {4, 1, "4G"}, {16, 1, "16G"}};
    const uint64_t G = b->grid;
    char label[64];

    struct gs_bench_row *copy = add_row(b, GS_BG_CEILING, "device-to-device copy (the API's own)",
                                        GS_K_COPY_GS, 1, 0);
    copy->is_copy = 1;
    add_row(b, GS_BG_ADD, "add, monolithic, grid = n / block", GS_K_ADD_MONO,
            ceil_div(b->n, b->block), 0);
    add_row(b, GS_BG_ADD, "add, grid-stride", GS_K_ADD_GS, G, 0);
    add_row(b, GS_BG_ADD, "add, grid-stride, 4 per trip", GS_K_ADD_GS_X4, G, 0);
    add_row(b, GS_BG_ADD, "add, grid-stride, float4", GS_K_ADD_GS_F4, G, 0);
    add_row(b, GS_BG_ACCESS, "copy, coalesced (grid-stride)", GS_K_COPY_GS, G, 0);
    add_row(b, GS_BG_ACCESS, "copy, one chunk per thread", GS_K_COPY_CHUNKED, G,
            ceil_div(b->n, G * b->block));
    for (size_t i = 0; i < sizeof strides / sizeof strides[0]; ++i) {
        snprintf(label, sizeof label, "copy, lanes %u elements apart", strides[i]);
        add_row(b, GS_BG_ACCESS, label, GS_K_COPY_STRIDED, G, strides[i]);
    }
    for (size_t i = 0; i < sizeof scales / sizeof scales[0]; ++i) {
        uint64_t g = G * scales[i].num / scales[i].den;
        snprintf(label, sizeof label, "add, grid-stride, grid %s", scales[i].label);
        add_row(b, GS_BG_LAUNCH, label, GS_K_ADD_GS, g ? g : 1, 0);
    }
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* One device-timed repetition of a row. */
static int time_once(struct gs_device *dev, const struct gs_bench_row *r, struct gs_buf *src,
                     struct gs_buf *dst, double *ms, struct gs_err *e)
{
    if (r->is_copy)
        return gs_dev_copy(dev, dst, src, r->launch.n * sizeof(float), ms, e);
    struct gs_launch_result res;
    int rc = gs_dev_launch(dev, &r->launch, 1, &res, e);
    if (rc == GS_OK && !res.accepted)
        return gs_err_set(e, GS_API, "%s: %s refused a launch it had accepted: %s", r->label,
                          dev->backend->name, res.api_error);
    *ms = res.ms;
    return rc;
}

/* Verify the row once on a poisoned output; a wrong row gets no numbers. */
static int verify_row(struct gs_workspace *w, struct gs_bench_row *r, struct gs_err *e)
{
    struct gs_launch_result res = {0};
    struct gs_verdict v;
    int rc;
    snprintf(w->label, sizeof w->label, "%s %s: %s", w->dev->backend->name, w->dev->name,
             r->label);
    if (r->is_copy) {
        double ms;
        rc = gs_workspace_poison(w, r->launch.n, e);
        if (rc == GS_OK)
            rc = gs_dev_copy(w->dev, r->launch.out, r->launch.a, r->launch.n * sizeof(float),
                             &ms, e);
        if (rc == GS_OK)
            rc = gs_workspace_verify(w, &r->launch, &v, e);
        res.accepted = 1;
    } else {
        rc = gs_checked_launch(w, &r->launch, &res, &v, e);
    }
    if (rc != GS_OK)
        return rc;
    if (!res.accepted) {
        snprintf(r->wrong, sizeof r->wrong, "launch refused: %s: %s", res.api_error,
                 res.api_message);
        return GS_OK;
    }
    if (v.diag != 0) {
        gs_diagnosis(&v, r->wrong, sizeof r->wrong);
        return GS_OK;
    }
    r->verified = 1;
    return GS_OK;
}

static int run_row(struct gs_workspace *w, const struct gs_bench_plan *p, struct gs_bench_row *r,
                   double *samples, struct gs_err *e)
{
    struct gs_device *dev = w->dev;
    double ms;
    int rc = verify_row(w, r, e);
    if (rc != GS_OK || !r->verified)
        return rc;
    for (unsigned i = 0; i < p->warmup; ++i)
        if ((rc = time_once(dev, r, r->launch.a, r->launch.out, &ms, e)) != GS_OK)
            return rc;
    for (unsigned i = 0; i < p->reps; ++i)
        if ((rc = time_once(dev, r, r->launch.a, r->launch.out, &samples[i], e)) != GS_OK)
            return rc;
    qsort(samples, p->reps, sizeof *samples, cmp_double);
    r->min_ms = samples[0];
    r->max_ms = samples[p->reps - 1];
    r->med_ms = p->reps % 2 ? samples[p->reps / 2]
                            : 0.5 * (samples[p->reps / 2 - 1] + samples[p->reps / 2]);
    if (r->med_ms > 0)
        r->gbps = (double)r->bytes / (r->med_ms * 1e-3) / 1e9;
    return GS_OK;
}

static void summarise(struct gs_bench *b)
{
    double coalesced = 0, chunked = 0, stride32 = 0;
    b->copy_gbps = b->rows[0].verified ? b->rows[0].gbps : 0;
    for (int i = 0; i < b->nrows; ++i) {
        struct gs_bench_row *r = &b->rows[i];
        b->wrong_rows += !r->verified;
        if (!r->verified)
            continue;
        if (b->copy_gbps > 0)
            r->pct_copy = 100.0 * r->gbps / b->copy_gbps;
        if (r->group != GS_BG_ACCESS)
            continue;
        if (r->launch.kernel == GS_K_COPY_GS)
            coalesced = r->gbps;
        else if (r->launch.kernel == GS_K_COPY_CHUNKED)
            chunked = r->gbps;
        else if (r->launch.param == 32)
            stride32 = r->gbps;
    }
    b->chunked_ratio = coalesced > 0 ? chunked / coalesced : 0;
    b->stride32_ratio = coalesced > 0 ? stride32 / coalesced : 0;
}

int gs_bench_run(struct gs_device *dev, const struct gs_bench_plan *p, struct gs_bench *b,
                 struct gs_err *e)
{
    struct gs_workspace w = {0};
    double *samples = NULL;
    int rc;

    memset(b, 0, sizeof *b);
    b->dev = dev;
    b->n = p->n;
    b->block = p->block ? p->block : GS_DEFAULT_BLOCK;
    b->reps = p->reps;
    b->warmup = p->warmup;
    if (p->reps == 0)
        return gs_err_set(e, GS_USAGE, "bandwidth: at least one timed repetition is needed");
    if (!(dev->caps & GS_CAP_TIMING) || !(dev->caps & GS_CAP_COPY))
        return gs_err_set(e, GS_UNSUPPORTED, "bandwidth: %s cannot time launches or copy buffers",
                          dev->backend->name);
    if (p->grid) {
        b->grid = p->grid;
        snprintf(b->grid_rule, sizeof b->grid_rule, "set by --grid");
    } else if ((rc = gs_dev_grid(dev, GS_K_ADD_GS, b->block, &b->grid, b->grid_rule,
                                 sizeof b->grid_rule, e)) != GS_OK) {
        return rc;
    }
    b->threads = b->grid * b->block;
    plan_rows(b);
    /* Every row must be a launch the API takes: a refusal here would be a
     * wrong choice of --grid or --block, not a result to time. */
    for (int i = 0; i < b->nrows; ++i) {
        const struct gs_bench_row *r = &b->rows[i];
        char why[160];
        if (!r->is_copy && gs_dev_predicts_accept(dev, &r->launch, why, sizeof why) != GS_ACCEPTS)
            return gs_err_set(e, GS_USAGE,
                              "bandwidth: row '%s' needs <<<%llu, %llu>>>, which %s refuses (%s); "
                              "choose a smaller --grid or a larger --block",
                              r->label, (unsigned long long)r->launch.grid,
                              (unsigned long long)r->launch.block, dev->backend->name, why);
    }

    samples = malloc(p->reps * sizeof *samples);
    if (!samples)
        return gs_err_set(e, GS_NOMEM, "bandwidth: out of memory");
    if ((rc = gs_workspace_open(&w, dev, p->n, NULL, e)) != GS_OK)
        goto out;
    for (int i = 0; i < b->nrows; ++i) {
        struct gs_bench_row *r = &b->rows[i];
        gs_workspace_bind(&w, &r->launch);
        rc = run_row(&w, p, r, samples, e);
        r->launch.a = r->launch.b = r->launch.out = NULL;
        if (rc != GS_OK)
            goto out;
        if (p->progress)
            p->progress(p->progress_ctx, dev->backend->name, i + 1, b->nrows, r);
    }
    summarise(b);
out:
    gs_workspace_close(&w);
    free(samples);
    return rc;
}
