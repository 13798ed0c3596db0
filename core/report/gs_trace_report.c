/* SPDX-License-Identifier: MIT */
#include "gs_trace_report.h"

#include "gs_results.h"

#include <stdio.h>
#include <string.h>

#define GS_STRIP_CHARS 64u /* characters in a terminal strip */

const char *gs_trace_num(uint64_t v, const char *sep, char buf[32])
{
    char digits[24];
    const int len = snprintf(digits, sizeof digits, "%llu", (unsigned long long)v);
    int o = 0;
    for (int i = 0; i < len; ++i) {
        if (i > 0 && (len - i) % 3 == 0)
            for (const char *s = sep; *s && o < 30; ++s)
                buf[o++] = *s;
        if (o < 31)
            buf[o++] = digits[i];
    }
    buf[o] = '\0';
    return buf;
}

/* One word for one thing: a writer's pass is its stores before this one,
 * for a loop over a chunk as for a loop over the grid. */
static const char *pass_word(const struct gs_trace_kernel *k, int plural)
{
    (void)k;
    return plural ? "passes" : "pass";
}

void gs_trace_launch_words(const struct gs_launch *l, const char *sep, struct gs_str *o)
{
    const struct gs_kernel_info *info = gs_kernel_info(l->kernel);
    char a[32], b[32];
    if (l->grid_y > 1)
        gs_str_printf(o, "<<<(1, %llu), %llu>>>, %s rows of %s", (unsigned long long)l->grid_y,
                      (unsigned long long)l->block, gs_trace_num(l->grid_y, sep, a),
                      gs_trace_num(l->param, sep, b));
    else
        gs_str_printf(o, "<<<%llu, %llu>>>, T = %s", (unsigned long long)l->grid,
                      (unsigned long long)l->block, gs_trace_num(l->global, sep, a));
    if (l->asked_grid)
        gs_str_printf(o, " (granted for <<<%llu, %llu>>>)", (unsigned long long)l->asked_grid,
                      (unsigned long long)l->asked_block);
    switch (info ? info->param : GS_PARAM_NONE) {
    case GS_PARAM_CHUNK: gs_str_printf(o, ", C = %llu", (unsigned long long)l->param); break;
    case GS_PARAM_STRIDE: gs_str_printf(o, ", S = %llu", (unsigned long long)l->param); break;
    case GS_PARAM_TILE: gs_str_printf(o, ", tiles of %llu", (unsigned long long)l->param); break;
    default: break;
    }
}

void gs_trace_warp_words(const struct gs_warp_step *w, const char *sep, struct gs_str *o)
{
    char a[32];
    if (w->elements == 0) {
        gs_str_printf(o, "no element");
        return;
    }
    gs_str_printf(o, "%u lane%s, element%s %llu", w->lanes, w->lanes == 1 ? "" : "s",
                  w->elements == 1 ? "" : "s", (unsigned long long)w->first);
    if (w->last != w->first)
        gs_str_printf(o, "-%llu", (unsigned long long)w->last);
    const uint64_t per_lane = w->lanes ? w->elements / w->lanes : 0;
    if (w->lanes > 1 && w->apart == 1)
        gs_str_printf(o, ": adjacent");
    else if (w->lanes > 1 && w->apart == per_lane && w->elements == per_lane * w->lanes)
        gs_str_printf(o, ": contiguous, %llu per lane", (unsigned long long)per_lane);
    else if (w->lanes > 1 && w->apart > 1)
        gs_str_printf(o, ": %s apart", gs_trace_num(w->apart, sep, a));
    else if (w->lanes > 1)
        gs_str_printf(o, ": not evenly spaced");
    gs_str_printf(o, ", %s segment%s of 128 bytes", gs_trace_num(w->segments, sep, a),
                  w->segments == 1 ? "" : "s");
}

/* "0, 1024, 2048 and 3072", or "0, 1, 2, ... (4096 in all)". */
static void thread0_words(const struct gs_trace_kernel *k, const char *sep, struct gs_str *o)
{
    char a[32];
    const int all = (uint64_t)k->nthread0 == k->thread0_total;
    for (int i = 0; i < k->nthread0; ++i) {
        const char *joint = i == 0 ? "" : (all && i + 1 == k->nthread0) ? " and " : ", ";
        gs_str_printf(o, "%s%llu", joint, (unsigned long long)k->thread0[i]);
    }
    if (!all)
        gs_str_printf(o, ", ... (%s in all)", gs_trace_num(k->thread0_total, sep, a));
}

static void coverage_words(const struct gs_trace_kernel *k, const char *sep, struct gs_str *o)
{
    char a[32], b[32];
    const uint64_t n = k->launch.n;
    const int prefix = k->written > 0 && k->written < n && k->first_unwritten == k->written;
    if (k->written == n)
        gs_str_printf(o, "writes all %s elements", gs_trace_num(n, sep, a));
    else if (k->written == 0)
        gs_str_printf(o, "writes none of its %s elements", gs_trace_num(n, sep, a));
    else if (prefix)
        gs_str_printf(o, "writes the first %s of %s elements", gs_trace_num(k->written, sep, a),
                      gs_trace_num(n, sep, b));
    else
        gs_str_printf(o, "writes %s of %s elements, the first hollow one at %llu",
                      gs_trace_num(k->written, sep, a), gs_trace_num(n, sep, b),
                      (unsigned long long)k->first_unwritten);
    if (k->passes == 1)
        gs_str_printf(o, " in one %s", pass_word(k, 0));
    else if (k->passes > 1)
        gs_str_printf(o, " in %s %s", gs_trace_num(k->passes, sep, a), pass_word(k, 1));
    if (prefix)
        gs_str_printf(o, " and leaves the rest hollow");
    if (k->duplicated)
        gs_str_printf(o, ", %s of them more than once (up to %llu times)",
                      gs_trace_num(k->duplicated, sep, a), (unsigned long long)k->max_count);
}

void gs_trace_sentence(const struct gs_trace_kernel *k, const char *sep, struct gs_str *o)
{
    const struct gs_kernel_info *info = gs_kernel_info(k->launch.kernel);
    char a[32];
    gs_str_printf(o, "The %s kernel ", info->name);
    if (!k->cells) {
        gs_str_printf(o, "was not traced: %s.", k->why);
        return;
    }
    coverage_words(k, sep, o);
    if (k->thread0_total) {
        gs_str_printf(o, "; thread 0 writes ");
        thread0_words(k, sep, o);
    }
    const struct gs_warp_step *w = &k->warp[0];
    if (k->nsteps && w->lanes > 1 && w->apart == 1)
        gs_str_printf(o, "; inside each %s the %u lanes of a warp are adjacent", pass_word(k, 0),
                      w->lanes);
    else if (k->nsteps && w->lanes > 1 && w->apart > 1)
        gs_str_printf(o, "; in each %s the %u lanes of a warp are %s elements apart",
                      pass_word(k, 0), w->lanes, gs_trace_num(w->apart, sep, a));
    gs_str_printf(o, ".");
}

/* ---- text ---------------------------------------------------------------- */

/* A cell's writer and pass as reports print them: -1 for nobody. */
static long long writer_of(const struct gs_trace_cell *c)
{
    return c->writer == GS_TRACE_NONE ? -1 : (long long)c->writer;
}

static long long pass_of(const struct gs_trace_cell *c)
{
    return c->pass == GS_TRACE_NO_PASS ? -1 : (long long)c->pass;
}

static char strip_char(uint64_t v)
{
    return v < 10 ? (char)('0' + v) : v < 36 ? (char)('a' + v - 10) : '+';
}

enum strip_row { STRIP_BLOCK, STRIP_PASS, STRIP_TWICE };

/* One character of a strip row for elements [lo, hi): the block or pass
 * that all its written elements share, '~' when they differ, '.' when none
 * was written; for the row of repeats, '*' when any was written twice. */
static char strip_bin(const struct gs_trace_kernel *k, enum strip_row what, uint64_t lo,
                      uint64_t hi)
{
    char ch = '.';
    for (uint64_t i = lo; i < hi; ++i) {
        const struct gs_trace_cell *x = &k->cells[i];
        if (what == STRIP_TWICE && x->count > 1)
            return '*';
        if (what == STRIP_TWICE || x->writer == GS_TRACE_NONE)
            continue;
        const char here = strip_char(what == STRIP_BLOCK ? x->writer / k->launch.block : x->pass);
        if (ch != '.' && ch != here)
            return '~';
        ch = here;
    }
    return ch;
}

static void strip(const struct gs_trace_kernel *k, enum strip_row what, struct gs_str *o)
{
    const uint64_t n = k->launch.n;
    const uint64_t chars = n < GS_STRIP_CHARS ? n : GS_STRIP_CHARS;
    static const char *const names[] = {"block", "pass ", "twice"};
    gs_str_printf(o, "    %s |", names[what]);
    for (uint64_t c = 0; c < chars; ++c)
        gs_str_printf(o, "%c", strip_bin(k, what, n * c / chars, n * (c + 1) / chars));
    gs_str_printf(o, "|\n");
}

static void text_kernel(const struct gs_trace_kernel *k, struct gs_str *o)
{
    const struct gs_kernel_info *info = gs_kernel_info(k->launch.kernel);
    gs_str_printf(o, "  %-18s ", info->name);
    gs_trace_launch_words(&k->launch, "", o);
    gs_str_printf(o, "\n");
    if (!k->cells) {
        gs_str_printf(o, "    %s\n", k->why);
        return;
    }
    strip(k, STRIP_BLOCK, o);
    strip(k, STRIP_PASS, o);
    if (k->duplicated)
        strip(k, STRIP_TWICE, o);
    gs_str_printf(o, "    %llu of %llu written", (unsigned long long)k->written,
                  (unsigned long long)k->launch.n);
    if (k->first_unwritten < k->launch.n)
        gs_str_printf(o, ", the first unwritten %llu", (unsigned long long)k->first_unwritten);
    gs_str_printf(o, "; %llu %s; ", (unsigned long long)k->passes, pass_word(k, k->passes != 1));
    if (k->duplicated)
        gs_str_printf(o, "%llu written more than once (up to %llu times)\n",
                      (unsigned long long)k->duplicated, (unsigned long long)k->max_count);
    else
        gs_str_printf(o, "no element written twice\n");
    if (k->thread0_total) {
        gs_str_printf(o, "    thread 0 writes ");
        thread0_words(k, "", o);
        gs_str_printf(o, "\n");
    }
    for (int s = 0; s < k->nsteps; ++s) {
        gs_str_printf(o, "    warp 0, %s %d: ", pass_word(k, 0), s);
        gs_trace_warp_words(&k->warp[s], "", o);
        gs_str_printf(o, "\n");
    }
    if (k->held)
        gs_str_printf(o, "    map = model at all %llu elements%s%s\n",
                      (unsigned long long)k->launch.n, k->why[0] ? "; " : "", k->why);
    else
        gs_str_printf(o, "    MAP DIFFERS FROM THE MODEL: %s\n", k->why);
    for (int m = 0; m < k->listed; ++m) {
        const struct gs_trace_mismatch *x = &k->list[m];
        gs_str_printf(o, "      element %llu: recorded %u writes, writer %lld, pass %lld; model "
                         "%u writes, writer %lld, pass %lld\n",
                      (unsigned long long)x->index, x->got.count, writer_of(&x->got),
                      pass_of(&x->got), x->want.count, writer_of(&x->want), pass_of(&x->want));
    }
}

/* Whether run r ran another launch than the first run that traced the
 * same kernel (a runtime's grant): its maps are compared with the model
 * only. */
int gs_trace_ran_other_launch(const struct gs_trace_report_in *in, int r)
{
    for (int k = 0; k < in->runs[r]->nkernels; ++k) {
        const struct gs_trace_kernel *mine = &in->runs[r]->k[k];
        for (int f = 0; f < r && mine->cells; ++f) {
            const struct gs_trace_kernel *first = &in->runs[f]->k[k];
            if (first->cells) {
                if (!gs_trace_same_launch(&first->launch, &mine->launch))
                    return 1;
                break;
            }
        }
    }
    return 0;
}

static void agreement_text(const struct gs_trace_report_in *in, struct gs_str *o)
{
    const struct gs_trace *t0 = in->runs[0];
    struct gs_str apis = {0};
    int same = 0, left = 0;
    for (int r = 0; r < in->nruns; ++r)
        left += !gs_trace_ran_other_launch(in, r);
    for (int r = 0; r < in->nruns; ++r) {
        if (gs_trace_ran_other_launch(in, r)) {
            gs_str_printf(o, "Across APIs: %s ran another launch than the one asked (its "
                             "runtime's grant): its maps are compared with the model only.\n",
                          in->runs[r]->dev->backend->name);
            continue;
        }
        ++same;
        gs_str_printf(&apis, "%s%s", same == 1 ? "" : same == left ? " and " : ", ",
                      in->runs[r]->dev->backend->name);
    }
    if (same < 2)
        gs_str_printf(o, "Across APIs: one map per kernel and launch here; nothing to compare.\n");
    else if (in->agreed)
        gs_str_printf(o, "Across APIs: %s recorded the same map, element by element, for every "
                         "kernel.\n", apis.data);
    for (int k = 0; k < t0->nkernels && !in->agreed; ++k) {
        const struct gs_trace_agreement *g = &in->agree[k];
        if (!g->equal)
            gs_str_printf(o, "Across APIs: MAPS DIFFER for %s: %s and %s first differ at element "
                             "%llu.\n",
                          gs_kernel_info(t0->k[k].launch.kernel)->name,
                          in->runs[g->a]->dev->backend->name, in->runs[g->b]->dev->backend->name,
                          (unsigned long long)g->first_difference);
    }
    gs_str_free(&apis);
}

static void report_text(const struct gs_trace_report_in *in, struct gs_str *o)
{
    const struct gs_trace_plan *p = &in->runs[0]->plan;
    const uint64_t n = p->n, chars = n < GS_STRIP_CHARS ? n : GS_STRIP_CHARS;
    int maps = 0, failed = 0;
    gs_str_printf(o, "gridstride trace: <<<%llu, %llu>>> (T = %llu threads) over n = %llu "
                     "elements\n",
                  (unsigned long long)p->grid, (unsigned long long)p->block,
                  (unsigned long long)(p->grid * p->block), (unsigned long long)n);
    gs_str_printf(o, "Recorded on the device by each kernel's trace build: per element its "
                     "writes, the lowest\nglobal index of a thread that wrote it and that "
                     "thread's pass, compared with the model\nelement by element. Strips: one "
                     "character per %s%llu element%s, the block and the pass\nits written "
                     "elements share (0-9, a-z, + from 36; '~' when they differ), '.' where none\n"
                     "was written, '*' where one was written more than once.\n",
                  n % chars ? "about " : "", (unsigned long long)(n / chars),
                  n / chars == 1 ? "" : "s");
    for (int r = 0; r < in->nruns; ++r) {
        const struct gs_trace *t = in->runs[r];
        gs_str_printf(o, "\n%s: %s | %s\n", t->dev->backend->name, t->dev->name,
                      t->dev->api_version);
        for (int k = 0; k < t->nkernels; ++k) {
            text_kernel(&t->k[k], o);
            maps += t->k[k].cells != NULL;
        }
        failed += t->failed;
    }
    gs_str_printf(o, "\n");
    agreement_text(in, o);
    if (failed)
        gs_str_printf(o, "FAILED: %d of the traced kernels do not match the model.\n", failed);
    else if (maps == 0)
        gs_str_printf(o, "No map was recorded: every launch was refused or not launched, as "
                         "predicted.\n");
    else
        gs_str_printf(o, "All %d recorded maps equal the model, element by element.\n", maps);
}

/* ---- JSON ---------------------------------------------------------------- */

/* Every element's record, for drawing elsewhere; only for small n. */
#define GS_TRACE_JSON_CELLS 65536u

static void json_cells(struct gs_jw *w, const struct gs_trace_kernel *k)
{
    static const char *const fields[] = {"count", "writer", "pass"};
    gs_jw_space(w, "\n         ");
    gs_jw_object(w, "cells");
    for (int f = 0; f < 3; ++f) {
        gs_jw_array(w, fields[f]);
        gs_jw_item_space(w, "");
        for (uint64_t i = 0; i < k->launch.n; ++i) {
            const struct gs_trace_cell *c = &k->cells[i];
            if (f == 0)
                gs_jw_u64(w, NULL, c->count);
            else if (c->writer == GS_TRACE_NONE)
                gs_jw_null(w, NULL);
            else
                gs_jw_u64(w, NULL, f == 1 ? c->writer : c->pass);
        }
        gs_jw_end(w, "");
    }
    gs_jw_end(w, "");
}

static void json_facts(struct gs_jw *w, const struct gs_trace_kernel *k)
{
    gs_jw_u64(w, "written", k->written);
    if (k->first_unwritten < k->launch.n)
        gs_jw_u64(w, "first_unwritten", k->first_unwritten);
    else
        gs_jw_null(w, "first_unwritten");
    gs_jw_u64(w, "writes", k->writes);
    gs_jw_u64(w, "duplicated", k->duplicated);
    gs_jw_u64(w, "max_count", k->max_count);
    gs_jw_u64(w, "passes", k->passes);
    gs_jw_u64(w, "thread0_elements", k->thread0_total);
    gs_jw_array(w, "thread0_first");
    for (int i = 0; i < k->nthread0; ++i)
        gs_jw_u64(w, NULL, k->thread0[i]);
    gs_jw_end(w, "");
    gs_jw_space(w, "\n         ");
    gs_jw_array(w, "warp0");
    for (int s = 0; s < k->nsteps; ++s) {
        const struct gs_warp_step *x = &k->warp[s];
        gs_jw_object(w, NULL);
        gs_jw_int(w, "step", s);
        gs_jw_u64(w, "lanes", x->lanes);
        gs_jw_u64(w, "elements", x->elements);
        gs_jw_u64(w, "first", x->first);
        gs_jw_u64(w, "last", x->last);
        gs_jw_u64(w, "apart", x->apart);
        gs_jw_u64(w, "segments", x->segments);
        gs_jw_end(w, "");
    }
    gs_jw_end(w, "");
    gs_jw_space(w, "\n         ");
    gs_jw_u64(w, "mismatched", k->mismatched);
    gs_jw_u64(w, "guard_hits", k->guard_hits);
    gs_jw_u64(w, "fence_hits", k->fence_hits);
    gs_jw_array(w, "mismatches");
    for (int m = 0; m < k->listed; ++m) {
        const struct gs_trace_mismatch *x = &k->list[m];
        gs_jw_object(w, NULL);
        gs_jw_u64(w, "index", x->index);
        gs_jw_u64(w, "count", x->got.count);
        gs_jw_int(w, "writer", writer_of(&x->got));
        gs_jw_int(w, "pass", pass_of(&x->got));
        gs_jw_u64(w, "model_count", x->want.count);
        gs_jw_int(w, "model_writer", writer_of(&x->want));
        gs_jw_int(w, "model_pass", pass_of(&x->want));
        gs_jw_end(w, "");
    }
    gs_jw_end(w, "");
}

static void json_kernel(struct gs_jw *w, const struct gs_trace_kernel *k)
{
    const struct gs_launch *l = &k->launch;
    gs_jw_space(w, "\n        ");
    gs_jw_object(w, NULL);
    gs_jw_str(w, "kernel", gs_kernel_info(l->kernel)->name);
    gs_jw_u64(w, "grid", l->grid);
    gs_jw_u64(w, "grid_y", l->grid_y ? l->grid_y : 1);
    gs_jw_u64(w, "block", l->block);
    gs_jw_u64(w, "threads", l->global);
    gs_jw_u64(w, "n", l->n);
    gs_jw_u64(w, "param", l->param);
    gs_jw_bool(w, "traced", k->cells != NULL);
    gs_jw_bool(w, "map_equals_model", k->held && k->cells);
    gs_jw_str(w, "held", k->held ? "yes" : "no");
    gs_jw_str(w, "note", k->why);
    if (k->cells) {
        json_facts(w, k);
        if (l->n <= GS_TRACE_JSON_CELLS)
            json_cells(w, k);
    }
    gs_jw_end(w, "");
}

static void report_json(const struct gs_trace_report_in *in, struct gs_str *o)
{
    const struct gs_trace *t0 = in->runs[0];
    struct gs_jw w;
    int failed = 0;
    for (int r = 0; r < in->nruns; ++r)
        failed += in->runs[r]->failed;
    const struct gs_run_info run = {in->version, in->command, in->date, in->toolkit};
    gs_jw_init(&w, o);
    gs_report_header(&w, GS_TRACE_SCHEMA, GS_REPORT_SCHEMA_VERSION, "trace", &run);
    gs_jw_space(&w, "\n  ");
    gs_jw_u64(&w, "grid", t0->plan.grid);
    gs_jw_u64(&w, "block", t0->plan.block);
    gs_jw_u64(&w, "n", t0->plan.n);
    gs_jw_int(&w, "failed", failed);
    gs_jw_bool(&w, "maps_equal_across_apis", in->agreed);
    gs_jw_space(&w, "\n  ");
    gs_jw_array(&w, "differences");
    for (int k = 0; k < t0->nkernels; ++k) {
        const struct gs_trace_agreement *g = &in->agree[k];
        if (g->equal)
            continue;
        gs_jw_object(&w, NULL);
        gs_jw_str(&w, "kernel", gs_kernel_info(t0->k[k].launch.kernel)->name);
        gs_jw_str(&w, "a", in->runs[g->a]->dev->backend->name);
        gs_jw_str(&w, "b", in->runs[g->b]->dev->backend->name);
        gs_jw_u64(&w, "index", g->first_difference);
        gs_jw_end(&w, "");
    }
    gs_jw_end(&w, "");
    gs_jw_space(&w, "\n  ");
    gs_jw_array(&w, "devices");
    for (int r = 0; r < in->nruns; ++r) {
        const struct gs_trace *t = in->runs[r];
        gs_jw_space(&w, "\n    ");
        gs_jw_object(&w, NULL);
        gs_json_device(&w, t->dev);
        gs_jw_array(&w, "kernels");
        for (int k = 0; k < t->nkernels; ++k)
            json_kernel(&w, &t->k[k]);
        gs_jw_end(&w, "\n      ");
        gs_jw_end(&w, "");
    }
    gs_jw_end(&w, "\n  ");
    gs_jw_end(&w, "\n");
}

void gs_trace_report(const struct gs_trace_report_in *in, enum gs_format f, struct gs_str *out)
{
    if (in->nruns == 0)
        return;
    if (f == GS_FMT_JSON)
        report_json(in, out);
    else
        report_text(in, out);
}
