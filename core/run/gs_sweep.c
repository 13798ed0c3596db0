/* SPDX-License-Identifier: MIT */
#include "gs_sweep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gs_device.h"
#include "gs_parse.h"
#include "gs_verify.h"
#include "gs_workspace.h"

static const struct {
    const char *label, *id, *grid_rule;
} variants[GS_SWEEP_VARIANTS] = {
    {"monolithic", "monolithic", "ceil(n / B)"},
    {"grid-stride on G", "grid-stride-G", "G"},
    {"grid-stride on min(G, ceil(n/B))", "grid-stride-fit", "min(G, ceil(n / B))"},
};

const char *gs_sweep_variant_label(enum gs_sweep_variant v)
{
    return variants[v].label;
}

const char *gs_sweep_variant_id(enum gs_sweep_variant v)
{
    return variants[v].id;
}

const char *gs_sweep_variant_grid_rule(enum gs_sweep_variant v)
{
    return variants[v].grid_rule;
}

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
    return a / b + (a % b != 0);
}

/* ---- the crossover ------------------------------------------------------ */

static int missing(double x)
{
    return !(x >= 0); /* NaN or negative */
}

struct gs_crossover gs_sweep_crossover(const double *base, const double *cand, int count,
                                       double tol)
{
    struct gs_crossover x = {GS_XO_INCOMPLETE, -1};
    for (int j = 0; j < count; ++j)
        if (missing(base[j]) || missing(cand[j]))
            return x;
    if (count <= 0)
        return x;
    /* Walk down from the largest n while the candidate keeps up. */
    int k = count;
    while (k > 0 && cand[k - 1] <= (1.0 + tol) * base[k - 1])
        --k;
    if (k == count) {
        x.kind = GS_XO_NONE;
        return x;
    }
    x.kind = GS_XO_FOUND;
    x.index = k;
    return x;
}

void gs_sweep_crossovers(struct gs_sweep *s)
{
    double base[GS_SWEEP_MAX_SIZES], cand[GS_SWEEP_MAX_SIZES];
    for (int v = GS_SV_GS_G; v < GS_SWEEP_VARIANTS; ++v) {
        for (int i = 0; i < s->nsizes; ++i) {
            const struct gs_sweep_point *m = &s->pts[i][GS_SV_MONO], *c = &s->pts[i][v];
            base[i] = m->verified ? m->med_us : NAN;
            cand[i] = c->verified ? c->med_us : NAN;
        }
        s->xo[v] = gs_sweep_crossover(base, cand, s->nsizes, GS_SWEEP_TOLERANCE);
    }
    s->xo[GS_SV_MONO].kind = GS_XO_INCOMPLETE;
    s->xo[GS_SV_MONO].index = -1;
}

/* ---- the plan ----------------------------------------------------------- */

static void set_launch(const struct gs_sweep *s, uint64_t n, enum gs_sweep_variant v,
                       struct gs_launch *l)
{
    const uint64_t fit = ceil_div(n, s->block);
    memset(l, 0, sizeof *l);
    l->kernel = v == GS_SV_MONO ? GS_K_ADD_MONO : GS_K_ADD_GS;
    l->n = n;
    l->grid = v == GS_SV_MONO ? fit : v == GS_SV_GS_G ? s->grid : (fit < s->grid ? fit : s->grid);
    l->block = s->block;
    l->global = l->grid * l->block;
}

/* Sizes 2^10 .. the top, each while the device takes all three launches:
 * a refusal is a limit of the device (the host's cap on blocks), not a
 * result to time, so the sweep stops below it and says so. */
static int plan_sizes(struct gs_sweep *s, uint64_t max_n, struct gs_err *e)
{
    for (int k = GS_SWEEP_MIN_LOG2; k <= GS_SWEEP_MAX_LOG2 && (1ull << k) <= max_n; ++k) {
        const uint64_t n = 1ull << k;
        for (int v = 0; v < GS_SWEEP_VARIANTS; ++v) {
            struct gs_launch *l = &s->pts[s->nsizes][v].launch;
            char why[160] = "";
            set_launch(s, n, (enum gs_sweep_variant)v, l);
            if (gs_dev_predicts_accept(s->dev, l, why, sizeof why) == GS_ACCEPTS)
                continue;
            snprintf(s->stopped, sizeof s->stopped,
                     "n = 2^%d and above not run: %s needs <<<%llu, %llu>>> there, which %s "
                     "does not run (%s)",
                     k, variants[v].label, (unsigned long long)l->grid,
                     (unsigned long long)l->block, s->dev->backend->name, why);
            if (s->nsizes == 0)
                return gs_err_set(e, GS_USAGE, "sweep: %s; choose a smaller --grid or another "
                                               "--block", s->stopped);
            return GS_OK;
        }
        s->n[s->nsizes++] = n;
    }
    if (s->nsizes == 0)
        return gs_err_set(e, GS_USAGE, "sweep: %llu floats per buffer are fewer than 2^%d; give "
                                       "--bytes 4KiB or more",
                          (unsigned long long)max_n, GS_SWEEP_MIN_LOG2);
    return GS_OK;
}

/* ---- verify, then time -------------------------------------------------- */

/* Verify one point once on a poisoned output; a wrong point gets no numbers. */
static int verify_point(struct gs_workspace *w, uint64_t n, enum gs_sweep_variant v,
                        struct gs_sweep_point *p, struct gs_err *e)
{
    struct gs_launch_result res = {0};
    struct gs_verdict verdict;
    snprintf(w->label, sizeof w->label, "%s %s: %s at n = %llu", w->dev->backend->name,
             w->dev->name, variants[v].label, (unsigned long long)n);
    gs_workspace_bind(w, &p->launch);
    int rc = gs_checked_launch(w, &p->launch, &res, &verdict, e);
    if (rc != GS_OK)
        return rc;
    if (!res.accepted)
        snprintf(p->wrong, sizeof p->wrong, "launch refused: %s: %s", res.api_error,
                 res.api_message);
    else if (!gs_verdict_clean(&verdict))
        gs_diagnosis(&verdict, p->wrong, sizeof p->wrong);
    else
        p->verified = 1;
    return GS_OK;
}

/* One device-timed launch, in microseconds. */
static int time_once(struct gs_device *dev, const struct gs_sweep_point *p, double *us,
                     struct gs_err *e)
{
    struct gs_launch_result res;
    int rc = gs_dev_launch(dev, &p->launch, 1, &res, e);
    if (rc == GS_OK && !res.accepted)
        return gs_err_set(e, GS_API, "%s: %s refused a launch it had accepted: %s",
                          gs_kernel_info(p->launch.kernel)->name, dev->backend->name,
                          res.api_error);
    if (us)
        *us = res.ms * 1e3;
    return rc;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Median, min, max, mean and sample standard deviation of reps samples;
 * scratch holds reps doubles. */
static void summarise(struct gs_sweep_point *p, unsigned reps, double *scratch)
{
    double sum = 0, sq = 0;
    memcpy(scratch, p->samples_us, reps * sizeof *scratch);
    qsort(scratch, reps, sizeof *scratch, cmp_double);
    p->min_us = scratch[0];
    p->max_us = scratch[reps - 1];
    p->med_us = reps % 2 ? scratch[reps / 2] : 0.5 * (scratch[reps / 2 - 1] + scratch[reps / 2]);
    for (unsigned i = 0; i < reps; ++i)
        sum += scratch[i];
    p->mean_us = sum / reps;
    for (unsigned i = 0; i < reps; ++i)
        sq += (scratch[i] - p->mean_us) * (scratch[i] - p->mean_us);
    p->sd_us = reps > 1 ? sqrt(sq / (reps - 1)) : 0;
    if (p->med_us > 0)
        p->gbps = (double)gs_kernel_info(p->launch.kernel)->bytes_per_element *
                  (double)p->launch.n / (p->med_us * 1e3);
}

/* One size: verify the three variants, warm each up, then time them in
 * turn, repetition by repetition, so that a change of clock between
 * repetitions touches all three alike. */
static int run_size(struct gs_workspace *w, struct gs_sweep *s, int i, double *scratch,
                    struct gs_err *e)
{
    struct gs_sweep_point *pts = s->pts[i];
    int rc = GS_OK;
    for (int v = 0; v < GS_SWEEP_VARIANTS && rc == GS_OK; ++v)
        rc = verify_point(w, s->n[i], (enum gs_sweep_variant)v, &pts[v], e);
    for (int v = 0; v < GS_SWEEP_VARIANTS && rc == GS_OK; ++v)
        for (unsigned r = 0; r < s->warmup && rc == GS_OK && pts[v].verified; ++r)
            rc = time_once(s->dev, &pts[v], NULL, e);
    for (unsigned r = 0; r < s->reps && rc == GS_OK; ++r)
        for (int v = 0; v < GS_SWEEP_VARIANTS && rc == GS_OK; ++v)
            if (pts[v].verified)
                rc = time_once(s->dev, &pts[v], &pts[v].samples_us[r], e);
    for (int v = 0; v < GS_SWEEP_VARIANTS && rc == GS_OK; ++v) {
        if (pts[v].verified)
            summarise(&pts[v], s->reps, scratch);
        else
            ++s->wrong_points;
        pts[v].launch.a = pts[v].launch.b = pts[v].launch.out = NULL;
    }
    return rc;
}

static int start(struct gs_device *dev, const struct gs_sweep_plan *p, struct gs_sweep *s,
                 struct gs_err *e)
{
    memset(s, 0, sizeof *s);
    s->dev = dev;
    s->block = p->block ? p->block : GS_DEFAULT_BLOCK;
    s->reps = p->reps;
    s->warmup = p->warmup;
    if (p->reps == 0)
        return gs_err_set(e, GS_USAGE, "sweep: no timed repetition asked for; give --reps 5 or "
                                       "more");
    if (!(dev->caps & GS_CAP_TIMING))
        return gs_err_set(e, GS_UNSUPPORTED, "sweep: %s cannot time launches; choose another "
                                             "--backend", dev->backend->name);
    if (p->grid) {
        s->grid = p->grid;
        snprintf(s->grid_rule, sizeof s->grid_rule, "set by --grid");
    } else {
        int rc = gs_dev_grid(dev, GS_K_ADD_GS, s->block, &s->grid, s->grid_rule,
                             sizeof s->grid_rule, e);
        if (rc != GS_OK)
            return rc;
    }
    s->threads = s->grid * s->block;
    return plan_sizes(s, p->max_n, e);
}

/* Every point's samples in one block: point (i, v) at (i x variants + v) x reps. */
static int hand_out_samples(struct gs_sweep *s, struct gs_err *e)
{
    const size_t points = (size_t)s->nsizes * GS_SWEEP_VARIANTS;
    s->samples = calloc(points * s->reps, sizeof *s->samples);
    if (!s->samples)
        return gs_err_set(e, GS_NOMEM, "sweep: out of memory for %zu samples; give fewer --reps",
                          points * s->reps);
    for (int i = 0; i < s->nsizes; ++i)
        for (int v = 0; v < GS_SWEEP_VARIANTS; ++v)
            s->pts[i][v].samples_us = s->samples + ((size_t)i * GS_SWEEP_VARIANTS + v) * s->reps;
    return GS_OK;
}

int gs_sweep_run(struct gs_device *dev, const struct gs_sweep_plan *p, struct gs_sweep *s,
                 struct gs_err *e)
{
    struct gs_workspace w = {0};
    double *scratch = NULL;
    int rc = start(dev, p, s, e);
    if (rc == GS_OK)
        rc = hand_out_samples(s, e);
    if (rc == GS_OK && !(scratch = malloc(s->reps * sizeof *scratch)))
        rc = gs_err_set(e, GS_NOMEM, "sweep: out of memory; give fewer --reps");
    /* One workspace at the largest n; each launch covers the first n. */
    if (rc == GS_OK)
        rc = gs_workspace_open(&w, dev, s->n[s->nsizes - 1], NULL, e);
    for (int i = 0; i < s->nsizes && rc == GS_OK; ++i) {
        rc = run_size(&w, s, i, scratch, e);
        char line[48];
        snprintf(line, sizeof line, "n = %llu done", (unsigned long long)s->n[i]);
        if (rc == GS_OK)
            gs_progress_tell(p->progress, dev->backend->name, NULL, (uint64_t)i + 1,
                             (uint64_t)s->nsizes, line);
    }
    if (rc == GS_OK)
        gs_sweep_crossovers(s);
    gs_workspace_close(&w);
    free(scratch);
    return rc;
}

void gs_sweep_free(struct gs_sweep *s)
{
    free(s->samples);
    s->samples = NULL;
    for (int i = 0; i < GS_SWEEP_MAX_SIZES; ++i)
        for (int v = 0; v < GS_SWEEP_VARIANTS; ++v)
            s->pts[i][v].samples_us = NULL;
}

int gs_sweep_same_launch_from(const struct gs_sweep *s)
{
    for (int i = 0; i < s->nsizes; ++i)
        if (s->pts[i][GS_SV_GS_FIT].launch.grid == s->pts[i][GS_SV_GS_G].launch.grid &&
            s->pts[i][GS_SV_GS_FIT].launch.block == s->pts[i][GS_SV_GS_G].launch.block)
            return i;
    return -1;
}
