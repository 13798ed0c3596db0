/* SPDX-License-Identifier: MIT */
/* Reports of `gridstride bandwidth --sweep`: text, md, csv and json, and the
 * sentences that say where the grid-stride loop stops costing more than the
 * monolithic kernel, computed from the medians (gs_sweep_crossover). */
#include <stdio.h>
#include <string.h>

#include "gs_report_kit.h"
#include "gs_sweep_report.h"

static int log2_of(uint64_t n)
{
    int k = 0;
    while (n > 1) {
        n >>= 1;
        ++k;
    }
    return k;
}

/* Run i's device as reports name it. */
GS_DEFINE_RUN_LABEL(run_label, struct gs_sweep_report_in, runs, nruns)

static uint64_t largest_n(const struct gs_sweep_report_in *in)
{
    uint64_t top = 0;
    for (int i = 0; i < in->nruns; ++i) {
        const struct gs_sweep *s = in->runs[i];
        if (s->nsizes && s->n[s->nsizes - 1] > top)
            top = s->n[s->nsizes - 1];
    }
    return top;
}

static void header_lines(const struct gs_sweep_report_in *in, struct gs_str *o, const char *pre)
{
    const struct gs_sweep *s0 = in->runs[0];
    gs_str_printf(o, "%sgridstride %s bandwidth --sweep: the cost of the grid-stride loop at "
                     "small n\n",
                  pre, in->version);
    gs_str_printf(o, "%sone vector add (out = a + b) at n = 2^%d .. 2^%d floats per buffer, B = %u "
                     "threads per block, three ways:\n",
                  pre, GS_SWEEP_MIN_LOG2, log2_of(largest_n(in)), s0->block);
    gs_str_printf(o, "%s  mono: monolithic, one thread per element on ceil(n/B) blocks\n"
                     "%s  G:    grid-stride loop on the device grid G at every n\n"
                     "%s  fit:  grid-stride loop on min(G, ceil(n/B)) blocks\n",
                  pre, pre, pre);
    gs_str_printf(o, "%seach (n, variant) verified once on a poisoned output, then %u untimed "
                     "launches, then %u timed ones, the three variants in turn;\n",
                  pre, s0->warmup, s0->reps);
    gs_str_printf(o, "%sus = microseconds per launch: the median of the timed launches, each "
                     "timed on its own by the API's device timer (the host backend: its clock);\n"
                     "%sGB/s = (bytes read + bytes written) / median / 1e9;\n",
                  pre, pre);
    gs_str_printf(o, "%scrossover: the smallest n of the sweep from which a grid-stride "
                     "variant's median is within %.0f%% of monolithic's, or below it, at that n "
                     "and every larger n\n",
                  pre, GS_SWEEP_TOLERANCE * 100);
}

static void device_lines(const struct gs_sweep *s, struct gs_str *o, const char *pre)
{
    const struct gs_device *d = s->dev;
    gs_str_printf(o, "%s%-7s %s [%s]: %s, %s%s%s, %u compute units\n", pre, d->backend->name,
                  d->name, d->id, d->platform, d->api_version,
                  d->driver_version[0] ? ", driver " : "", d->driver_version, d->compute_units);
    gs_str_printf(o, "%s        G = %llu blocks x %u threads, T = %llu (%s)\n", pre,
                  (unsigned long long)s->grid, s->block, (unsigned long long)s->threads,
                  s->grid_rule);
}

/* ---- the crossover sentences --------------------------------------------- */

/* The largest amount by which variant v is slower than monolithic below
 * size index k, and where. */
static double worst_below(const struct gs_sweep *s, enum gs_sweep_variant v, int k, int *at)
{
    double worst = 0;
    *at = 0;
    for (int j = 0; j < k; ++j) {
        const double d = s->pts[j][v].med_us - s->pts[j][GS_SV_MONO].med_us;
        if (j == 0 || d > worst) {
            worst = d;
            *at = j;
        }
    }
    return worst;
}

static void crossover_sentence(const struct gs_sweep *s, enum gs_sweep_variant v,
                               const char *who, struct gs_str *o, const char *pre)
{
    const struct gs_crossover x = s->xo[v];
    const char *name = gs_sweep_variant_label(v);
    const int top = s->nsizes - 1, lo = log2_of(s->n[0]), hi = log2_of(s->n[top]);
    const double tol = GS_SWEEP_TOLERANCE * 100;
    if (x.kind == GS_XO_INCOMPLETE) {
        gs_str_printf(o, "%s%s: %s: no crossover computed: a size has no time for it or for "
                         "monolithic (a WRONG point, below)\n", pre, who, name);
        return;
    }
    const double c0 = s->pts[0][v].med_us, m0 = s->pts[0][GS_SV_MONO].med_us;
    if (x.kind == GS_XO_NONE) {
        gs_str_printf(o, "%s%s: %s is more than %.0f%% slower than the monolithic kernel at the "
                         "largest n of the sweep (%.1f against %.1f us at n = 2^%d): no "
                         "crossover in this sweep; at n = 2^%d: %.1f against %.1f us\n",
                      pre, who, name, tol, s->pts[top][v].med_us,
                      s->pts[top][GS_SV_MONO].med_us, hi, lo, c0, m0);
        return;
    }
    if (x.index == 0) {
        gs_str_printf(o, "%s%s: at every n of the sweep (2^%d to 2^%d) %s is within %.0f%% of "
                         "the monolithic kernel or faster (%.1f against %.1f us at n = 2^%d)\n",
                      pre, who, lo, hi, name, tol, c0, m0, lo);
        return;
    }
    int at;
    const double worst = worst_below(s, v, x.index, &at);
    const int from = log2_of(s->n[x.index]);
    gs_str_printf(o, "%s%s: below n = 2^%d %s costs up to %.1f us more per launch than the "
                     "monolithic kernel (most at n = 2^%d; at n = 2^%d: %.1f against %.1f us); "
                     "from n = 2^%d on it is within %.0f%% of it or faster, at every n of the "
                     "sweep\n",
                  pre, who, from, name, worst, log2_of(s->n[at]), lo, c0, m0, from, tol);
}

static void summary_lines(const struct gs_sweep_report_in *in, struct gs_str *o,
                          const char *pre)
{
    char name[64];
    for (int i = 0; i < in->nruns; ++i) {
        const struct gs_sweep *s = in->runs[i];
        run_label(in, i, name, sizeof name);
        if (s->stopped[0])
            gs_str_printf(o, "%s%s: %s\n", pre, name, s->stopped);
        crossover_sentence(s, GS_SV_GS_G, name, o, pre);
        crossover_sentence(s, GS_SV_GS_FIT, name, o, pre);
    }
}

static void wrong_lines(const struct gs_sweep_report_in *in, struct gs_str *o, const char *pre)
{
    char name[64];
    for (int i = 0; i < in->nruns; ++i) {
        const struct gs_sweep *s = in->runs[i];
        for (int k = 0; k < s->nsizes; ++k)
            for (int v = 0; v < GS_SWEEP_VARIANTS; ++v)
                if (!s->pts[k][v].verified)
                    gs_str_printf(o, "%sWRONG: %s %s at n = 2^%d: %s (not timed)\n", pre,
                                  run_label(in, i, name, sizeof name),
                                  gs_sweep_variant_label((enum gs_sweep_variant)v),
                                  log2_of(s->n[k]), s->pts[k][v].wrong);
    }
}

/* ---- text ---------------------------------------------------------------- */

static double ratio(const struct gs_sweep_point *p, const struct gs_sweep_point *mono)
{
    return p->verified && mono->verified && mono->med_us > 0 ? p->med_us / mono->med_us : 0;
}

static void text_table(const struct gs_sweep_report_in *in, int i, struct gs_str *o)
{
    const struct gs_sweep *s = in->runs[i];
    char name[64];
    gs_str_printf(o, "\n-- %s\n%16s", run_label(in, i, name, sizeof name), "n");
    for (int v = 0; v < GS_SWEEP_VARIANTS; ++v)
        gs_str_printf(o, " | %9s %8s", v == GS_SV_MONO ? "mono us" : v == GS_SV_GS_G ? "G us"
                                                                                   : "fit us",
                      "GB/s");
    gs_str_printf(o, " | %7s %8s\n", "G/mono", "fit/mono");
    for (int k = 0; k < s->nsizes; ++k) {
        const struct gs_sweep_point *p = s->pts[k];
        gs_str_printf(o, "2^%-2d %11llu", log2_of(s->n[k]), (unsigned long long)s->n[k]);
        for (int v = 0; v < GS_SWEEP_VARIANTS; ++v)
            if (p[v].verified)
                gs_str_printf(o, " | %9.2f %8.1f", p[v].med_us, p[v].gbps);
            else
                gs_str_printf(o, " | %9s %8s", "WRONG", "");
        gs_str_printf(o, " | %7.3f %8.3f\n", ratio(&p[GS_SV_GS_G], &p[GS_SV_MONO]),
                      ratio(&p[GS_SV_GS_FIT], &p[GS_SV_MONO]));
    }
}

static void report_text(const struct gs_sweep_report_in *in, struct gs_str *o)
{
    header_lines(in, o, "");
    gs_str_printf(o, "\n");
    for (int i = 0; i < in->nruns; ++i)
        device_lines(in->runs[i], o, "");
    for (int i = 0; i < in->nruns; ++i)
        text_table(in, i, o);
    gs_str_printf(o, "\n");
    summary_lines(in, o, "");
    wrong_lines(in, o, "");
}

/* ---- Markdown ------------------------------------------------------------ */

static void md_table(const struct gs_sweep_report_in *in, int i, struct gs_str *o)
{
    const struct gs_sweep *s = in->runs[i];
    char name[64];
    gs_str_printf(o, "\n## %s: %s\n\n| n | | mono us | mono GB/s | G us | G GB/s | fit us | "
                     "fit GB/s | G / mono | fit / mono |\n"
                     "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
                  run_label(in, i, name, sizeof name), s->dev->name);
    for (int k = 0; k < s->nsizes; ++k) {
        const struct gs_sweep_point *p = s->pts[k];
        gs_str_printf(o, "| 2^%d | %llu |", log2_of(s->n[k]), (unsigned long long)s->n[k]);
        for (int v = 0; v < GS_SWEEP_VARIANTS; ++v)
            if (p[v].verified)
                gs_str_printf(o, " %.2f | %.1f |", p[v].med_us, p[v].gbps);
            else
                gs_str_printf(o, " WRONG | |");
        gs_str_printf(o, " %.3f | %.3f |\n", ratio(&p[GS_SV_GS_G], &p[GS_SV_MONO]),
                      ratio(&p[GS_SV_GS_FIT], &p[GS_SV_MONO]));
    }
}

static void report_md(const struct gs_sweep_report_in *in, struct gs_str *o)
{
    gs_str_printf(o, "# gridstride bandwidth --sweep\n\n");
    gs_md_provenance(o, in->command);
    gs_str_printf(o, "```text\n");
    header_lines(in, o, "");
    for (int i = 0; i < in->nruns; ++i)
        device_lines(in->runs[i], o, "");
    gs_str_printf(o, "```\n");
    for (int i = 0; i < in->nruns; ++i)
        md_table(in, i, o);
    gs_str_printf(o, "\n```text\n");
    summary_lines(in, o, "");
    wrong_lines(in, o, "");
    gs_str_printf(o, "```\n");
}

/* ---- CSV ----------------------------------------------------------------- */

static void report_csv(const struct gs_sweep_report_in *in, struct gs_str *o)
{
    gs_str_printf(o, "backend,device,device_id,api_version,driver_version,compute_units,block,G,"
                     "reps,warmup,variant,kernel,n,grid,verified,median_us,min_us,max_us,mean_us,"
                     "stddev_us,gbps,crossover_n,commit\n");
    for (int i = 0; i < in->nruns; ++i) {
        const struct gs_sweep *s = in->runs[i];
        const struct gs_device *d = s->dev;
        for (int v = 0; v < GS_SWEEP_VARIANTS; ++v) {
            const struct gs_crossover x = s->xo[v];
            for (int k = 0; k < s->nsizes; ++k) {
                const struct gs_sweep_point *p = &s->pts[k][v];
                gs_csv_field(o, d->backend->name);
                gs_csv_field(o, d->name);
                gs_csv_field(o, d->id);
                gs_csv_field(o, d->api_version);
                gs_csv_field(o, d->driver_version);
                gs_str_printf(o, "%u,%u,%llu,%u,%u,", d->compute_units, s->block,
                              (unsigned long long)s->grid, s->reps, s->warmup);
                gs_csv_field(o, gs_sweep_variant_id((enum gs_sweep_variant)v));
                gs_str_printf(o, "\"%s\",%llu,%llu,%d,", gs_kernel_info(p->launch.kernel)->name,
                              (unsigned long long)s->n[k], (unsigned long long)p->launch.grid,
                              p->verified);
                const double t[] = {p->med_us, p->min_us, p->max_us, p->mean_us, p->sd_us};
                for (int m = 0; m < 5; ++m) /* none for a point that was not verified */
                    gs_csv_number(o, p->verified, 4, t[m]);
                gs_csv_number(o, p->verified, 3, p->gbps);
                if (x.kind == GS_XO_FOUND)
                    gs_str_printf(o, "%llu", (unsigned long long)s->n[x.index]);
                gs_str_printf(o, ",");
                gs_csv_last(o, gs_build_commit());
            }
        }
    }
}

/* ---- JSON ---------------------------------------------------------------- */

static void json_crossover(struct gs_jw *w, const struct gs_sweep *s, enum gs_sweep_variant v)
{
    static const char *const kinds[] = {"found", "none", "incomplete"};
    const struct gs_crossover x = s->xo[v];
    gs_jw_str(w, "crossover", kinds[x.kind]);
    if (x.kind == GS_XO_FOUND)
        gs_jw_u64(w, "crossover_n", s->n[x.index]);
    else
        gs_jw_null(w, "crossover_n");
}

static void json_point(struct gs_jw *w, const struct gs_sweep *s, int k, enum gs_sweep_variant v,
                       unsigned reps)
{
    const struct gs_sweep_point *p = &s->pts[k][v];
    gs_jw_space(w, "\n            ");
    gs_jw_object(w, NULL);
    gs_jw_u64(w, "n", s->n[k]);
    gs_jw_u64(w, "grid", p->launch.grid);
    gs_jw_bool(w, "verified", p->verified);
    if (!p->verified) {
        gs_jw_str(w, "wrong", p->wrong);
        gs_jw_end(w, "");
        return;
    }
    gs_jw_fixed(w, "median_us", 4, p->med_us);
    gs_jw_fixed(w, "min_us", 4, p->min_us);
    gs_jw_fixed(w, "max_us", 4, p->max_us);
    gs_jw_fixed(w, "mean_us", 4, p->mean_us);
    gs_jw_fixed(w, "stddev_us", 4, p->sd_us);
    gs_jw_fixed(w, "gbps", 3, p->gbps);
    gs_jw_space(w, "\n             ");
    gs_jw_array(w, "samples_us");
    for (unsigned r = 0; r < reps; ++r)
        gs_jw_fixed(w, NULL, 4, p->samples_us[r]);
    gs_jw_end(w, "");
    gs_jw_end(w, "");
}

static void json_run(struct gs_jw *w, const struct gs_sweep *s)
{
    gs_jw_space(w, "\n    ");
    gs_jw_object(w, NULL);
    gs_results_device(w, s->dev);
    gs_jw_u64(w, "block", s->block);
    gs_jw_u64(w, "G", s->grid);
    gs_jw_u64(w, "T", s->threads);
    gs_jw_str(w, "grid_rule", s->grid_rule);
    gs_jw_u64(w, "reps", s->reps);
    gs_jw_u64(w, "warmup", s->warmup);
    gs_jw_str(w, "stopped", s->stopped);
    gs_jw_space(w, "\n      ");
    gs_jw_array(w, "variants");
    for (int v = 0; v < GS_SWEEP_VARIANTS; ++v) {
        gs_jw_space(w, "\n        ");
        gs_jw_object(w, NULL);
        gs_jw_str(w, "variant", gs_sweep_variant_id((enum gs_sweep_variant)v));
        gs_jw_str(w, "kernel", gs_kernel_info(v == GS_SV_MONO ? GS_K_ADD_MONO : GS_K_ADD_GS)->name);
        gs_jw_str(w, "grid_rule", gs_sweep_variant_grid_rule((enum gs_sweep_variant)v));
        if (v != GS_SV_MONO)
            json_crossover(w, s, (enum gs_sweep_variant)v);
        gs_jw_space(w, "\n          ");
        gs_jw_array(w, "points");
        for (int k = 0; k < s->nsizes; ++k)
            json_point(w, s, k, (enum gs_sweep_variant)v, s->reps);
        gs_jw_end(w, "\n          ");
        gs_jw_end(w, "");
    }
    gs_jw_end(w, "\n      ");
    gs_jw_end(w, "");
}

static void report_json(const struct gs_sweep_report_in *in, struct gs_str *o)
{
    const struct gs_run_info run = {in->version, in->command, in->date, in->toolkit};
    struct gs_jw w;
    gs_jw_init(&w, o);
    gs_results_header(&w, "bandwidth-sweep", &run);
    gs_jw_space(&w, "\n  ");
    gs_jw_str(&w, "timing", "one launch at a time, each timed by the API's device timer; times "
                            "in microseconds");
    gs_jw_space(&w, "\n  ");
    gs_jw_str(&w, "gbps_definition", "(bytes read + bytes written) / median seconds / 1e9");
    gs_jw_space(&w, "\n  ");
    gs_jw_str(&w, "crossover_rule", "the smallest n of the sweep from which the variant's median "
                                    "is at most (1 + tolerance) times monolithic's at that n and "
                                    "at every larger n");
    gs_jw_space(&w, "\n  ");
    gs_jw_fixed(&w, "tolerance", 2, GS_SWEEP_TOLERANCE);
    gs_jw_space(&w, "\n  ");
    gs_jw_array(&w, "runs");
    for (int i = 0; i < in->nruns; ++i)
        json_run(&w, in->runs[i]);
    gs_jw_end(&w, "\n  ");
    gs_jw_end(&w, "\n");
}

void gs_sweep_report(const struct gs_sweep_report_in *in, enum gs_format f, struct gs_str *out)
{
    if (in->nruns == 0)
        return;
    switch (f) {
    case GS_FMT_MD: report_md(in, out); break;
    case GS_FMT_CSV: report_csv(in, out); break;
    case GS_FMT_JSON: report_json(in, out); break;
    default: report_text(in, out);
    }
}
