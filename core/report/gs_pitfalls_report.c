/* SPDX-License-Identifier: MIT */
/* Reports of `gridstride pitfalls`: text for a terminal or a lecture, and
 * Markdown, CSV and JSON with the same facts per case. */
#include "gs_pitfalls_report.h"

#include "gs_results.h"

#include <stdio.h>
#include <string.h>

/* The kernel's name: the catalogue's, or, for the early return (built at
 * run time from kernels/gs_barrier.gs, not a catalogue kernel), its entry. */
static const char *kernel_name(const struct gs_trap_case *c)
{
    if (c->trap == GS_TRAP_EARLY_RETURN)
        return "gs_early_return_barrier";
    return gs_kernel_info(c->launch.kernel)->name;
}

/* The observed outcome's name: check's class for a case run in its worker. */
static const char *observed_name(const struct gs_trap_case *c)
{
    if (c->skipped)
        return "skipped";
    if (c->recorded_class)
        return c->recorded_class;
    return gs_outcome_name(gs_observed(&c->got, &c->verdict));
}

static const char *case_status(const struct gs_trap_case *c)
{
    if (c->skipped)
        return "skipped";
    if (!c->held || !c->counts_held)
        return "FAILED";
    if (c->pred.outcome == GS_OUT_UNDEFINED)
        return "recorded";
    return c->deviation ? "deviation" : "held";
}

/* What happened, in one line: the API's answer, or the values' verdict. */
static void observed_line(const struct gs_trap_case *c, char *buf, size_t size)
{
    char diag[640];
    const enum gs_outcome seen = gs_observed(&c->got, &c->verdict);
    if (c->skipped)
        snprintf(buf, size, "skipped: %s", c->skip_why);
    else if (c->recorded[0])
        snprintf(buf, size, "%s", c->recorded);
    else if (seen == GS_OUT_NOT_LAUNCHED)
        snprintf(buf, size, "not launched: %s", c->got.api_message);
    else if (seen == GS_OUT_REFUSED)
        snprintf(buf, size, "refused with %s (%ld): %s", c->got.api_error, c->got.api_code,
                 c->got.api_message);
    else if (seen == GS_OUT_OK && c->literal)
        snprintf(buf, size, "literal: right (the compiler widened the index)");
    else if (seen == GS_OUT_OK)
        snprintf(buf, size, "values ok");
    else {
        gs_diagnosis(&c->verdict, diag, sizeof diag);
        snprintf(buf, size, "%s wrong@%llu: %llu of %llu elements; %s",
                 c->literal ? "literal:" : "values", (unsigned long long)c->verdict.first_wrong,
                 (unsigned long long)c->verdict.wrong, (unsigned long long)c->verdict.n, diag);
    }
}

/* The count build's result, in one line; empty when it did not run. */
static void counts_line(const struct gs_trap_case *c, char *buf, size_t size)
{
    const struct gs_count_verdict *v = &c->counts;
    buf[0] = '\0';
    if (!c->counted || c->skipped || !c->got.accepted)
        return;
    if (!c->got_count.accepted) {
        snprintf(buf, size, "writes: the count build was refused: %s", c->got_count.api_error);
        return;
    }
    const double per = v->n ? (double)v->total / (double)v->n : 0.0;
    int len = snprintf(buf, size,
                       "writes: %llu in all, %.3f per element, at most %llu on one element",
                       (unsigned long long)v->total, per, (unsigned long long)v->max);
    if (len < 0 || (size_t)len >= size)
        return;
    if (v->mismatched == 0 && v->guard_hits == 0)
        snprintf(buf + len, size - (size_t)len, "; as predicted for every element");
    else
        snprintf(buf + len, size - (size_t)len,
                 "; %llu elements differ from the prediction, the first at %llu (%llu writes, "
                 "predicted %llu); %llu guard words written",
                 (unsigned long long)v->mismatched, (unsigned long long)v->first_mismatch,
                 (unsigned long long)(v->listed ? v->list[0].got : 0),
                 (unsigned long long)(v->listed ? v->list[0].want : 0),
                 (unsigned long long)v->guard_hits);
}

static void launch_text(const struct gs_launch *l, char *buf, size_t size)
{
    char shape[96];
    gs_launch_shape(l, shape, sizeof shape);
    snprintf(buf, size, "n=%llu %s", (unsigned long long)l->n, shape);
}

static void totals(const struct gs_pitfalls_report_in *in, int *cases, int *failed, int *dev,
                   int *skipped)
{
    *cases = *failed = *dev = *skipped = 0;
    for (int i = 0; i < in->nruns; ++i) {
        *cases += in->runs[i]->ncases;
        *failed += in->runs[i]->failed;
        *dev += in->runs[i]->deviations;
        *skipped += in->runs[i]->skipped;
    }
}

/* The cases of trap t on every run, in order: *run and *k keep the place
 * (both 0 to start); NULL after the last, with *p the run of the case. */
static const struct gs_trap_case *next_of_trap(const struct gs_pitfalls_report_in *in,
                                               enum gs_trap t, int *run, int *k,
                                               const struct gs_pitfalls **p)
{
    for (; *run < in->nruns; ++*run, *k = 0) {
        *p = in->runs[*run];
        while (*k < (*p)->ncases) {
            const struct gs_trap_case *c = &(*p)->cases[(*k)++];
            if (c->trap == t)
                return c;
        }
    }
    return NULL;
}

static void summary(const struct gs_pitfalls_report_in *in, struct gs_str *o);

static void report_text(const struct gs_pitfalls_report_in *in, struct gs_str *o)
{
    char line[900], counts[400], launch[128];
    gs_str_printf(o, "pitfalls: ");
    summary(in, o);
    gs_str_printf(o, "gridstride %s pitfalls: every trap predicted, then launched where that "
                     "is safe and verified\n\n", in->version);
    for (int i = 0; i < in->nruns; ++i) {
        const struct gs_pitfalls *p = in->runs[i];
        gs_str_printf(o, "%-7s %s [%s]: %s%s%s; G = %llu x 256, T = %llu; T computed in %u bits\n",
                      p->dev->backend->name, p->dev->name, p->dev->id, p->dev->api_version,
                      p->dev->driver_version[0] ? ", driver " : "", p->dev->driver_version,
                      (unsigned long long)p->grid, (unsigned long long)p->threads, p->t_bits);
    }
    for (int t = 0; t < GS_TRAPS; ++t) {
        const struct gs_trap_info *info = gs_trap_info((enum gs_trap)t);
        int header = 0, run = 0, k = 0;
        const struct gs_pitfalls *p;
        const struct gs_trap_case *c;
        while ((c = next_of_trap(in, (enum gs_trap)t, &run, &k, &p)) != NULL) {
            if (!header++)
                gs_str_printf(o, "\n%d. %s [%s]\n   code:  %s\n   bites: %s\n", t + 1,
                              info->title, info->name, info->code, info->bites);
            observed_line(c, line, sizeof line);
            counts_line(c, counts, sizeof counts);
            launch_text(&c->launch, launch, sizeof launch);
            gs_str_printf(o, "   %-7s %s, %s\n           model: %s\n", p->dev->backend->name,
                          c->label, launch, c->pred.why);
            if (c->pred.outcome != GS_OUT_NOT_LAUNCHED)
                gs_str_printf(o, "           %s\n", line);
            if (counts[0])
                gs_str_printf(o, "           %s\n", counts);
            if (!c->held || !c->counts_held)
                gs_str_printf(o, "           PREDICTION FAILED%s%s\n",
                              c->mismatch[0] ? ": " : "", c->mismatch);
            else if (c->deviation)
                gs_str_printf(o, "           DEVIATION: %s\n", c->mismatch);
        }
        if (header)
            gs_str_printf(o, "   lesson: %s\n", info->lesson);
    }
    gs_str_printf(o, "\n");
    summary(in, o);
}

/* The answer: how many cases agree with the model (the report's first
 * line, and its last). */
static void summary(const struct gs_pitfalls_report_in *in, struct gs_str *o)
{
    int cases, failed, dev, skipped;
    totals(in, &cases, &failed, &dev, &skipped);
    int recorded = 0;
    for (int i = 0; i < in->nruns; ++i)
        for (int k = 0; k < in->runs[i]->ncases; ++k)
            recorded += in->runs[i]->cases[k].pred.outcome == GS_OUT_UNDEFINED;
    if (failed)
        gs_str_printf(o, "PREDICTION FAILED: %d of %d cases disagree with the model\n", failed,
                      cases);
    else if (cases == recorded)
        gs_str_printf(o, "no case predicted: %d recorded, not predicted (%d skipped here)\n",
                      recorded, skipped);
    else
        /* Within 80 columns: scripts read this line whole. */
        gs_str_printf(o, "all %d cases agree with the model (%d skipped, %d recorded, %d deviations)\n",
                      cases - recorded, skipped, recorded, dev);
}

static void report_md(const struct gs_pitfalls_report_in *in, struct gs_str *o)
{
    char line[900], counts[400], launch[128];
    gs_str_printf(o, "# gridstride %s pitfalls\n\n", in->version);
    gs_md_provenance(o, in->command);
    for (int t = 0; t < GS_TRAPS; ++t) {
        const struct gs_trap_info *info = gs_trap_info((enum gs_trap)t);
        int header = 0, run = 0, k = 0;
        const struct gs_pitfalls *p;
        const struct gs_trap_case *c;
        while ((c = next_of_trap(in, (enum gs_trap)t, &run, &k, &p)) != NULL) {
            if (!header++)
                gs_str_printf(o, "## %d. %s\n\n`%s`\n\nBites: %s. %s\n\n"
                                 "| backend | case | launch | predicted | observed | writes | "
                                 "|\n|---|---|---|---|---|---|---|\n",
                              t + 1, info->title, info->code, info->bites, info->lesson);
            observed_line(c, line, sizeof line);
            counts_line(c, counts, sizeof counts);
            launch_text(&c->launch, launch, sizeof launch);
            gs_str_printf(o, "| %s | %s | `%s` | %s | %s | %s | %s |\n", p->dev->backend->name,
                          c->label, launch, gs_outcome_name(c->pred.outcome), line, counts,
                          case_status(c));
        }
        if (header)
            gs_str_printf(o, "\n");
    }
}

static void report_csv(const struct gs_pitfalls_report_in *in, struct gs_str *o)
{
    char line[900];
    gs_str_printf(o, "backend,device,trap,case,kernel,n,grid,grid_y,block,global,predicted,"
                     "observed,first_wrong,wrong,writes,predicted_writes,max_writes,"
                     "count_mismatches,status,detail,commit\n");
    for (int i = 0; i < in->nruns; ++i) {
        const struct gs_pitfalls *p = in->runs[i];
        for (int k = 0; k < p->ncases; ++k) {
            const struct gs_trap_case *c = &p->cases[k];
            const struct gs_launch *l = &c->launch;
            gs_csv_field(o, p->dev->backend->name);
            gs_csv_field(o, p->dev->name);
            gs_csv_field(o, gs_trap_info(c->trap)->name);
            gs_csv_field(o, c->label);
            gs_str_printf(o, "%s,%llu,%llu,%llu,%llu,%llu,%s,%s,%llu,%llu,%llu,%llu,%llu,%llu,%s,",
                          kernel_name(c), (unsigned long long)l->n,
                          (unsigned long long)l->grid, (unsigned long long)l->grid_y,
                          (unsigned long long)l->block, (unsigned long long)l->global,
                          gs_outcome_name(c->pred.outcome),
                          observed_name(c),
                          (unsigned long long)c->verdict.first_wrong,
                          (unsigned long long)c->verdict.wrong,
                          (unsigned long long)c->counts.total,
                          (unsigned long long)c->counts.predicted_total,
                          (unsigned long long)c->counts.max,
                          (unsigned long long)c->counts.mismatched, case_status(c));
            observed_line(c, line, sizeof line);
            gs_csv_field(o, line);
            gs_csv_last(o, gs_build_commit());
        }
    }
}

static void json_case(struct gs_jw *w, const struct gs_trap_case *c)
{
    const struct gs_launch *l = &c->launch;
    const struct gs_count_verdict *v = &c->counts;
    char line[900];
    gs_jw_object(w, NULL);
    gs_jw_str(w, "trap", gs_trap_info(c->trap)->name);
    gs_jw_str(w, "case", c->label);
    gs_jw_str(w, "kernel", kernel_name(c));
    gs_jw_u64(w, "n", l->n);
    gs_jw_u64(w, "grid", l->grid);
    gs_jw_u64(w, "grid_y", l->grid_y);
    gs_jw_u64(w, "block", l->block);
    gs_jw_u64(w, "global", l->global);
    gs_jw_u64(w, "param", l->param);
    gs_json_predicted(w, l, &c->pred);
    observed_line(c, line, sizeof line);
    gs_jw_object(w, "observed");
    gs_jw_str(w, "outcome", observed_name(c));
    gs_jw_u64(w, "first_wrong", c->verdict.first_wrong);
    gs_jw_u64(w, "wrong", c->verdict.wrong);
    gs_jw_str(w, "detail", line);
    gs_jw_end(w, "");
    if (c->counted && c->got_count.accepted) {
        gs_jw_object(w, "writes");
        gs_jw_u64(w, "total", v->total);
        gs_jw_u64(w, "predicted_total", v->predicted_total);
        gs_jw_u64(w, "max", v->max);
        gs_jw_u64(w, "predicted_max", v->predicted_max);
        gs_jw_u64(w, "mismatched", v->mismatched);
        gs_jw_u64(w, "first_mismatch", v->first_mismatch);
        gs_jw_u64(w, "guard_hits", v->guard_hits);
        gs_jw_end(w, "");
    }
    gs_jw_str(w, "status", case_status(c));
    gs_jw_end(w, "");
}

static void report_json(const struct gs_pitfalls_report_in *in, struct gs_str *o)
{
    int cases, failed, dev, skipped;
    struct gs_jw w;
    totals(in, &cases, &failed, &dev, &skipped);
    const struct gs_run_info run = {in->version, in->command, in->date, in->toolkit};
    gs_jw_init(&w, o);
    gs_report_header(&w, GS_PITFALLS_SCHEMA, GS_REPORT_SCHEMA_VERSION, "pitfalls", &run);
    gs_jw_space(&w, "\n  ");
    gs_jw_int(&w, "cases", cases);
    gs_jw_int(&w, "failed", failed);
    gs_jw_int(&w, "deviations", dev);
    gs_jw_int(&w, "skipped", skipped);
    gs_jw_space(&w, "\n  ");
    gs_jw_array(&w, "devices");
    for (int i = 0; i < in->nruns; ++i) {
        const struct gs_pitfalls *p = in->runs[i];
        gs_jw_space(&w, "\n    ");
        gs_jw_object(&w, NULL);
        gs_jw_str(&w, "backend", p->dev->backend->name);
        gs_jw_str(&w, "device", p->dev->name);
        gs_jw_str(&w, "api_version", p->dev->api_version);
        gs_jw_str(&w, "driver_version", p->dev->driver_version);
        gs_jw_u64(&w, "G", p->grid);
        gs_jw_u64(&w, "T", p->threads);
        gs_jw_u64(&w, "t_bits", p->t_bits);
        gs_jw_space(&w, "\n      ");
        gs_jw_array(&w, "cases");
        for (int k = 0; k < p->ncases; ++k) {
            gs_jw_space(&w, "\n        ");
            json_case(&w, &p->cases[k]);
        }
        gs_jw_end(&w, "\n      ");
        gs_jw_end(&w, "");
    }
    gs_jw_end(&w, "\n  ");
    gs_jw_end(&w, "\n");
}

void gs_pitfalls_report(const struct gs_pitfalls_report_in *in, enum gs_format f,
                        struct gs_str *out)
{
    switch (f) {
    case GS_FMT_MD: report_md(in, out); break;
    case GS_FMT_CSV: report_csv(in, out); break;
    case GS_FMT_JSON: report_json(in, out); break;
    default: report_text(in, out);
    }
}
