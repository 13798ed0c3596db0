/* SPDX-License-Identifier: MIT */
/* Reports of the bandwidth benchmark: text, md, csv and json (the SVG chart:
 * gs_bench_svg.c). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gs_bench_report.h"
#include "gs_report_kit.h"

static const char *const group_titles[] = {
    "ceiling", "vector add at G, same bytes", "copy access patterns at G, same bytes",
    "waves: the launch size, from G/4 to a grid sized to the data"};

const char *gs_bench_group_title(enum gs_bench_group g)
{
    return group_titles[g];
}

/* Run i's device as reports name it. */
GS_DEFINE_RUN_LABEL(run_label, struct gs_bench_report_in, runs, nruns)

static void header_lines(const struct gs_bench_report_in *in, struct gs_str *o, const char *pre)
{
    const struct gs_bench *b0 = in->runs[0];
    gs_str_printf(o, "%sgridstride %s bandwidth: type %s, n = %llu %ss per buffer (%.2f GiB), %u "
                     "warm-up launches, then %u timed repetitions per row\n",
                  pre, in->version, gs_type_name(b0->type), (unsigned long long)b0->n,
                  gs_type_name(b0->type), (double)b0->n * gs_type_size(b0->type) / (1u << 30),
                  b0->warmup, b0->reps);
    gs_str_printf(o, "%sGB/s = (bytes read + bytes written) / median of the timed repetitions / 1e9, "
                     "timed by device timers; every row verified before timing;\n"
                     "%s%%copy = of the same API's device-to-device copy in the same run\n",
                  pre, pre);
    gs_str_printf(o, "%s%%best = of the fastest kernel of the same API in this run; KB/SM = bytes "
                     "in flight per SM: what one thread loads before its first store, times the "
                     "threads resident on an SM\n",
                  pre);
}

static void device_lines(const struct gs_bench *b, struct gs_str *o, const char *pre)
{
    const struct gs_device *d = b->dev;
    gs_str_printf(o, "%s%-7s %s [%s]: %s, %s%s%s, %u compute units\n", pre, d->backend->name,
                  d->name, d->id, d->platform, d->api_version, d->driver_version[0] ? ", driver " : "",
                  d->driver_version, d->compute_units);
    gs_str_printf(o, "%s        G = %llu blocks x %u threads, T = %llu (%s)", pre,
                  (unsigned long long)b->grid, b->block, (unsigned long long)b->threads,
                  b->grid_rule);
    if (d->peak_bytes_per_s)
        gs_str_printf(o, "; theoretical peak %.1f GB/s (%s)", (double)d->peak_bytes_per_s / 1e9,
                      d->peak_rule);
    else if (d->peak_rule[0])
        gs_str_printf(o, "; theoretical peak unknown (%s)", d->peak_rule);
    gs_str_printf(o, "\n");
}

/* (max - min) / min over the runs that verified the row, in percent. */
static double spread(const struct gs_bench_report_in *in, int row)
{
    double lo = 0, hi = 0;
    int n = 0;
    for (int i = 0; i < in->nruns; ++i) {
        const struct gs_bench_row *r = &in->runs[i]->rows[row];
        if (!r->verified || r->gbps <= 0)
            continue;
        lo = n ? fmin(lo, r->gbps) : r->gbps;
        hi = n ? fmax(hi, r->gbps) : r->gbps;
        ++n;
    }
    return n >= 2 ? 100.0 * (hi - lo) / lo : -1;
}

/* A ratio as "N times" either way. */
static double times(double ratio)
{
    return ratio < 1 ? 1.0 / ratio : ratio;
}

static void ratio_lines(const struct gs_bench_report_in *in, struct gs_str *o, const char *pre)
{
    char name[64];
    for (int i = 0; i < in->nruns; ++i) {
        const struct gs_bench *b = in->runs[i];
        if (b->chunked_ratio <= 0 || b->stride32_ratio <= 0)
            continue;
        gs_str_printf(o, "%s%-7s coalescing: chunked / coalesced = %.3f (%.1fx %s); "
                         "stride 32 / coalesced = %.3f (%.1fx %s)\n",
                      pre, run_label(in, i, name, sizeof name), b->chunked_ratio, times(b->chunked_ratio),
                      b->chunked_ratio < 1 ? "slower" : "faster", b->stride32_ratio,
                      times(b->stride32_ratio), b->stride32_ratio < 1 ? "slower" : "faster");
    }
}

/* A kernel's catalogue name as the run's type has it: the vector kernels
 * are named for the float build ("grid-stride-float4"), and a double run
 * says "grid-stride-double4". */
static const char *kernel_name(enum gs_kernel_id k, enum gs_type type, char *buf, unsigned size)
{
    const char *name = gs_kernel_info(k)->name, *at = strstr(name, "float");
    if (type != GS_TYPE_DOUBLE || !at)
        return name;
    snprintf(buf, size, "%.*s%s%s", (int)(at - name), name, gs_type_name(type), at + 5);
    return buf;
}

/* Per API: the three references, and where the best launch of each waves
 * axis is. */
static void reference_lines(const struct gs_bench_report_in *in, struct gs_str *o, const char *pre)
{
    static const enum gs_kernel_id waves[] = {GS_K_ADD_WARP_X4, GS_K_ADD_GS_F2, GS_K_ADD_GS_F4};
    char name[64], kernel[64];
    for (int i = 0; i < in->nruns; ++i) {
        const struct gs_bench *b = in->runs[i];
        const double peak = (double)b->dev->peak_bytes_per_s / 1e9;
        run_label(in, i, name, sizeof name);
        if (b->best_row < 0)
            continue;
        const struct gs_bench_row *best = &b->rows[b->best_row];
        gs_str_printf(o, "%s%-7s references: the API's copy %.1f GB/s; the best row \"%s\" "
                         "%.1f GB/s (%.1f%% of the copy); ",
                      pre, name, b->copy_gbps, best->label, best->gbps, best->pct_copy);
        if (peak > 0)
            gs_str_printf(o, "theoretical peak %.1f GB/s (best row %.1f%%, copy %.1f%%)\n", peak,
                          best->pct_peak, b->rows[0].verified ? b->rows[0].pct_peak : 0.0);
        else
            gs_str_printf(o, "theoretical peak unknown\n");
        for (size_t w = 0; w < sizeof waves / sizeof waves[0]; ++w) {
            const int k = gs_bench_best_wave(b, waves[w]);
            if (k < 0)
                continue;
            const struct gs_bench_row *r = &b->rows[k];
            gs_str_printf(o, "%s%-7s best launch of %s: \"%s\", <<<%llu, %llu>>>, %.2f trips a "
                             "thread, %.1f GB/s (%.1f%% of the copy)\n",
                          pre, name, kernel_name(waves[w], b->type, kernel, sizeof kernel),
                          r->label, (unsigned long long)r->launch.grid,
                          (unsigned long long)r->launch.block,
                          r->trips, r->gbps, r->pct_copy);
        }
    }
}

static void wrong_lines(const struct gs_bench_report_in *in, struct gs_str *o, const char *pre)
{
    char name[64];
    for (int i = 0; i < in->nruns; ++i)
        for (int k = 0; k < in->runs[i]->nrows; ++k) {
            const struct gs_bench_row *r = &in->runs[i]->rows[k];
            if (!r->verified)
                gs_str_printf(o, "%sWRONG: %s %s: %s (not timed)\n", pre,
                              run_label(in, i, name, sizeof name), r->label, r->wrong);
        }
}

/* The answer first: how many rows verified, and each API's fastest GB/s
 * (which row it was, the table shows: short enough for 80 columns). */
static void summary_line(const struct gs_bench_report_in *in, struct gs_str *o)
{
    char name[64];
    int rows = 0, wrong = 0;
    for (int i = 0; i < in->nruns; ++i)
        for (int k = 0; k < in->runs[i]->nrows; ++k) {
            ++rows;
            wrong += !in->runs[i]->rows[k].verified;
        }
    if (wrong)
        gs_str_printf(o, "bandwidth: WRONG: %d of %d rows failed verification; ", wrong, rows);
    else
        gs_str_printf(o, "bandwidth: %d of %d rows verified; ", rows, rows);
    gs_str_printf(o, "fastest:");
    for (int i = 0; i < in->nruns; ++i) {
        const struct gs_bench *b = in->runs[i];
        if (b->best_row < 0)
            continue;
        gs_str_printf(o, "%s %s %.1f GB/s", i ? "," : "", run_label(in, i, name, sizeof name),
                      b->rows[b->best_row].gbps);
    }
    gs_str_printf(o, "\n\n");
}

/* The rows, side by side per API, with their spread when there are several. */
static void text_rows(const struct gs_bench_report_in *in, struct gs_str *o)
{
    const struct gs_bench *b0 = in->runs[0];
    char name[64];
    gs_str_printf(o, "\n%-44s %9s %6s", "", "", "");
    for (int i = 0; i < in->nruns; ++i)
        gs_str_printf(o, " | %-35s", run_label(in, i, name, sizeof name));
    gs_str_printf(o, "%s\n%-44s %9s %6s", in->nruns > 1 ? " | spread" : "", "variant",
                  "MB/launch", "KB/SM");
    for (int i = 0; i < in->nruns; ++i)
        gs_str_printf(o, " | %9s %6s %6s %11s", "GB/s", "%copy", "%best", "min..max ms");
    gs_str_printf(o, "%s\n", in->nruns > 1 ? " |" : "");
    int group = -1;
    for (int k = 0; k < b0->nrows; ++k) {
        const struct gs_bench_row *r0 = &b0->rows[k];
        if ((int)r0->group != group) {
            group = (int)r0->group;
            gs_str_printf(o, "-- %s\n", group_titles[group]);
        }
        gs_str_printf(o, "%-44s %9.1f", r0->label, (double)r0->bytes / 1e6);
        if (r0->inflight_per_sm > 0)
            gs_str_printf(o, " %6.1f", r0->inflight_per_sm / 1024);
        else
            gs_str_printf(o, " %6s", "-");
        for (int i = 0; i < in->nruns; ++i) {
            const struct gs_bench_row *r = &in->runs[i]->rows[k];
            if (!r->verified)
                gs_str_printf(o, " | %9s %6s %6s %11s", "WRONG", "", "", "");
            else
                gs_str_printf(o, " | %9.1f %5.1f%% %5.1f%% %5.2f..%-5.2f", r->gbps, r->pct_copy,
                              r->pct_best, r->min_ms, r->max_ms);
        }
        const double s = spread(in, k);
        if (in->nruns > 1)
            gs_str_printf(o, s >= 0 ? " | %5.1f%%" : " |", s);
        gs_str_printf(o, "\n");
    }
}

static void report_text(const struct gs_bench_report_in *in, struct gs_str *o)
{
    summary_line(in, o);
    header_lines(in, o, "");
    gs_str_printf(o, "\n");
    for (int i = 0; i < in->nruns; ++i)
        device_lines(in->runs[i], o, "");
    /* 62 columns of variant, then 38 an API and 9 the spread. */
    const unsigned wide = 62u + (unsigned)in->nruns * 38u + (in->nruns > 1 ? 9u : 0u);
    if (in->width && wide > in->width && in->nruns > 1) {
        /* Narrower than side by side: one API's rows after another's. */
        for (int i = 0; i < in->nruns; ++i) {
            struct gs_bench_report_in one = *in;
            one.runs = &in->runs[i];
            one.nruns = 1;
            text_rows(&one, o);
        }
    } else {
        text_rows(in, o);
    }
    gs_str_printf(o, "\n");
    reference_lines(in, o, "");
    ratio_lines(in, o, "");
    wrong_lines(in, o, "");
}

static void report_md(const struct gs_bench_report_in *in, struct gs_str *o)
{
    const struct gs_bench *b0 = in->runs[0];
    char name[64];
    gs_str_printf(o, "# gridstride bandwidth\n\n");
    gs_md_provenance(o, in->command);
    gs_str_printf(o, "```text\n");
    header_lines(in, o, "");
    for (int i = 0; i < in->nruns; ++i)
        device_lines(in->runs[i], o, "");
    gs_str_printf(o, "```\n\n| variant | MB/launch | KB/SM |");
    for (int i = 0; i < in->nruns; ++i)
        gs_str_printf(o, " %s GB/s | %s %%copy | %s %%best |", run_label(in, i, name, sizeof name),
                      name, name);
    gs_str_printf(o, "%s\n|---|---:|---:|", in->nruns > 1 ? " spread |" : "");
    for (int i = 0; i < in->nruns; ++i)
        gs_str_printf(o, "---:|---:|---:|");
    gs_str_printf(o, "%s\n", in->nruns > 1 ? "---:|" : "");
    for (int k = 0; k < b0->nrows; ++k) {
        gs_str_printf(o, "| %s | %.1f | %.1f |", b0->rows[k].label, (double)b0->rows[k].bytes / 1e6,
                      b0->rows[k].inflight_per_sm / 1024);
        for (int i = 0; i < in->nruns; ++i) {
            const struct gs_bench_row *r = &in->runs[i]->rows[k];
            if (r->verified)
                gs_str_printf(o, " %.1f | %.1f%% | %.1f%% |", r->gbps, r->pct_copy, r->pct_best);
            else
                gs_str_printf(o, " WRONG | | |");
        }
        if (in->nruns > 1) {
            const double s = spread(in, k);
            gs_str_printf(o, s >= 0 ? " %.1f%% |" : " |", s);
        }
        gs_str_printf(o, "\n");
    }
    gs_str_printf(o, "\n```text\n");
    reference_lines(in, o, "");
    ratio_lines(in, o, "");
    wrong_lines(in, o, "");
    gs_str_printf(o, "```\n");
}

static void report_csv(const struct gs_bench_report_in *in, struct gs_str *o)
{
    gs_str_printf(o, "backend,device,device_id,api_version,driver_version,compute_units,block,G,T,"
                     "n,reps,warmup,group,variant,kernel,grid,param,bytes_per_launch,verified,"
                     "min_ms,median_ms,max_ms,mean_ms,stddev_ms,gbps,pct_of_copy,pct_of_best,pct_of_peak,"
                     "peak_gbps,trips,inflight_bytes_per_thread,inflight_bytes_per_sm,type,commit\n");
    for (int i = 0; i < in->nruns; ++i) {
        const struct gs_bench *b = in->runs[i];
        const struct gs_device *d = b->dev;
        for (int k = 0; k < b->nrows; ++k) {
            const struct gs_bench_row *r = &b->rows[k];
            gs_str_printf(o, "\"%s\",\"%s\",\"%s\",\"%s\",\"%s\",%u,%u,%llu,%llu,%llu,%u,%u,\"%s\","
                             "\"%s\",%s,%llu,%llu,%llu,%d,",
                          d->backend->name, d->name, d->id, d->api_version, d->driver_version,
                          d->compute_units, b->block, (unsigned long long)b->grid,
                          (unsigned long long)b->threads, (unsigned long long)b->n, b->reps,
                          b->warmup, group_titles[r->group], r->label,
                          r->is_copy ? "api-copy" : gs_kernel_info(r->launch.kernel)->name,
                          (unsigned long long)r->launch.grid, (unsigned long long)r->launch.param,
                          (unsigned long long)r->bytes, r->verified);
            /* A row that was not verified has no timings (the JSON leaves
             * them out), and a device without a stated peak no percentage. */
            const double t[] = {r->min_ms, r->med_ms, r->max_ms, r->mean_ms, r->stddev_ms};
            for (int m = 0; m < 5; ++m)
                gs_csv_number(o, r->verified, 6, t[m]);
            gs_csv_number(o, r->verified, 3, r->gbps);
            gs_csv_number(o, r->verified, 2, r->pct_copy);
            gs_csv_number(o, r->verified, 2, r->pct_best);
            gs_csv_number(o, r->verified && r->pct_peak > 0, 2, r->pct_peak);
            gs_csv_number(o, d->peak_bytes_per_s > 0, 1, (double)d->peak_bytes_per_s / 1e9);
            gs_str_printf(o, "%.4f,%u,%.0f,%s,", r->trips, r->inflight, r->inflight_per_sm,
                          gs_type_name(b->type));
            gs_csv_last(o, gs_build_commit());
        }
    }
}

static void json_row(struct gs_jw *w, const struct gs_bench *b, const struct gs_bench_row *r)
{
    gs_jw_space(w, "\n        ");
    gs_jw_object(w, NULL);
    gs_jw_str(w, "group", group_titles[r->group]);
    gs_jw_str(w, GS_RK(ROW_VARIANT), r->label);
    gs_jw_str(w, "kernel", r->is_copy ? "api-copy" : gs_kernel_info(r->launch.kernel)->name);
    gs_jw_u64(w, "grid", r->launch.grid);
    gs_jw_u64(w, "block", r->launch.block);
    gs_jw_u64(w, "param", r->launch.param);
    gs_jw_u64(w, "bytes", r->bytes);
    gs_jw_fixed(w, "trips", 4, r->is_copy ? 0.0 : r->trips);
    gs_jw_u64(w, "inflight_bytes_per_thread", r->inflight);
    gs_jw_fixed(w, "inflight_bytes_per_sm", 0, r->inflight_per_sm);
    gs_jw_bool(w, GS_RK(ROW_VERIFIED), r->verified);
    if (!r->verified) {
        gs_jw_str(w, "wrong", r->wrong);
        gs_jw_end(w, "");
        return;
    }
    gs_jw_fixed(w, "min_ms", 6, r->min_ms);
    gs_jw_fixed(w, "median_ms", 6, r->med_ms);
    gs_jw_fixed(w, "max_ms", 6, r->max_ms);
    gs_jw_fixed(w, "mean_ms", 6, r->mean_ms);
    gs_jw_fixed(w, "stddev_ms", 6, r->stddev_ms);
    gs_jw_fixed(w, GS_RK(ROW_GBPS), 3, r->gbps);
    gs_jw_fixed(w, "pct_of_copy", 2, r->pct_copy);
    gs_jw_fixed(w, "pct_of_best", 2, r->pct_best);
    if (r->pct_peak > 0)
        gs_jw_fixed(w, "pct_of_peak", 2, r->pct_peak);
    else
        gs_jw_null(w, "pct_of_peak");
    gs_jw_array(w, "samples_ms");
    for (unsigned j = 0; j < b->reps && r->samples_ms; ++j)
        gs_jw_fixed(w, NULL, 6, r->samples_ms[j]);
    gs_jw_end(w, "");
    gs_jw_end(w, "");
}

static void report_json(const struct gs_bench_report_in *in, struct gs_str *o)
{
    const struct gs_run_info run = {in->version, in->command, in->date, in->toolkit};
    struct gs_jw w;
    gs_jw_init(&w, o);
    gs_results_header(&w, "bandwidth", &run);
    gs_jw_space(&w, "\n  ");
    gs_jw_str(&w, "gbps_definition", "(bytes read + bytes written) / median seconds / 1e9");
    gs_jw_space(&w, "\n  ");
    gs_jw_array(&w, GS_RK(RUNS));
    for (int i = 0; i < in->nruns; ++i) {
        const struct gs_bench *b = in->runs[i];
        const struct gs_device *d = b->dev;
        gs_jw_space(&w, "\n    ");
        gs_jw_object(&w, NULL);
        gs_results_device(&w, d);
        gs_jw_u64(&w, "block", b->block);
        gs_jw_u64(&w, "G", b->grid);
        gs_jw_u64(&w, "T", b->threads);
        gs_jw_str(&w, GS_RK(RUN_TYPE), gs_type_name(b->type));
        gs_jw_u64(&w, GS_RK(RUN_N), b->n);
        gs_jw_u64(&w, "reps", b->reps);
        gs_jw_u64(&w, "warmup", b->warmup);
        gs_jw_fixed(&w, "peak_gbps", 1, (double)d->peak_bytes_per_s / 1e9);
        gs_jw_str(&w, "peak_rule", d->peak_rule);
        gs_jw_fixed(&w, "copy_gbps", 3, b->copy_gbps);
        gs_jw_fixed(&w, "best_gbps", 3, b->best_row >= 0 ? b->rows[b->best_row].gbps : 0.0);
        gs_jw_str(&w, "best_variant", b->best_row >= 0 ? b->rows[b->best_row].label : "");
        gs_jw_fixed(&w, "chunked_over_coalesced", 4, b->chunked_ratio);
        gs_jw_fixed(&w, "stride32_over_coalesced", 4, b->stride32_ratio);
        gs_jw_space(&w, "\n      ");
        gs_jw_array(&w, GS_RK(RUN_ROWS));
        for (int k = 0; k < b->nrows; ++k)
            json_row(&w, b, &b->rows[k]);
        gs_jw_end(&w, "\n      ");
        gs_jw_end(&w, "");
    }
    gs_jw_end(&w, "\n  ");
    gs_jw_end(&w, "\n");
}

void gs_bench_report(const struct gs_bench_report_in *in, enum gs_format f, struct gs_str *out)
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
