/* SPDX-License-Identifier: MIT */
#include "gs_table_report.h"

#include <stdio.h>
#include <string.h>

#include "gs_device.h"
#include "gs_report_kit.h"
#include "gs_results.h"

#define CELL 14

void gs_table_case_cell(const struct gs_case *c, char *buf, unsigned size)
{
    /* * = the prediction failed; ! = accepted beyond the device's report */
    const char *mark = !c->held ? "*" : c->deviation ? "!" : "";
    switch (gs_observed(&c->got, &c->verdict)) {
    case GS_OUT_OK:
        snprintf(buf, size, "ok%s", mark);
        break;
    case GS_OUT_REFUSED:
        snprintf(buf, size, "refused%s", mark);
        break;
    case GS_OUT_NOT_LAUNCHED:
        snprintf(buf, size, "not launched%s", mark);
        break;
    default:
        snprintf(buf, size, "wrong@%llu%s", (unsigned long long)c->verdict.first_wrong, mark);
    }
}

static int columns_in(unsigned mask, int first, int last)
{
    int n = 0;
    for (int c = first; c <= last; ++c)
        n += (mask >> c) & 1u;
    return n;
}

static int total_cases(const struct gs_table_report_in *in, int *failed)
{
    int n = 0;
    *failed = 0;
    for (int i = 0; i < in->ntables; ++i) {
        n += in->tables[i]->ncases;
        *failed += in->tables[i]->failed;
    }
    return n;
}

static int total_deviations(const struct gs_table_report_in *in)
{
    int n = 0;
    for (int i = 0; i < in->ntables; ++i)
        n += in->tables[i]->deviations;
    return n;
}

static void shape_label(const struct gs_table_plan *plan, int row, char *buf, unsigned size)
{
    const struct gs_shape *s = &plan->shapes[row];
    if (s->grid)
        snprintf(buf, size, "<<<%llu, %llu>>>", (unsigned long long)s->grid,
                 (unsigned long long)s->block);
    else
        snprintf(buf, size, "<<<G, %u>>>", plan->block ? plan->block : GS_DEFAULT_BLOCK);
}

/* Table i's device as reports name it. */
GS_DEFINE_RUN_LABEL(dev_label, struct gs_table_report_in, tables, ntables)

/* ---- text ---------------------------------------------------------------- */

/* For a device whose runtime lowers the launch it is asked for: what it
 * grants for the device grid. Empty otherwise. */
static void grant_line(const struct gs_table *t, char *buf, unsigned size)
{
    buf[0] = '\0';
    if (t->granted_grid == t->grid && t->granted_block == t->block)
        return;
    snprintf(buf, size,
             "the runtime grants %llu x %llu = %llu threads for <<<%llu, %u>>> (measured before "
             "the launches; every case is predicted from its grant)",
             (unsigned long long)t->granted_grid, (unsigned long long)t->granted_block,
             (unsigned long long)(t->granted_grid * t->granted_block),
             (unsigned long long)t->grid, t->block);
}

static void text_devices(const struct gs_table_report_in *in, struct gs_str *o)
{
    for (int i = 0; i < in->ntables; ++i) {
        const struct gs_table *t = in->tables[i];
        const struct gs_device *d = t->dev;
        gs_str_printf(o, "%-7s %s [%s]: %s, %s%s%s, %u compute units\n", d->backend->name,
                      d->name, d->id, d->platform, d->api_version,
                      d->driver_version[0] ? ", driver " : "", d->driver_version,
                      d->compute_units);
        gs_str_printf(o, "        device grid G = %llu blocks x %u threads = T = %llu threads (%s)\n",
                      (unsigned long long)t->grid, t->block, (unsigned long long)t->threads,
                      t->grid_rule);
        if (gs_dev_probed(d) && gs_dev_probed(d)->status == GS_OK) {
            char probe[512];
            gs_probe_line(d, probe, sizeof probe);
            gs_str_printf(o, "        grid probe: %s\n", probe);
        }
        char grant[256];
        grant_line(t, grant, sizeof grant);
        if (grant[0])
            gs_str_printf(o, "        granted: %s\n", grant);
    }
}

static void text_group_header(const struct gs_table_report_in *in, int ncols, int lead,
                              struct gs_str *o)
{
    char name[64], head[128];
    gs_str_printf(o, "%*s", lead, "");
    for (int i = 0; i < in->ntables; ++i) {
        const struct gs_table *t = in->tables[i];
        dev_label(in, i, name, sizeof name);
        /* Several devices of one API: each group says its own G and T. */
        if (strchr(name, '['))
            snprintf(head, sizeof head, "%s: G %llu, T %llu", name, (unsigned long long)t->grid,
                     (unsigned long long)t->threads);
        else
            snprintf(head, sizeof head, "%s", name);
        gs_str_printf(o, " | %-*.*s", ncols * CELL, ncols * CELL, head);
    }
    gs_str_printf(o, "\n");
}

/* One line of column letters, a group per device. */
static void text_letters(const struct gs_table_report_in *in, int first, int last, struct gs_str *o)
{
    for (int i = 0; i < in->ntables; ++i) {
        gs_str_printf(o, " | ");
        for (int c = first; c <= last; ++c)
            if (in->plan->columns & (1u << c))
                gs_str_printf(o, "%*s", CELL, gs_column_letter((enum gs_column)c));
    }
    gs_str_printf(o, "\n");
}

/* A cell's colour on a terminal: yellow for the lesson (a wrong result
 * that was predicted), red for a failed prediction, cyan for a refusal or
 * a launch not sent; none for a right result. */
static const char *cell_colour(const struct gs_case *k)
{
    if (!k->held)
        return "\033[1;31m";
    switch (gs_observed(&k->got, &k->verdict)) {
    case GS_OUT_OK: return NULL;
    case GS_OUT_WRONG: return "\033[33m";
    default: return "\033[36m";
    }
}

/* The cells of one row of a section, a group per device, and the newline. */
static void text_cells(const struct gs_table_report_in *in, enum gs_section sec, int row, int first,
                       int last, struct gs_str *o)
{
    char cell[48];
    for (int i = 0; i < in->ntables; ++i) {
        gs_str_printf(o, " | ");
        for (int c = first; c <= last; ++c) {
            const struct gs_case *k = gs_table_find(in->tables[i], sec, (enum gs_column)c, row);
            if (!k)
                continue;
            gs_table_case_cell(k, cell, sizeof cell);
            const char *colour = in->colour ? cell_colour(k) : NULL;
            if (colour) /* padded first: the escapes take no columns */
                gs_str_printf(o, "%*s%s%s\033[0m", CELL - (int)strlen(cell), "", colour, cell);
            else
                gs_str_printf(o, "%*s", CELL, cell);
        }
    }
    gs_str_printf(o, "\n");
}

static void text_sizes(const struct gs_table_report_in *in, struct gs_str *o)
{
    const struct gs_table_plan *p = in->plan;
    const int ncols = columns_in(p->columns, GS_COL_A, GS_COL_D);
    const unsigned block = p->block ? p->block : GS_DEFAULT_BLOCK;


    for (int c = 0; c < GS_COLUMNS; ++c)
        if (p->columns & (1u << c))
            gs_str_printf(o, "%s = %s\n", gs_column_letter((enum gs_column)c),
                          gs_column_title((enum gs_column)c));
    gs_str_printf(o, "\n");
    text_group_header(in, ncols, 24, o);
    gs_str_printf(o, "%12s %11s", "n", "blocks(A)");
    text_letters(in, GS_COL_A, GS_COL_D, o);
    for (int r = 0; r < p->nsizes; ++r) {
        const uint64_t n = p->sizes[r];
        gs_str_printf(o, "%12llu %11llu", (unsigned long long)n,
                      (unsigned long long)(n / block + (n % block != 0)));
        text_cells(in, GS_SEC_SIZES, r, GS_COL_A, GS_COL_D, o);
    }
}

static void text_shapes(const struct gs_table_report_in *in, struct gs_str *o)
{
    const struct gs_table_plan *p = in->plan;
    const int ncols = columns_in(p->columns, GS_COL_C, GS_COL_D);
    char label[64];
    if (ncols == 0 || p->nshapes == 0)
        return;
    gs_str_printf(o, "\nn = %u under each launch shape (G = each device's grid):\n", GS_SHAPE_N);
    text_group_header(in, ncols, 24, o);
    gs_str_printf(o, "%-24s", "shape");
    text_letters(in, GS_COL_C, GS_COL_D, o);
    for (int r = 0; r < p->nshapes; ++r) {
        shape_label(p, r, label, sizeof label);
        gs_str_printf(o, "%-24s", label);
        text_cells(in, GS_SEC_SHAPES, r, GS_COL_C, GS_COL_D, o);
    }
}

/* What each API answered for launches that were refused, empty or ragged:
 * the API's own error name and message, never a string of ours. */
static void text_api_answers(const struct gs_table_report_in *in, struct gs_str *o)
{
    int header = 0;
    char name[64];
    for (int i = 0; i < in->ntables; ++i) {
        const struct gs_table *t = in->tables[i];
        for (int k = 0; k < t->ncases; ++k) {
            const struct gs_case *c = &t->cases[k];
            const struct gs_launch *l = &c->launch;
            const int notable = !c->got.accepted || l->grid == 0 || c->section == GS_SEC_RAGGED ||
                                c->deviation;
            if (!notable)
                continue;
            if (!header++)
                gs_str_printf(o, "\nWhat each API answered for refused, empty, ragged and unlaunched "
                                 "launches:\n");
            char shape[96];
            gs_launch_shape(l, shape, sizeof shape);
            gs_str_printf(o, "  %-7s %s n=%llu global=%llu local=%llu (%s): ",
                          dev_label(in, i, name, sizeof name), gs_column_letter(c->column),
                          (unsigned long long)l->n, (unsigned long long)l->global,
                          (unsigned long long)l->block, shape);
            if (c->got.accepted)
                gs_str_printf(o, "accepted; %s\n",
                              gs_observed(&c->got, &c->verdict) == GS_OUT_OK ? "result ok"
                                                                             : "result wrong");
            else if (c->got.not_sent)
                gs_str_printf(o, "not launched: %s\n", c->got.api_message);
            else
                gs_str_printf(o, "refused with %s (%ld): %s\n", c->got.api_error,
                              c->got.api_code, c->got.api_message);
            gs_str_printf(o, "          model: %s%s\n", c->pred.why,
                          !c->held ? "  [DISAGREES]" : c->deviation ? "  [DEVIATION]" : "");
            if (c->deviation)
                gs_str_printf(o, "          %s\n", c->mismatch);
        }
    }
}

static void text_diagnoses(const struct gs_table_report_in *in, struct gs_str *o)
{
    char diag[640], name[64], shape[96];
    int header = 0;
    for (int i = 0; i < in->ntables; ++i) {
        const struct gs_table *t = in->tables[i];
        for (int k = 0; k < t->ncases; ++k) {
            const struct gs_case *c = &t->cases[k];
            const struct gs_verdict *v = &c->verdict;
            if (!c->got.accepted || gs_verdict_clean(v))
                continue;
            if (!header++)
                gs_str_printf(o, "\nDiagnosis of every wrong result:\n");
            gs_diagnosis(v, diag, sizeof diag);
            gs_launch_shape(&c->launch, shape, sizeof shape);
            gs_str_printf(o, "  %s %s n=%llu %s: %llu of %llu elements wrong, the first at %llu\n"
                             "    %s\n",
                          dev_label(in, i, name, sizeof name), gs_column_letter(c->column),
                          (unsigned long long)v->n, shape, (unsigned long long)v->wrong,
                          (unsigned long long)v->n, (unsigned long long)v->first_wrong, diag);
            gs_report_wrong_list(v, c->launch.type, "    ", o);
        }
    }
}

/* The devices whose predictions failed, named, for the summary line. */
static void failed_devices(const struct gs_table_report_in *in, struct gs_str *o)
{
    char name[64];
    int listed = 0;
    for (int i = 0; i < in->ntables; ++i)
        if (in->tables[i]->failed)
            gs_str_printf(o, "%s %s (%s)", listed++ ? "," : "",
                          dev_label(in, i, name, sizeof name), in->tables[i]->dev->name);
}

/* The expected wrong results (held) and refusals of the run, and the
 * columns the wrong ones are in (bit per column). */
static void expected_counts(const struct gs_table_report_in *in, int *wrong, int *refused,
                            unsigned *columns)
{
    *wrong = *refused = 0;
    *columns = 0;
    for (int i = 0; i < in->ntables; ++i)
        for (int k = 0; k < in->tables[i]->ncases; ++k) {
            const struct gs_case *c = &in->tables[i]->cases[k];
            if (!c->held)
                continue;
            const enum gs_outcome got = gs_observed(&c->got, &c->verdict);
            if (got == GS_OUT_WRONG) {
                ++*wrong;
                *columns |= 1u << c->column;
            } else if (got == GS_OUT_REFUSED || got == GS_OUT_NOT_LAUNCHED) {
                ++*refused;
            }
        }
}

static void text_verdict(const struct gs_table_report_in *in, struct gs_str *o)
{
    char name[64];
    int failed;
    const int total = total_cases(in, &failed);
    gs_str_printf(o, "\n");
    if (failed == 0) {
        const int shapes = columns_in(in->plan->columns, GS_COL_C, GS_COL_D) ? in->plan->nshapes : 0;
        int wrong, refused;
        unsigned columns;
        expected_counts(in, &wrong, &refused, &columns);
        gs_str_printf(o, "%d of %d cases held their prediction on", total, total);
        for (int i = 0; i < in->ntables; ++i)
            gs_str_printf(o, "%s %s", i ? "," : "", dev_label(in, i, name, sizeof name));
        gs_str_printf(o, " (%d size%s", in->plan->nsizes, in->plan->nsizes == 1 ? "" : "s");
        if (shapes)
            gs_str_printf(o, ", %d launch shape%s", shapes, shapes == 1 ? "" : "s");
        gs_str_printf(o, ").\n");
        if (wrong == 1 && columns == (1u << GS_COL_B))
            gs_str_printf(o, "The one expected wrong result, in column B, shows the lesson: "
                             "without the loop, a grid of T threads stops at element T.\n");
        else if (wrong && columns == (1u << GS_COL_B))
            gs_str_printf(o, "The %d expected wrong results, all in column B, show the lesson: "
                             "without the loop, a grid of T threads stops at element T.\n",
                          wrong);
        else if (wrong)
            gs_str_printf(o, "The %d expected wrong result%s show%s where a launch without the "
                             "loop stops short, as predicted.\n",
                          wrong, wrong == 1 ? "" : "s", wrong == 1 ? "s" : "");
        if (refused)
            gs_str_printf(o, "%d refusal%s %s predicted too: the API's own answer to a launch "
                             "it does not take.\n",
                          refused, refused == 1 ? "" : "s", refused == 1 ? "was" : "were");
        const int dev = total_deviations(in);
        if (dev)
            gs_str_printf(o, "%d case%s accepted beyond the device's own report (! above): "
                             "measured deviations of the driver, listed above; they do not fail "
                             "the run\n",
                          dev, dev == 1 ? " was" : "s were");
        return;
    }
    gs_str_printf(o, "PREDICTION FAILED: %d of %d cases disagree with the model (* above), on",
                  failed, total);
    failed_devices(in, o);
    gs_str_printf(o, ":\n");
    for (int i = 0; i < in->ntables; ++i) {
        const struct gs_table *t = in->tables[i];
        for (int k = 0; k < t->ncases; ++k) {
            const struct gs_case *c = &t->cases[k];
            char shape[96];
            gs_launch_shape(&c->launch, shape, sizeof shape);
            if (!c->held)
                gs_str_printf(o, "  %s %s n=%llu %s: %s (model: %s)\n",
                              dev_label(in, i, name, sizeof name), gs_column_letter(c->column),
                              (unsigned long long)c->launch.n, shape, c->mismatch, c->pred.why);
        }
    }
}

/* The answer first: did every case hold its prediction, and where. */
static void summary_line(const struct gs_table_report_in *in, struct gs_str *o)
{
    char name[64];
    int failed;
    const int total = total_cases(in, &failed);
    if (failed)
        gs_str_printf(o, "table: PREDICTION FAILED: %d of %d cases disagree with the model, on",
                      failed, total);
    else
        gs_str_printf(o, "table: %d of %d cases held their prediction, on", total, total);
    for (int i = 0; i < in->ntables; ++i)
        gs_str_printf(o, "%s %s", i ? "," : "", dev_label(in, i, name, sizeof name));
    gs_str_printf(o, "\n");
}

static void report_text(const struct gs_table_report_in *in, struct gs_str *o)
{
    summary_line(in, o);
    gs_str_printf(o, "gridstride %s: every result predicted, then launched and verified\n\n",
                  in->version);
    text_devices(in, o);
    gs_str_printf(o, "\n");
    const int ncols = columns_in(in->plan->columns, GS_COL_A, GS_COL_D);
    const unsigned wide = 24u + (unsigned)in->ntables * (3u + (unsigned)ncols * CELL);
    if (in->width && wide > in->width && in->ntables > 1) {
        /* Narrower than side by side: one backend after another. */
        for (int i = 0; i < in->ntables; ++i) {
            struct gs_table_report_in one = *in;
            one.tables = &in->tables[i];
            one.ntables = 1;
            if (i)
                gs_str_printf(o, "\n");
            text_sizes(&one, o);
            text_shapes(&one, o);
        }
    } else {
        text_sizes(in, o);
        text_shapes(in, o);
    }
    text_api_answers(in, o);
    text_diagnoses(in, o);
    text_verdict(in, o);
}

/* ---- markdown ------------------------------------------------------------ */

static void report_md(const struct gs_table_report_in *in, struct gs_str *o)
{
    const struct gs_table_plan *p = in->plan;
    char cell[48], shape[64], name[64];
    gs_str_printf(o, "# gridstride %s\n\n", in->version);
    gs_md_provenance(o, in->command);
    gs_str_printf(o, "| backend | device | id | platform | API | driver | compute units | block | G | T | grid rule |\n"
                     "|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < in->ntables; ++i) {
        const struct gs_table *t = in->tables[i];
        const struct gs_device *d = t->dev;
        gs_str_printf(o, "| %s | %s | %s | %s | %s | %s | %u | %u | %llu | %llu | %s |\n",
                      d->backend->name, d->name, d->id, d->platform, d->api_version,
                      d->driver_version, d->compute_units, t->block, (unsigned long long)t->grid,
                      (unsigned long long)t->threads, t->grid_rule);
    }
    for (int i = 0; i < in->ntables; ++i) {
        const struct gs_device *d = in->tables[i]->dev;
        char probe[512];
        if (!gs_dev_probed(d) || gs_dev_probed(d)->status != GS_OK)
            continue;
        gs_probe_line(d, probe, sizeof probe);
        gs_str_printf(o, "\n- %s %s grid probe: %s", d->backend->name, d->name, probe);
    }
    for (int i = 0; i < in->ntables; ++i) {
        char grant[256];
        grant_line(in->tables[i], grant, sizeof grant);
        if (grant[0])
            gs_str_printf(o, "\n- %s %s: %s", in->tables[i]->dev->backend->name,
                          in->tables[i]->dev->name, grant);
    }
    gs_str_printf(o, "\n");
    for (int c = 0; c < GS_COLUMNS; ++c)
        if (p->columns & (1u << c))
            gs_str_printf(o, "- %s = %s\n", gs_column_letter((enum gs_column)c),
                          gs_column_title((enum gs_column)c));
    gs_str_printf(o, "\n| n |");
    for (int i = 0; i < in->ntables; ++i)
        for (int c = 0; c < GS_COLUMNS; ++c)
            if (p->columns & (1u << c))
                gs_str_printf(o, " %s %s |", dev_label(in, i, name, sizeof name),
                              gs_column_letter((enum gs_column)c));
    gs_str_printf(o, "\n|---:|");
    for (int i = 0; i < in->ntables * columns_in(p->columns, GS_COL_A, GS_COL_D); ++i)
        gs_str_printf(o, "---|");
    gs_str_printf(o, "\n");
    for (int r = 0; r < p->nsizes; ++r) {
        gs_str_printf(o, "| %llu |", (unsigned long long)p->sizes[r]);
        for (int i = 0; i < in->ntables; ++i)
            for (int c = 0; c < GS_COLUMNS; ++c) {
                const struct gs_case *k = gs_table_find(in->tables[i], GS_SEC_SIZES,
                                                        (enum gs_column)c, r);
                if (k) {
                    gs_table_case_cell(k, cell, sizeof cell);
                    gs_str_printf(o, " %s |", cell);
                }
            }
        gs_str_printf(o, "\n");
    }
    if (p->nshapes && columns_in(p->columns, GS_COL_C, GS_COL_D)) {
        gs_str_printf(o, "\nn = %u under each launch shape:\n\n| shape |", GS_SHAPE_N);
        for (int i = 0; i < in->ntables; ++i)
            for (int c = GS_COL_C; c <= GS_COL_D; ++c)
                if (p->columns & (1u << c))
                    gs_str_printf(o, " %s %s |", dev_label(in, i, name, sizeof name),
                                  gs_column_letter((enum gs_column)c));
        gs_str_printf(o, "\n|---|");
        for (int i = 0; i < in->ntables * columns_in(p->columns, GS_COL_C, GS_COL_D); ++i)
            gs_str_printf(o, "---|");
        gs_str_printf(o, "\n");
        for (int r = 0; r < p->nshapes; ++r) {
            shape_label(p, r, shape, sizeof shape);
            gs_str_printf(o, "| `%s` |", shape);
            for (int i = 0; i < in->ntables; ++i)
                for (int c = GS_COL_C; c <= GS_COL_D; ++c) {
                    const struct gs_case *k = gs_table_find(in->tables[i], GS_SEC_SHAPES,
                                                            (enum gs_column)c, r);
                    if (k) {
                        gs_table_case_cell(k, cell, sizeof cell);
                        gs_str_printf(o, " %s |", cell);
                    }
                }
            gs_str_printf(o, "\n");
        }
    }
    gs_str_printf(o, "\n```text");
    text_api_answers(in, o);
    text_diagnoses(in, o);
    text_verdict(in, o);
    gs_str_printf(o, "```\n");
}

/* ---- csv ----------------------------------------------------------------- */

static const char *section_name(enum gs_section s)
{
    return s == GS_SEC_SIZES ? "sizes" : s == GS_SEC_SHAPES ? "shapes" : "ragged";
}

static void report_csv(const struct gs_table_report_in *in, struct gs_str *o)
{
    char diag[640];
    gs_str_printf(o, "backend,device,device_id,platform,api_version,driver_version,compute_units,"
                     "block,G,T,section,column,kernel,n,grid,local,global,param,predicted,"
                     "predicted_first_wrong,observed,first_wrong,wrong,unwritten,guard_hits,"
                     "api_error,api_code,api_message,diagnosis,held,deviation,asked_grid,asked_block,commit\n");
    for (int i = 0; i < in->ntables; ++i) {
        const struct gs_table *t = in->tables[i];
        const struct gs_device *d = t->dev;
        for (int k = 0; k < t->ncases; ++k) {
            const struct gs_case *c = &t->cases[k];
            const struct gs_launch *l = &c->launch;
            const struct gs_verdict *v = &c->verdict;
            gs_csv_field(o, d->backend->name);
            gs_csv_field(o, d->name);
            gs_csv_field(o, d->id);
            gs_csv_field(o, d->platform);
            gs_csv_field(o, d->api_version);
            gs_csv_field(o, d->driver_version);
            gs_str_printf(o, "%u,%u,%llu,%llu,%s,%s,%s,%llu,%llu,%llu,%llu,%llu,%s,%llu,%s,%llu,"
                             "%llu,%llu,%llu,",
                          d->compute_units, t->block, (unsigned long long)t->grid,
                          (unsigned long long)t->threads, section_name(c->section),
                          gs_column_letter(c->column), gs_kernel_info(l->kernel)->name,
                          (unsigned long long)l->n, (unsigned long long)l->grid,
                          (unsigned long long)l->block, (unsigned long long)l->global,
                          (unsigned long long)l->param, gs_outcome_name(c->pred.outcome),
                          (unsigned long long)c->pred.first_wrong,
                          gs_outcome_name(gs_observed(&c->got, v)),
                          (unsigned long long)v->first_wrong, (unsigned long long)v->wrong,
                          (unsigned long long)v->unwritten, (unsigned long long)v->guard_hits);
            gs_csv_field(o, c->got.accepted ? "" : c->got.api_error);
            gs_str_printf(o, "%ld,", c->got.accepted ? 0L : c->got.api_code);
            gs_csv_field(o, c->got.accepted ? "" : c->got.api_message);
            gs_diagnosis(v, diag, sizeof diag);
            gs_csv_field(o, diag);
            gs_str_printf(o, "%d,%d,%llu,%llu,", c->held, c->deviation,
                          (unsigned long long)l->asked_grid, (unsigned long long)l->asked_block);
            gs_csv_last(o, gs_build_commit());
        }
    }
}

/* ---- json ---------------------------------------------------------------- */

static void json_case(struct gs_jw *w, const struct gs_case *c, const struct gs_table_plan *p)
{
    const struct gs_launch *l = &c->launch;
    const struct gs_verdict *v = &c->verdict;
    char diag[640], label[64];
    gs_jw_object(w, NULL);
    /* The shape as the plan wrote it (G = the device grid), so that runs on
     * devices with different G line up in `gridstride compare`. */
    if (c->section == GS_SEC_SHAPES) {
        shape_label(p, c->row, label, sizeof label);
        gs_jw_str(w, GS_RK(CASE_SHAPE), label);
    }
    gs_jw_str(w, GS_RK(CASE_SECTION), section_name(c->section));
    gs_jw_str(w, GS_RK(CASE_COLUMN), gs_column_letter(c->column));
    gs_jw_str(w, "kernel", gs_kernel_info(l->kernel)->name);
    gs_jw_u64(w, GS_RK(CASE_N), l->n);
    gs_jw_u64(w, "grid", l->grid);
    gs_jw_u64(w, "block", l->block);
    gs_jw_u64(w, "global", l->global);
    gs_jw_u64(w, "param", l->param);
    gs_json_predicted(w, l, &c->pred);
    gs_jw_object(w, GS_RK(CASE_OBSERVED));
    gs_jw_str(w, GS_RK(OBSERVED_OUTCOME), gs_outcome_name(gs_observed(&c->got, v)));
    gs_jw_bool(w, "accepted", c->got.accepted);
    if (c->got.not_sent)
        gs_jw_str(w, "not_launched", c->got.api_message);
    if (!c->got.accepted) {
        gs_jw_str(w, "api_error", c->got.api_error);
        gs_jw_int(w, "api_code", c->got.api_code);
        gs_jw_str(w, "api_message", c->got.api_message);
    }
    gs_diagnosis(v, diag, sizeof diag);
    gs_jw_u64(w, "wrong", v->wrong);
    gs_jw_u64(w, "unwritten", v->unwritten);
    gs_jw_u64(w, GS_RK(OBSERVED_FIRST_WRONG), v->first_wrong);
    gs_jw_u64(w, "guard_hits", v->guard_hits);
    gs_jw_str(w, "diagnosis", diag);
    gs_json_wrong_list(w, v);
    gs_jw_end(w, "");
    gs_jw_bool(w, GS_RK(CASE_HELD), c->held);
    gs_jw_bool(w, GS_RK(CASE_DEVIATION), c->deviation);
    if (!c->held || c->deviation)
        gs_jw_str(w, "mismatch", c->mismatch);
    gs_jw_end(w, "");
}

static void json_probe(struct gs_jw *w, const struct gs_grid_probe *p)
{
    gs_jw_object(w, "grid_probe");
    gs_jw_u64(w, "global", p->global);
    gs_jw_u64(w, "local", p->local);
    gs_jw_u64(w, "item", p->item);
    gs_jw_u64(w, "get_global_size", p->global_size);
    gs_jw_u64(w, "get_global_id", p->global_id);
    gs_jw_u64(w, "groups_x_local", p->groups_x_local);
    gs_jw_u64(w, "prelude_T", p->prelude_T);
    gs_jw_end(w, "");
}

static void report_json(const struct gs_table_report_in *in, struct gs_str *o)
{
    int failed;
    const int total = total_cases(in, &failed);
    const struct gs_run_info run = {in->version, in->command, in->date, in->toolkit};
    struct gs_jw w;
    gs_jw_init(&w, o);
    gs_results_header(&w, "table", &run);
    gs_jw_space(&w, "\n  ");
    gs_jw_int(&w, "cases", total);
    gs_jw_int(&w, "failed", failed);
    gs_jw_bool(&w, "held", !failed);
    gs_jw_space(&w, "\n  ");
    gs_jw_array(&w, GS_RK(DEVICES));
    for (int i = 0; i < in->ntables; ++i) {
        const struct gs_table *t = in->tables[i];
        const struct gs_device *d = t->dev;
        gs_jw_space(&w, "\n    ");
        gs_jw_object(&w, NULL);
        gs_results_device(&w, d);
        gs_jw_u64(&w, "block", t->block);
        gs_jw_u64(&w, GS_RK(TABLE_G), t->grid);
        gs_jw_u64(&w, GS_RK(TABLE_T), t->threads);
        gs_jw_str(&w, "grid_rule", t->grid_rule);
        gs_jw_u64(&w, "granted_grid", t->granted_grid);
        gs_jw_u64(&w, "granted_block", t->granted_block);
        const struct gs_grid_probe *probe = gs_dev_probed(d);
        if (probe && probe->status == GS_OK)
            json_probe(&w, probe);
        gs_jw_int(&w, "failed", t->failed);
        gs_jw_int(&w, "deviations", t->deviations);
        gs_jw_space(&w, "\n      ");
        gs_jw_array(&w, GS_RK(TABLE_CASES));
        for (int k = 0; k < t->ncases; ++k) {
            gs_jw_space(&w, "\n        ");
            json_case(&w, &t->cases[k], in->plan);
        }
        gs_jw_end(&w, "\n      ");
        gs_jw_end(&w, "");
    }
    gs_jw_end(&w, "\n  ");
    gs_jw_end(&w, "\n");
}

void gs_table_report(const struct gs_table_report_in *in, enum gs_format f, struct gs_str *out)
{
    switch (f) {
    case GS_FMT_MD:
        report_md(in, out);
        break;
    case GS_FMT_CSV:
        report_csv(in, out);
        break;
    case GS_FMT_JSON:
        report_json(in, out);
        break;
    default:
        report_text(in, out);
    }
}
