/* SPDX-License-Identifier: MIT */
#include "gs_bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gs_device.h"
#include "gs_parse.h"
#include "gs_verify.h"
#include "gs_workspace.h"

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
    return a / b + (a % b != 0);
}

/* Elements a thread handles per trip of its loop, and the bytes it loads
 * before its first store (what the code lets the memory system overlap),
 * in floats; kernel_shape_as() scales them to the element. The plain loop
 * and the x4 that may alias load one pair, then store; the x4 with restrict
 * may, and the loads-first and warp-contiguous x4 do, load all eight
 * elements first. */
static void kernel_shape(enum gs_kernel_id k, unsigned *per_trip, unsigned *inflight)
{
    switch (k) {
    case GS_K_ADD_GS_X4:
    case GS_K_ADD_GS_X4_LF:
    case GS_K_ADD_WARP_X4:
        *per_trip = 4, *inflight = 32;
        return;
    case GS_K_ADD_GS_X4_ALIAS:
        *per_trip = 4, *inflight = 8;
        return;
    case GS_K_ADD_GS_F2:
        *per_trip = 2, *inflight = 16;
        return;
    case GS_K_ADD_GS_F4:
        *per_trip = 4, *inflight = 32;
        return;
    case GS_K_COPY_WARP_X4:
    case GS_K_COPY_GS_F4:
        *per_trip = 4, *inflight = 16;
        return;
    default:
        *per_trip = 1;
        *inflight = gs_kernel_info(k)->op == GS_OP_COPY ? 4 : 8;
    }
}

static void kernel_shape_as(enum gs_kernel_id k, enum gs_type type, unsigned *per_trip,
                            unsigned *inflight)
{
    kernel_shape(k, per_trip, inflight);
    *inflight = *inflight / 4 * gs_type_size(type);
}

/* Bytes read and written per element: the catalogue's, which counts floats,
 * in elements of `type`. */
static unsigned bytes_per_element(enum gs_kernel_id k, enum gs_type type)
{
    return gs_kernel_info(k)->bytes_per_element / 4 * gs_type_size(type);
}

static struct gs_bench_row *add_row(struct gs_bench *b, enum gs_bench_group g, const char *label,
                                    enum gs_kernel_id k, uint64_t grid, uint64_t param)
{
    struct gs_bench_row *r = &b->rows[b->nrows++];
    memset(r, 0, sizeof *r);
    r->group = g;
    snprintf(r->label, sizeof r->label, "%s", label);
    r->launch = gs_launch_1d(k, b->n, grid, b->block);
    r->launch.param = param;
    r->launch.type = b->type;
    r->bytes = (uint64_t)bytes_per_element(k, b->type) * b->n;
    kernel_shape_as(k, b->type, &r->per_trip, &r->inflight);
    if (k == GS_K_COPY_CHUNKED)
        r->per_trip = (unsigned)param; /* one trip: the whole chunk */
    r->trips = (double)b->n / ((double)r->launch.global * r->per_trip);
    const unsigned units = b->dev->compute_units ? b->dev->compute_units : 1;
    const uint64_t resident = (grid < b->grid ? grid : b->grid) * b->block;
    r->inflight_per_sm = (double)r->inflight * (double)resident / units;
    return r;
}

/* The grid that gives every thread `trips` trips of per_trip elements. */
static uint64_t data_grid(const struct gs_bench *b, unsigned per_trip, unsigned trips)
{
    const uint64_t g = ceil_div(b->n, (uint64_t)per_trip * b->block * trips);
    return g ? g : 1;
}

/* The waves axis of one kernel: grids at multiples of G, then sized to the
 * data (4, 2 and 1 trips a thread). */
static void plan_waves(struct gs_bench *b, enum gs_kernel_id k, const char *name, int full)
{
    static const struct { unsigned num, den; const char *label; } scales[] = {
        {1, 4, "G/4"}, {1, 2, "G/2"}, {1, 1, "G"}, {3, 2, "1.5G"},
        {2, 1, "2G"}, {4, 1, "4G"}, {16, 1, "16G"}};
    static const unsigned trips[] = {4, 2, 1};
    unsigned per_trip, inflight;
    char label[64];
    kernel_shape_as(k, b->type, &per_trip, &inflight);
    for (size_t i = 0; i < sizeof scales / sizeof scales[0]; ++i) {
        if (!full && scales[i].num < 4)
            continue; /* the short axis: 4G and 16G beside the data-sized grids */
        const uint64_t g = b->grid * scales[i].num / scales[i].den;
        snprintf(label, sizeof label, "%s, grid %s", name, scales[i].label);
        add_row(b, GS_BG_WAVES, label, k, g ? g : 1, 0);
    }
    for (size_t i = 0; i < sizeof trips / sizeof trips[0]; ++i) {
        snprintf(label, sizeof label, "%s, grid for %u trip%s", name, trips[i],
                 trips[i] > 1 ? "s" : "");
        add_row(b, GS_BG_WAVES, label, k, data_grid(b, per_trip, trips[i]), 0);
    }
}

static void plan_rows(struct gs_bench *b)
{
    static const unsigned strides[] = {2, 8, 32};
    const uint64_t G = b->grid;
    const char *type = gs_type_name(b->type); /* the vectors: float2, double4 */
    const unsigned size = gs_type_size(b->type);
    char label[64];

    struct gs_bench_row *copy = add_row(b, GS_BG_CEILING, "device-to-device copy (the API's own)",
                                        GS_K_COPY_GS, 1, 0);
    copy->is_copy = 1;
    copy->inflight = 0;
    copy->inflight_per_sm = 0;
    add_row(b, GS_BG_ADD, "add, monolithic, grid = n / block", GS_K_ADD_MONO,
            ceil_div(b->n, b->block), 0);
    add_row(b, GS_BG_ADD, "add, grid-stride", GS_K_ADD_GS, G, 0);
    add_row(b, GS_BG_ADD, "add, x4 one stride apart, may alias", GS_K_ADD_GS_X4_ALIAS, G, 0);
    add_row(b, GS_BG_ADD, "add, x4 one stride apart, restrict", GS_K_ADD_GS_X4, G, 0);
    add_row(b, GS_BG_ADD, "add, x4 one stride apart, loads first", GS_K_ADD_GS_X4_LF, G, 0);
    add_row(b, GS_BG_ADD, "add, warp-contiguous x4", GS_K_ADD_WARP_X4, G, 0);
    snprintf(label, sizeof label, "add, %s2 (%u bytes)", type, 2 * size);
    add_row(b, GS_BG_ADD, label, GS_K_ADD_GS_F2, G, 0);
    snprintf(label, sizeof label, "add, %s4 (%u bytes)", type, 4 * size);
    add_row(b, GS_BG_ADD, label, GS_K_ADD_GS_F4, G, 0);
    add_row(b, GS_BG_ACCESS, "copy, coalesced (grid-stride)", GS_K_COPY_GS, G, 0);
    add_row(b, GS_BG_ACCESS, "copy, warp-contiguous x4", GS_K_COPY_WARP_X4, G, 0);
    snprintf(label, sizeof label, "copy, %s4 (%u bytes)", type, 4 * size);
    add_row(b, GS_BG_ACCESS, label, GS_K_COPY_GS_F4, G, 0);
    add_row(b, GS_BG_ACCESS, "copy, one chunk per thread", GS_K_COPY_CHUNKED, G,
            ceil_div(b->n, G * b->block));
    for (size_t i = 0; i < sizeof strides / sizeof strides[0]; ++i) {
        snprintf(label, sizeof label, "copy, lanes %u elements apart", strides[i]);
        add_row(b, GS_BG_ACCESS, label, GS_K_COPY_STRIDED, G, strides[i]);
    }
    plan_waves(b, GS_K_ADD_WARP_X4, "add warp-contiguous x4", 1);
    snprintf(label, sizeof label, "add %s2", type);
    plan_waves(b, GS_K_ADD_GS_F2, label, 0);
    snprintf(label, sizeof label, "add %s4", type);
    plan_waves(b, GS_K_ADD_GS_F4, label, 0);
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
        return gs_dev_copy(dev, dst, src, r->launch.n * gs_type_size(r->launch.type), ms, e);
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
            rc = gs_dev_copy(w->dev, r->launch.out, r->launch.a, r->launch.n * w->elem, &ms, e);
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
    if (!gs_verdict_clean(&v)) {
        gs_diagnosis(&v, r->wrong, sizeof r->wrong);
        return GS_OK;
    }
    r->verified = 1;
    return GS_OK;
}

static int run_row(struct gs_workspace *w, const struct gs_bench_plan *p, struct gs_bench_row *r,
                   double *sorted, struct gs_err *e)
{
    struct gs_device *dev = w->dev;
    double ms, sum = 0, sq = 0;
    int rc = verify_row(w, r, e);
    if (rc != GS_OK || !r->verified)
        return rc;
    for (unsigned i = 0; i < p->warmup; ++i)
        if ((rc = time_once(dev, r, r->launch.a, r->launch.out, &ms, e)) != GS_OK)
            return rc;
    for (unsigned i = 0; i < p->reps; ++i)
        if ((rc = time_once(dev, r, r->launch.a, r->launch.out, &r->samples_ms[i], e)) != GS_OK)
            return rc;
    memcpy(sorted, r->samples_ms, p->reps * sizeof *sorted);
    qsort(sorted, p->reps, sizeof *sorted, cmp_double);
    for (unsigned i = 0; i < p->reps; ++i)
        sum += sorted[i];
    r->mean_ms = sum / p->reps;
    for (unsigned i = 0; i < p->reps; ++i)
        sq += (sorted[i] - r->mean_ms) * (sorted[i] - r->mean_ms);
    r->stddev_ms = p->reps > 1 ? sqrt(sq / (p->reps - 1)) : 0;
    r->min_ms = sorted[0];
    r->max_ms = sorted[p->reps - 1];
    r->med_ms = p->reps % 2 ? sorted[p->reps / 2]
                            : 0.5 * (sorted[p->reps / 2 - 1] + sorted[p->reps / 2]);
    if (r->med_ms > 0)
        r->gbps = (double)r->bytes / (r->med_ms * 1e-3) / 1e9;
    return GS_OK;
}

static void summarise(struct gs_bench *b)
{
    double coalesced = 0, chunked = 0, stride32 = 0, best = 0;
    const double peak = (double)b->dev->peak_bytes_per_s / 1e9;
    b->copy_gbps = b->rows[0].verified ? b->rows[0].gbps : 0;
    b->best_row = -1;
    for (int i = 0; i < b->nrows; ++i) {
        const struct gs_bench_row *r = &b->rows[i];
        if (r->verified && !r->is_copy && r->gbps > best) {
            best = r->gbps;
            b->best_row = i;
        }
    }
    for (int i = 0; i < b->nrows; ++i) {
        struct gs_bench_row *r = &b->rows[i];
        b->wrong_rows += !r->verified;
        if (!r->verified)
            continue;
        if (b->copy_gbps > 0)
            r->pct_copy = 100.0 * r->gbps / b->copy_gbps;
        if (best > 0) {
            /* No kernel row is above the best, and the best is 100 exactly:
             * 100 * g / g rounds to 100.00000000000001 or 99.999999999999986
             * for about one g in seven. (The API's copy may be above.) */
            r->pct_best = 100.0 * r->gbps / best;
            if (!r->is_copy && (i == b->best_row || r->pct_best > 100.0))
                r->pct_best = 100.0;
        }
        if (peak > 0)
            r->pct_peak = 100.0 * r->gbps / peak;
        if (r->group != GS_BG_ACCESS)
            continue;
        if (r->launch.kernel == GS_K_COPY_GS)
            coalesced = r->gbps;
        else if (r->launch.kernel == GS_K_COPY_CHUNKED)
            chunked = r->gbps;
        else if (r->launch.kernel == GS_K_COPY_STRIDED && r->launch.param == 32)
            stride32 = r->gbps;
    }
    b->chunked_ratio = coalesced > 0 ? chunked / coalesced : 0;
    b->stride32_ratio = coalesced > 0 ? stride32 / coalesced : 0;
}

int gs_bench_best_wave(const struct gs_bench *b, enum gs_kernel_id kernel)
{
    int best = -1;
    for (int i = 0; i < b->nrows; ++i) {
        const struct gs_bench_row *r = &b->rows[i];
        if (r->group == GS_BG_WAVES && r->launch.kernel == kernel && r->verified &&
            (best < 0 || r->gbps > b->rows[best].gbps))
            best = i;
    }
    return best;
}

void gs_bench_free(struct gs_bench *b)
{
    for (int i = 0; i < b->nrows; ++i) {
        free(b->rows[i].samples_ms);
        b->rows[i].samples_ms = NULL;
    }
}

int gs_bench_run(struct gs_device *dev, const struct gs_bench_plan *p, struct gs_bench *b,
                 struct gs_err *e)
{
    struct gs_workspace w = {0};
    double *samples = NULL;
    int rc;

    memset(b, 0, sizeof *b);
    b->dev = dev;
    b->type = p->type;
    b->n = p->n;
    b->block = p->block ? p->block : GS_DEFAULT_BLOCK;
    b->reps = p->reps;
    b->warmup = p->warmup;
    if (p->reps == 0)
        return gs_err_set(e, GS_USAGE, "bandwidth: at least one timed repetition is needed");
    if (!(dev->caps & GS_CAP_TIMING) || !(dev->caps & GS_CAP_COPY))
        return gs_err_set(e, GS_UNSUPPORTED, "bandwidth: %s cannot time launches or copy buffers",
                          dev->backend->name);
    char no_f64[200];
    if (p->type == GS_TYPE_DOUBLE && !gs_dev_has_f64(dev, no_f64, sizeof no_f64))
        return gs_err_set(e, GS_UNSUPPORTED, "bandwidth: %s cannot run double: %s; run --type "
                                             "float there", dev->backend->name, no_f64);
    if (p->grid) {
        b->grid = p->grid;
        snprintf(b->grid_rule, sizeof b->grid_rule, "set by --grid");
    } else if ((rc = gs_dev_grid(dev, GS_K_ADD_GS, b->block, &b->grid, b->grid_rule,
                                 sizeof b->grid_rule, e)) != GS_OK) {
        return rc;
    }
    b->threads = b->grid * b->block;
    plan_rows(b);
    if (p->groups) { /* the groups asked for, in their order */
        int kept = 0;
        for (int i = 0; i < b->nrows; ++i)
            if (p->groups & (1u << b->rows[i].group))
                b->rows[kept++] = b->rows[i];
        b->nrows = kept;
    }
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
    for (int i = 0; i < b->nrows && samples; ++i)
        if (!(b->rows[i].samples_ms = calloc(p->reps, sizeof *samples))) {
            free(samples);
            samples = NULL;
        }
    if (!samples) {
        gs_bench_free(b);
        return gs_err_set(e, GS_NOMEM, "bandwidth: out of memory for %u samples a row",
                          p->reps);
    }
    if ((rc = gs_workspace_open_as(&w, dev, p->n, p->type, NULL, e)) != GS_OK)
        goto out;
    for (int i = 0; i < b->nrows; ++i) {
        struct gs_bench_row *r = &b->rows[i];
        gs_workspace_bind(&w, &r->launch);
        rc = run_row(&w, p, r, samples, e);
        r->launch.a = r->launch.b = r->launch.out = NULL;
        if (rc != GS_OK)
            goto out;
        char line[sizeof r->label + 32];
        if (r->verified)
            snprintf(line, sizeof line, "%s: %.1f GB/s", r->label, r->gbps);
        else
            snprintf(line, sizeof line, "%s: WRONG", r->label);
        gs_progress_tell(p->progress, dev->backend->name, NULL, (uint64_t)i + 1,
                         (uint64_t)b->nrows, line);
    }
    summarise(b);
out:
    gs_workspace_close(&w);
    free(samples);
    return rc;
}
