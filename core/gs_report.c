#include "gs_report.h"

#include <stdio.h>
#include <string.h>

#define CELL 14

int gs_format_parse(const char *s, enum gs_format *f, struct gs_err *e)
{
    static const char *const names[] = {"text", "md", "csv", "json"};
    for (int i = 0; i < 4; ++i)
        if (s && strcmp(s, names[i]) == 0) {
            *f = (enum gs_format)i;
            return GS_OK;
        }
    return gs_err_set(e, GS_USAGE, "--format: unknown format '%.*s%s'; use text, md, csv or json",
                      GS_ECHO(s ? s : ""));
}

/* The mark after a cell: * a failed prediction, ! a deviation of the
 * implementation from its claimed version, nothing when as predicted. */
static const char *held_mark(const struct gs_case *c)
{
    return c->held == GS_HELD_NO ? "*" : c->held == GS_HELD_DEVIATION ? "!" : "";
}

void gs_case_cell(const struct gs_case *c, char *buf, unsigned size)
{
    switch (gs_observed(&c->got, &c->verdict)) {
    case GS_OUT_OK:
        snprintf(buf, size, "ok%s", held_mark(c));
        break;
    case GS_OUT_REFUSED:
        snprintf(buf, size, "refused%s", held_mark(c));
        break;
    default:
        snprintf(buf, size, "wrong@%llu%s", (unsigned long long)c->verdict.first_wrong,
                 held_mark(c));
    }
}

void gs_json_string(struct gs_str *out, const char *s)
{
    gs_str_printf(out, "\"");
    for (; *s; ++s) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            gs_str_printf(out, "\\%c", ch);
        else if (ch < 0x20)
            gs_str_printf(out, "\\u%04x", ch);
        else
            gs_str_printf(out, "%c", ch);
    }
    gs_str_printf(out, "\"");
}

static const char *outcome_word(enum gs_outcome o)
{
    return o == GS_OUT_OK ? "ok" : o == GS_OUT_WRONG ? "wrong" : "refused";
}

static int columns_in(unsigned mask, int first, int last)
{
    int n = 0;
    for (int c = first; c <= last; ++c)
        n += (mask >> c) & 1u;
    return n;
}

/* Cases in all, and how many failed (*failed) or deviate (*deviations). */
static int total_cases(const struct gs_report_in *in, int *failed, int *deviations)
{
    int n = 0;
    *failed = 0;
    *deviations = 0;
    for (int i = 0; i < in->ntables; ++i) {
        n += in->tables[i]->ncases;
        *failed += in->tables[i]->failed;
        for (int k = 0; k < in->tables[i]->ncases; ++k)
            *deviations += in->tables[i]->cases[k].held == GS_HELD_DEVIATION;
    }
    return n;
}

static void shape_label(const struct gs_plan *plan, int row, char *buf, unsigned size)
{
    const struct gs_shape *s = &plan->shapes[row];
    if (s->grid)
        snprintf(buf, size, "<<<%llu, %llu>>>", (unsigned long long)s->grid,
                 (unsigned long long)s->block);
    else
        snprintf(buf, size, "<<<G, %u>>>", plan->block ? plan->block : GS_DEFAULT_BLOCK);
}

/* ---- text ---------------------------------------------------------------- */

static void text_devices(const struct gs_report_in *in, struct gs_str *o)
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
    }
}

static void text_group_header(const struct gs_report_in *in, int ncols, int lead,
                              struct gs_str *o)
{
    gs_str_printf(o, "%*s", lead, "");
    for (int i = 0; i < in->ntables; ++i)
        gs_str_printf(o, " | %-*.*s", ncols * CELL, ncols * CELL, in->tables[i]->dev->backend->name);
    gs_str_printf(o, "\n");
}

/* One line of column letters, a group per device. */
static void text_letters(const struct gs_report_in *in, int first, int last, struct gs_str *o)
{
    for (int i = 0; i < in->ntables; ++i) {
        gs_str_printf(o, " | ");
        for (int c = first; c <= last; ++c)
            if (in->plan->columns & (1u << c))
                gs_str_printf(o, "%*s", CELL, gs_column_letter((enum gs_column)c));
    }
    gs_str_printf(o, "\n");
}

/* The cells of one row of a section, a group per device, and the newline. */
static void text_cells(const struct gs_report_in *in, enum gs_section sec, int row, int first,
                       int last, struct gs_str *o)
{
    char cell[48];
    for (int i = 0; i < in->ntables; ++i) {
        gs_str_printf(o, " | ");
        for (int c = first; c <= last; ++c) {
            const struct gs_case *k = gs_table_find(in->tables[i], sec, (enum gs_column)c, row);
            if (!k)
                continue;
            gs_case_cell(k, cell, sizeof cell);
            gs_str_printf(o, "%*s", CELL, cell);
        }
    }
    gs_str_printf(o, "\n");
}

static void text_sizes(const struct gs_report_in *in, struct gs_str *o)
{
    const struct gs_plan *p = in->plan;
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

static void text_shapes(const struct gs_report_in *in, struct gs_str *o)
{
    const struct gs_plan *p = in->plan;
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
static void text_api_answers(const struct gs_report_in *in, struct gs_str *o)
{
    int header = 0;
    for (int i = 0; i < in->ntables; ++i) {
        const struct gs_table *t = in->tables[i];
        for (int k = 0; k < t->ncases; ++k) {
            const struct gs_case *c = &t->cases[k];
            const struct gs_launch *l = &c->launch;
            const int notable = !c->got.accepted || l->grid == 0 || c->section == GS_SEC_RAGGED;
            if (!notable)
                continue;
            if (!header++)
                gs_str_printf(o, "\nWhat each API answered for refused, empty and ragged launches:\n");
            gs_str_printf(o, "  %-7s %s n=%llu global=%llu local=%llu (<<<%llu, %llu>>>): ",
                          t->dev->backend->name, gs_column_letter(c->column),
                          (unsigned long long)l->n, (unsigned long long)l->global,
                          (unsigned long long)l->block, (unsigned long long)l->grid,
                          (unsigned long long)l->block);
            if (c->got.accepted)
                gs_str_printf(o, "accepted; %s\n",
                              gs_observed(&c->got, &c->verdict) == GS_OUT_OK ? "result ok"
                                                                             : "result wrong");
            else
                gs_str_printf(o, "refused with %s (%ld): %s\n", c->got.api_error,
                              c->got.api_code, c->got.api_message);
            gs_str_printf(o, "          model: %s%s\n", c->pred.why,
                          c->held == GS_HELD_NO          ? "  [DISAGREES]"
                          : c->held == GS_HELD_DEVIATION ? "  [DEVIATES from its claimed version]"
                                                         : "");
        }
    }
}

static void text_diagnoses(const struct gs_report_in *in, struct gs_str *o)
{
    char diag[640];
    int header = 0;
    for (int i = 0; i < in->ntables; ++i) {
        const struct gs_table *t = in->tables[i];
        for (int k = 0; k < t->ncases; ++k) {
            const struct gs_case *c = &t->cases[k];
            const struct gs_verdict *v = &c->verdict;
            if (!c->got.accepted || v->diag == 0)
                continue;
            if (!header++)
                gs_str_printf(o, "\nDiagnosis of every wrong result:\n");
            gs_diagnosis(v, diag, sizeof diag);
            gs_str_printf(o, "  %s %s n=%llu <<<%llu, %llu>>>: %llu of %llu elements wrong, the first at %llu\n"
                             "    %s\n",
                          t->dev->backend->name, gs_column_letter(c->column),
                          (unsigned long long)v->n, (unsigned long long)c->launch.grid,
                          (unsigned long long)c->launch.block, (unsigned long long)v->wrong,
                          (unsigned long long)v->n, (unsigned long long)v->first_wrong, diag);
            gs_str_printf(o, "    %12s %10s %8s %6s  %s\n", "index", "block", "thread", "pass",
                          "found");
            for (int w = 0; w < v->listed; ++w) {
                const struct gs_wrong *x = &v->list[w];
                gs_str_printf(o, "    %12llu %10llu %8llu %6llu  %s%s\n",
                              (unsigned long long)x->index, (unsigned long long)x->owner.block,
                              (unsigned long long)x->owner.thread,
                              (unsigned long long)x->owner.pass,
                              x->unwritten ? "unwritten" : "wrong value",
                              x->owner.launched ? "" : " (no such thread in this launch)");
            }
        }
    }
}

/* Launches an implementation ran although the API version it claims
 * refuses them, and ran correctly: findings about that implementation. */
static void text_deviations(const struct gs_report_in *in, struct gs_str *o)
{
    int header = 0;
    for (int i = 0; i < in->ntables; ++i) {
        const struct gs_table *t = in->tables[i];
        for (int k = 0; k < t->ncases; ++k) {
            const struct gs_case *c = &t->cases[k];
            if (c->held != GS_HELD_DEVIATION)
                continue;
            if (!header++)
                gs_str_printf(o, "\nDeviations from the API version each implementation claims "
                                 "(! above): findings about the implementation, not the kernels:\n");
            gs_str_printf(o, "  %s device %s (%s): %s n=%llu global=%llu <<<%llu, %llu>>> was run, "
                             "and its result is right for the launch as run\n"
                             "    model, from the version it claims: %s\n",
                          t->dev->backend->name, t->dev->name, t->dev->api_version,
                          gs_column_letter(c->column), (unsigned long long)c->launch.n,
                          (unsigned long long)c->launch.global, (unsigned long long)c->launch.grid,
                          (unsigned long long)c->launch.block, c->pred.why);
        }
    }
}

static void text_verdict(const struct gs_report_in *in, struct gs_str *o)
{
    int failed, deviations;
    const int total = total_cases(in, &failed, &deviations);
    gs_str_printf(o, "\n");
    if (failed == 0) {
        const int shapes = columns_in(in->plan->columns, GS_COL_C, GS_COL_D) ? in->plan->nshapes : 0;
        gs_str_printf(o, "all %d size%s", in->plan->nsizes, in->plan->nsizes == 1 ? "" : "s");
        if (shapes)
            gs_str_printf(o, " and %d launch shape%s", shapes, shapes == 1 ? "" : "s");
        gs_str_printf(o, " agree with the reference where the model says they should, on");
        for (int i = 0; i < in->ntables; ++i)
            gs_str_printf(o, "%s %s", i ? "," : "", in->tables[i]->dev->backend->name);
        gs_str_printf(o, " (%d cases)\n", total);
        if (deviations)
            gs_str_printf(o, "%d case%s where an implementation deviates from the API version it "
                             "claims (! above)\n",
                          deviations, deviations == 1 ? "" : "s");
        return;
    }
    gs_str_printf(o, "PREDICTION FAILED: %d of %d cases disagree with the model (* above):\n",
                  failed, total);
    for (int i = 0; i < in->ntables; ++i) {
        const struct gs_table *t = in->tables[i];
        for (int k = 0; k < t->ncases; ++k) {
            const struct gs_case *c = &t->cases[k];
            if (c->held == GS_HELD_NO)
                gs_str_printf(o, "  %s %s n=%llu <<<%llu, %llu>>>: %s (model: %s)\n",
                              t->dev->backend->name, gs_column_letter(c->column),
                              (unsigned long long)c->launch.n, (unsigned long long)c->launch.grid,
                              (unsigned long long)c->launch.block, c->mismatch, c->pred.why);
        }
    }
}

static void report_text(const struct gs_report_in *in, struct gs_str *o)
{
    gs_str_printf(o, "gridstride %s: every result predicted, then launched and verified\n\n",
                  in->version);
    text_devices(in, o);
    gs_str_printf(o, "\n");
    text_sizes(in, o);
    text_shapes(in, o);
    text_api_answers(in, o);
    text_diagnoses(in, o);
    text_deviations(in, o);
    text_verdict(in, o);
}

/* ---- markdown ------------------------------------------------------------ */

static void report_md(const struct gs_report_in *in, struct gs_str *o)
{
    const struct gs_plan *p = in->plan;
    char cell[48], label[64];
    gs_str_printf(o, "# gridstride %s\n\n", in->version);
    if (in->command)
        gs_str_printf(o, "Command: `%s`\n\n", in->command);
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
    gs_str_printf(o, "\n");
    for (int c = 0; c < GS_COLUMNS; ++c)
        if (p->columns & (1u << c))
            gs_str_printf(o, "- %s = %s\n", gs_column_letter((enum gs_column)c),
                          gs_column_title((enum gs_column)c));
    gs_str_printf(o, "\n| n |");
    for (int i = 0; i < in->ntables; ++i)
        for (int c = 0; c < GS_COLUMNS; ++c)
            if (p->columns & (1u << c))
                gs_str_printf(o, " %s %s |", in->tables[i]->dev->backend->name,
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
                    gs_case_cell(k, cell, sizeof cell);
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
                    gs_str_printf(o, " %s %s |", in->tables[i]->dev->backend->name,
                                  gs_column_letter((enum gs_column)c));
        gs_str_printf(o, "\n|---|");
        for (int i = 0; i < in->ntables * columns_in(p->columns, GS_COL_C, GS_COL_D); ++i)
            gs_str_printf(o, "---|");
        gs_str_printf(o, "\n");
        for (int r = 0; r < p->nshapes; ++r) {
            shape_label(p, r, label, sizeof label);
            gs_str_printf(o, "| `%s` |", label);
            for (int i = 0; i < in->ntables; ++i)
                for (int c = GS_COL_C; c <= GS_COL_D; ++c) {
                    const struct gs_case *k = gs_table_find(in->tables[i], GS_SEC_SHAPES,
                                                            (enum gs_column)c, r);
                    if (k) {
                        gs_case_cell(k, cell, sizeof cell);
                        gs_str_printf(o, " %s |", cell);
                    }
                }
            gs_str_printf(o, "\n");
        }
    }
    gs_str_printf(o, "\n```text");
    text_api_answers(in, o);
    text_diagnoses(in, o);
    text_deviations(in, o);
    text_verdict(in, o);
    gs_str_printf(o, "```\n");
}

/* ---- csv ----------------------------------------------------------------- */

static void csv_field(struct gs_str *o, const char *s)
{
    gs_str_printf(o, "\"");
    for (; *s; ++s)
        gs_str_printf(o, *s == '"' ? "\"\"" : "%c", *s);
    gs_str_printf(o, "\",");
}

static const char *section_name(enum gs_section s)
{
    return s == GS_SEC_SIZES ? "sizes" : s == GS_SEC_SHAPES ? "shapes" : "ragged";
}

static void report_csv(const struct gs_report_in *in, struct gs_str *o)
{
    char diag[640];
    gs_str_printf(o, "backend,device,device_id,platform,api_version,driver_version,compute_units,"
                     "block,G,T,section,column,kernel,n,grid,local,global,param,predicted,"
                     "predicted_first_wrong,observed,first_wrong,wrong,unwritten,guard_hits,"
                     "api_error,api_code,api_message,diagnosis,held,deviates\n");
    for (int i = 0; i < in->ntables; ++i) {
        const struct gs_table *t = in->tables[i];
        const struct gs_device *d = t->dev;
        for (int k = 0; k < t->ncases; ++k) {
            const struct gs_case *c = &t->cases[k];
            const struct gs_launch *l = &c->launch;
            const struct gs_verdict *v = &c->verdict;
            csv_field(o, d->backend->name);
            csv_field(o, d->name);
            csv_field(o, d->id);
            csv_field(o, d->platform);
            csv_field(o, d->api_version);
            csv_field(o, d->driver_version);
            gs_str_printf(o, "%u,%u,%llu,%llu,%s,%s,%s,%llu,%llu,%llu,%llu,%llu,%s,%llu,%s,%llu,"
                             "%llu,%llu,%llu,",
                          d->compute_units, t->block, (unsigned long long)t->grid,
                          (unsigned long long)t->threads, section_name(c->section),
                          gs_column_letter(c->column), gs_kernel_info(l->kernel)->name,
                          (unsigned long long)l->n, (unsigned long long)l->grid,
                          (unsigned long long)l->block, (unsigned long long)l->global,
                          (unsigned long long)l->param, outcome_word(c->pred.outcome),
                          (unsigned long long)c->pred.first_wrong,
                          outcome_word(gs_observed(&c->got, v)),
                          (unsigned long long)v->first_wrong, (unsigned long long)v->wrong,
                          (unsigned long long)v->unwritten, (unsigned long long)v->guard_hits);
            csv_field(o, c->got.accepted ? "" : c->got.api_error);
            gs_str_printf(o, "%ld,", c->got.accepted ? 0L : c->got.api_code);
            csv_field(o, c->got.accepted ? "" : c->got.api_message);
            gs_diagnosis(v, diag, sizeof diag);
            csv_field(o, diag);
            gs_str_printf(o, "%d,%d\n", c->held != GS_HELD_NO, c->held == GS_HELD_DEVIATION);
        }
    }
}

/* ---- json ---------------------------------------------------------------- */

static void json_kv(struct gs_str *o, const char *key, const char *value, int comma)
{
    gs_str_printf(o, "\"%s\": ", key);
    gs_json_string(o, value);
    if (comma)
        gs_str_printf(o, ", ");
}

static void json_case(const struct gs_case *c, struct gs_str *o)
{
    const struct gs_launch *l = &c->launch;
    const struct gs_verdict *v = &c->verdict;
    char diag[640];
    gs_str_printf(o, "{\"section\": \"%s\", \"column\": \"%s\", \"kernel\": \"%s\", \"n\": %llu, "
                     "\"grid\": %llu, \"block\": %llu, \"global\": %llu, \"param\": %llu, ",
                  section_name(c->section), gs_column_letter(c->column),
                  gs_kernel_info(l->kernel)->name, (unsigned long long)l->n,
                  (unsigned long long)l->grid, (unsigned long long)l->block,
                  (unsigned long long)l->global, (unsigned long long)l->param);
    gs_str_printf(o, "\"predicted\": {\"outcome\": \"%s\", \"first_wrong\": %llu, \"wrong\": %llu, ",
                  outcome_word(c->pred.outcome), (unsigned long long)c->pred.first_wrong,
                  (unsigned long long)c->pred.wrong);
    json_kv(o, "rule", c->pred.why, 0);
    gs_str_printf(o, "}, \"observed\": {\"outcome\": \"%s\", \"accepted\": %s, ",
                  outcome_word(gs_observed(&c->got, v)), c->got.accepted ? "true" : "false");
    if (!c->got.accepted) {
        json_kv(o, "api_error", c->got.api_error, 1);
        gs_str_printf(o, "\"api_code\": %ld, ", c->got.api_code);
        json_kv(o, "api_message", c->got.api_message, 1);
    }
    gs_diagnosis(v, diag, sizeof diag);
    gs_str_printf(o, "\"wrong\": %llu, \"unwritten\": %llu, \"first_wrong\": %llu, "
                     "\"guard_hits\": %llu, ",
                  (unsigned long long)v->wrong, (unsigned long long)v->unwritten,
                  (unsigned long long)v->first_wrong, (unsigned long long)v->guard_hits);
    json_kv(o, "diagnosis", diag, 1);
    gs_str_printf(o, "\"first_wrong_indices\": [");
    for (int w = 0; w < v->listed; ++w) {
        const struct gs_wrong *x = &v->list[w];
        gs_str_printf(o, "%s{\"index\": %llu, \"block\": %llu, \"thread\": %llu, \"pass\": %llu, "
                         "\"launched\": %s, \"unwritten\": %s}",
                      w ? ", " : "", (unsigned long long)x->index,
                      (unsigned long long)x->owner.block, (unsigned long long)x->owner.thread,
                      (unsigned long long)x->owner.pass, x->owner.launched ? "true" : "false",
                      x->unwritten ? "true" : "false");
    }
    gs_str_printf(o, "]}, \"held\": %s, \"deviates\": %s", c->held ? "true" : "false",
                  c->held == GS_HELD_DEVIATION ? "true" : "false");
    if (c->held != GS_HELD_YES) {
        gs_str_printf(o, ", ");
        json_kv(o, c->held == GS_HELD_NO ? "mismatch" : "deviation", c->mismatch, 0);
    }
    gs_str_printf(o, "}");
}

static void report_json(const struct gs_report_in *in, struct gs_str *o)
{
    int failed, deviations;
    const int total = total_cases(in, &failed, &deviations);
    gs_str_printf(o, "{\n  ");
    json_kv(o, "tool", "gridstride", 1);
    json_kv(o, "version", in->version, 1);
    json_kv(o, "command", in->command ? in->command : "", 0);
    gs_str_printf(o, ",\n  \"cases\": %d, \"failed\": %d, \"deviations\": %d, \"held\": %s,\n"
                     "  \"devices\": [\n",
                  total, failed, deviations, failed ? "false" : "true");
    for (int i = 0; i < in->ntables; ++i) {
        const struct gs_table *t = in->tables[i];
        const struct gs_device *d = t->dev;
        gs_str_printf(o, "    {");
        json_kv(o, "backend", d->backend->name, 1);
        json_kv(o, "device", d->name, 1);
        json_kv(o, "id", d->id, 1);
        json_kv(o, "platform", d->platform, 1);
        json_kv(o, "api_version", d->api_version, 1);
        json_kv(o, "driver_version", d->driver_version, 1);
        json_kv(o, "arch", d->arch, 1);
        gs_str_printf(o, "\"compute_units\": %u, \"block\": %u, \"G\": %llu, \"T\": %llu, ",
                      d->compute_units, t->block, (unsigned long long)t->grid,
                      (unsigned long long)t->threads);
        json_kv(o, "grid_rule", t->grid_rule, 1);
        gs_str_printf(o, "\"failed\": %d,\n      \"cases\": [\n", t->failed);
        for (int k = 0; k < t->ncases; ++k) {
            gs_str_printf(o, "        ");
            json_case(&t->cases[k], o);
            gs_str_printf(o, "%s\n", k + 1 < t->ncases ? "," : "");
        }
        gs_str_printf(o, "      ]}%s\n", i + 1 < in->ntables ? "," : "");
    }
    gs_str_printf(o, "  ]\n}\n");
}

void gs_report_table(const struct gs_report_in *in, enum gs_format f, struct gs_str *out)
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
