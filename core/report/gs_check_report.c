/* SPDX-License-Identifier: MIT */
#include "gs_check_report.h"
#include "gs_counters_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gs_table.h"
#include "gs_user.h"

static const char *const section_names[] = {"sizes", "shapes", "t4"};

int gs_check_all_ok(const struct gs_check_run *runs, int nruns)
{
    for (int i = 0; i < nruns; ++i)
        if (runs[i].count[GS_CHECK_OK] != runs[i].ncases ||
            runs[i].speed.cls == GS_SPEED_WRONG || runs[i].speed.cls == GS_SPEED_IMPOSSIBLE)
            return 0;
    return 1;
}

int gs_check_too_slow(const struct gs_check_run *runs, int nruns)
{
    for (int i = 0; i < nruns; ++i)
        if (runs[i].speed.below_min)
            return 1;
    return 0;
}

const char *gs_check_verdict_name(const struct gs_check_run *runs, int nruns)
{
    return !gs_check_all_ok(runs, nruns) ? "wrong" : gs_check_too_slow(runs, nruns) ? "slow"
                                                                                   : "ok";
}

/* ---- the speed pass ------------------------------------------------------ */

static const char *who_words(enum gs_speed_who w)
{
    switch (w) {
    case GS_SPD_COPY: return "the API's own copy";
    case GS_SPD_SUITE_GS: return "the suite's grid-stride loop";
    case GS_SPD_SUITE_MONO: return "the suite's monolithic add";
    default: return "your kernel";
    }
}

static const char *who_name(enum gs_speed_who w)
{
    switch (w) {
    case GS_SPD_COPY: return "copy";
    case GS_SPD_SUITE_GS: return "suite-grid-stride";
    case GS_SPD_SUITE_MONO: return "suite-monolithic";
    default: return "user";
    }
}

static const char *state_name(enum gs_speed_state s)
{
    static const char *const names[] = {"timed", "too-slow", "not-timed", "wrong", "impossible"};
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

static void text_speed(const struct gs_speed *s, int verbose, struct gs_str *o)
{
    if (!s->measured) {
        gs_str_printf(o, "  speed: %s\n", s->words);
        return;
    }
    gs_str_printf(o, "  speed at n = %llu%s%s%s, the device timer's median of %d launches after "
                     "%d warm-up, each on a poisoned output:\n",
                  (unsigned long long)s->n, verbose ? " (" : "", verbose ? s->size_rule : "",
                  verbose ? ")" : "", GS_SPEED_REPS, GS_SPEED_WARMUP);
    for (int i = 0; i < s->nrows; ++i) {
        const struct gs_speed_row *r = &s->rows[i];
        char shape[64];
        if (r->who == GS_SPD_COPY)
            snprintf(shape, sizeof shape, "%llu bytes", (unsigned long long)(r->bytes / 2));
        else if (r->n != s->n)
            snprintf(shape, sizeof shape, "<<<%llu, %llu>>> n = %llu", (unsigned long long)r->grid,
                     (unsigned long long)r->block, (unsigned long long)r->n);
        else
            snprintf(shape, sizeof shape, "<<<%llu, %llu>>>", (unsigned long long)r->grid,
                     (unsigned long long)r->block);
        if (r->state == GS_SPD_TIMED)
            gs_str_printf(o, "    %-29s %-22s %9.1f GB/s  %.4g ms (%.4g..%.4g, spread %.1f%%)\n",
                          who_words(r->who), shape, r->gbps, r->med_ms, r->min_ms, r->max_ms,
                          r->spread_pct);
        else
            gs_str_printf(o, "    %-29s %-22s %s: %s\n", who_words(r->who), shape,
                          state_name(r->state), r->why);
    }
    gs_str_printf(o, "  speed: %s\n", s->words);
    if (verbose)
        gs_str_printf(o, "  (rule: %s)\n", s->rule);
    gs_str_printf(o, "  blocks: %s\n", s->blocks_words);
    if (verbose)
        gs_str_printf(o, "  (rule: %s)\n", s->blocks_rule);
    if (s->min_speed > 0)
        gs_str_printf(o, "  --min-speed %.2f: %s\n", s->min_speed,
                      s->below_min ? "below it (exit 1)" : "met");
}

/* Why no hardware counter is read where the counters pass left no word
 * (gs_counters_run.h), by the device's API: one line, never a silent
 * absence. */
static const char *counters_why(const struct gs_check_run *r)
{
    const char *b = r->dev->backend->name;
    if (strcmp(b, "opencl") == 0)
        return "none: OpenCL exposes no hardware counters; timing only";
    if (!r->dev->is_gpu)
        return "none on a CPU device";
    return "none: the counters are read for a .cu kernel on the CUDA backend (CUPTI); "
           "timing only";
}

static void text_work(const struct gs_check_work *k, struct gs_str *o)
{
    if (k->cls == GS_WORK_NOT_COUNTED) {
        gs_str_printf(o, "  work: %s\n", k->why);
        return;
    }
    if (k->on_host)
        gs_str_printf(o, "  work counted on the host backend: a .gs text writes the same elements "
                         "on every backend\n");
    gs_str_printf(o, "  work at n = %llu <<<%llu, %llu>>>, counted one thread at a time, each on "
                     "a poisoned output: writers per element min %u, max %u, %llu writes for n "
                     "= %llu\n",
                  (unsigned long long)k->n, (unsigned long long)k->grid,
                  (unsigned long long)k->block, k->min, k->max, (unsigned long long)k->total,
                  (unsigned long long)k->n);
    gs_str_printf(o, "  work: %s\n", k->words);
}

static void json_work(struct gs_jw *w, const struct gs_check_work *k)
{
    const int counted = k->cls != GS_WORK_NOT_COUNTED;
    gs_jw_space(w, "\n      ");
    gs_jw_object(w, "work");
    gs_jw_bool(w, "counted", counted);
    gs_jw_bool(w, "counted_on_host", counted && k->on_host);
    gs_jw_str(w, "class", gs_work_class_name(k->cls));
    gs_jw_str(w, "words", counted ? k->words : k->why);
    gs_jw_str(w, "rule", k->rule);
    gs_jw_u64(w, "n", counted ? k->n : 0);
    gs_jw_u64(w, "grid", k->grid);
    gs_jw_u64(w, "block", k->block);
    if (counted) {
        gs_jw_u64(w, "min", k->min);
        gs_jw_u64(w, "max", k->max);
        gs_jw_u64(w, "total", k->total);
    } else {
        gs_jw_null(w, "min");
        gs_jw_null(w, "max");
        gs_jw_null(w, "total");
    }
    if (counted && k->first_repeated >= 0) {
        gs_jw_u64(w, "first_repeated", (uint64_t)k->first_repeated);
        gs_jw_u64(w, "repeated_count", k->repeated_count);
        gs_jw_u64(w, "first_writer", k->first_writer);
        gs_jw_u64(w, "last_writer", k->last_writer);
    } else {
        gs_jw_null(w, "first_repeated");
        gs_jw_null(w, "repeated_count");
        gs_jw_null(w, "first_writer");
        gs_jw_null(w, "last_writer");
    }
    gs_jw_end(w, "");
}

static void json_speed(struct gs_jw *w, const struct gs_speed *s)
{
    gs_jw_space(w, "\n      ");
    gs_jw_object(w, "speed");
    gs_jw_bool(w, "measured", s->measured);
    gs_jw_str(w, "class", gs_speed_class_name(s->cls));
    gs_jw_str(w, "words", s->words);
    gs_jw_str(w, "rule", s->rule);
    gs_jw_u64(w, "n", s->n);
    gs_jw_str(w, "size_rule", s->size_rule);
    gs_jw_int(w, "reps", GS_SPEED_REPS);
    gs_jw_int(w, "warmup", GS_SPEED_WARMUP);
    if (s->ratio > 0)
        gs_jw_fixed(w, "ratio", 4, s->ratio);
    else
        gs_jw_null(w, "ratio");
    if (s->min_speed > 0)
        gs_jw_fixed(w, "min_speed", 4, s->min_speed);
    else
        gs_jw_null(w, "min_speed");
    gs_jw_bool(w, "below_min_speed", s->below_min);
    gs_jw_space(w, "\n        ");
    gs_jw_object(w, "blocks");
    gs_jw_bool(w, "judged", s->blocks_judged);
    gs_jw_bool(w, "per_block", s->per_block);
    gs_jw_u64(w, "n", s->blocks_n ? s->blocks_n : s->n);
    if (s->blocks_judged) {
        gs_jw_fixed(w, "growth", 4, s->blocks_growth);
        gs_jw_fixed(w, "loop_growth", 4, s->loop_growth);
    } else {
        gs_jw_null(w, "growth");
        gs_jw_null(w, "loop_growth");
    }
    gs_jw_str(w, "words", s->blocks_words);
    gs_jw_str(w, "rule", s->blocks_rule);
    gs_jw_end(w, "");
    gs_jw_space(w, "\n        ");
    gs_jw_array(w, "rows");
    for (int i = 0; i < s->nrows; ++i) {
        const struct gs_speed_row *r = &s->rows[i];
        gs_jw_space(w, "\n          ");
        gs_jw_object(w, NULL);
        gs_jw_str(w, "kernel", who_name(r->who));
        gs_jw_u64(w, "n", r->n);
        gs_jw_u64(w, "grid", r->grid);
        gs_jw_u64(w, "block", r->block);
        gs_jw_u64(w, "bytes", r->bytes);
        gs_jw_str(w, "state", state_name(r->state));
        gs_jw_str(w, "why", r->why);
        if (r->state == GS_SPD_TIMED || r->state == GS_SPD_IMPOSSIBLE) {
            gs_jw_fixed(w, "median_ms", 6, r->med_ms);
            gs_jw_fixed(w, "min_ms", 6, r->min_ms);
            gs_jw_fixed(w, "max_ms", 6, r->max_ms);
            gs_jw_fixed(w, "spread_pct", 3, r->spread_pct);
            gs_jw_fixed(w, "gbps", 3, r->gbps);
        } else {
            gs_jw_null(w, "median_ms");
            gs_jw_null(w, "min_ms");
            gs_jw_null(w, "max_ms");
            gs_jw_null(w, "spread_pct");
            gs_jw_null(w, "gbps");
        }
        gs_jw_array(w, "samples_ms");
        for (int k = 0; k < r->nsamples; ++k)
            gs_jw_fixed(w, NULL, 6, r->samples_ms[k]);
        gs_jw_end(w, "");
        gs_jw_fixed(w, "wall_s", 3, r->wall_s);
        gs_jw_end(w, "");
    }
    gs_jw_end(w, s->nrows ? "\n        " : "");
    gs_jw_end(w, "");
}

static void launch_label(const struct gs_launch *l, char *buf, unsigned size)
{
    snprintf(buf, size, "<<<%llu, %llu>>>", (unsigned long long)l->grid,
             (unsigned long long)l->block);
}

/* One case in a few words: "ok", "short grid from 270336", "faulted". */
static void case_cell(const struct gs_check_case *c, char *buf, unsigned size)
{
    const struct gs_verdict *v = &c->verdict;
    const char *words = gs_check_class_words(c->cls);
    switch (c->cls) {
    case GS_CHECK_SHORT_GRID:
    case GS_CHECK_UNWRITTEN:
    case GS_CHECK_UNWRITTEN_TAIL:
    case GS_CHECK_INT_WRAP:
    case GS_CHECK_INDEX_WRAP:
    case GS_CHECK_WRONG_VALUE:
        snprintf(buf, size, "%s, from index %llu (%llu of %llu wrong)", words,
                 (unsigned long long)v->first_wrong, (unsigned long long)v->wrong,
                 (unsigned long long)v->n);
        break;
    case GS_CHECK_ACCUMULATES:
        snprintf(buf, size, "%s, from index %llu (%llu of %llu)", words,
                 (unsigned long long)v->first_accumulated, (unsigned long long)v->accumulated,
                 (unsigned long long)v->n);
        break;
    case GS_CHECK_PAST_END:
        snprintf(buf, size, "%s, at n + %llu", words, (unsigned long long)v->first_guard);
        break;
    case GS_CHECK_BEFORE_START:
        snprintf(buf, size, "%s, at index -%llu", words, (unsigned long long)v->front_nearest);
        break;
    case GS_CHECK_REFUSED:
        snprintf(buf, size, "%s: %s", words, c->got.api_error);
        break;
    default:
        snprintf(buf, size, "%s", words);
    }
}

/* Why a failing case failed, in full: the API's words, or the diagnosis. */
static void case_detail(const struct gs_check_case *c, char *buf, unsigned size)
{
    if (c->cls == GS_CHECK_FAULTED || c->cls == GS_CHECK_NOT_RUN ||
        c->cls == GS_CHECK_DID_NOT_FINISH)
        snprintf(buf, size, "%s", c->why);
    else if (c->cls == GS_CHECK_REFUSED)
        snprintf(buf, size, "%s (%ld): %s", c->got.api_error, c->got.api_code,
                 c->got.api_message);
    else
        gs_diagnosis(&c->verdict, buf, size);
}

/* The failing case of class `cls` with the smallest n, then T; -1 if none. */
static int smallest_of(const struct gs_check_run *r, enum gs_check_class cls)
{
    int best = -1;
    for (int i = 0; i < r->ncases; ++i) {
        const struct gs_check_case *c = &r->cases[i];
        if (c->cls != cls)
            continue;
        const struct gs_launch *b = best >= 0 ? &r->cases[best].launch : NULL;
        if (!b || c->launch.n < b->n || (c->launch.n == b->n && c->launch.global < b->global))
            best = i;
    }
    return best;
}

static void counts_text(const struct gs_check_run *r, char *buf, unsigned size)
{
    size_t len = (size_t)snprintf(buf, size, "%d of %d cases right", r->count[GS_CHECK_OK],
                                  r->ncases);
    for (int k = GS_CHECK_OK + 1; k < GS_CHECK_CLASSES && len < size; ++k)
        if (r->count[k])
            len += (size_t)snprintf(buf + len, size - len, ", %d %s", r->count[k],
                                    gs_check_class_words((enum gs_check_class)k));
}

/* ---- text ---------------------------------------------------------------- */

static void text_header(const struct gs_check_report_in *in, struct gs_str *o)
{
    char sig[240];
    gs_user_signature(in->src->dialect, in->src->entry, sig, sizeof sig);
    gs_str_printf(o, "gridstride %s check %s: kernel %s, %s\n", in->version, in->src->path,
                  in->src->entry, gs_dialect_name(in->src->dialect));
    gs_str_printf(o, "contract: %s\n  out[i] = a[i] + b[i], bit for bit, for every i < n, under any grid\n",
                  sig);
}

static void text_cases(const struct gs_check_run *r, struct gs_str *o)
{
    char cell[200], shape[64];
    const char *titles[] = {"on the device grid", "n = 611 under each launch shape",
                            "on a T4's grid (160 x 256, T = 40960)"};
    int section = -1;
    for (int i = 0; i < r->ncases; ++i) {
        const struct gs_check_case *c = &r->cases[i];
        if ((int)c->section != section) {
            section = (int)c->section;
            if (section == GS_CHK_T4 && r->t4_left_out[0])
                gs_str_printf(o, "    %s; on a CPU device up to n = T + 1, without n = %s "
                                 "(--sizes runs it here too):\n",
                              titles[section], r->t4_left_out);
            else if (section == GS_CHK_SIZES && r->sizes_added[0])
                gs_str_printf(o, "    %s: the seed's ten sizes, then %s:\n", titles[section],
                              r->sizes_added);
            else
                gs_str_printf(o, "    %s:\n", titles[section]);
        }
        launch_label(&c->launch, shape, sizeof shape);
        case_cell(c, cell, sizeof cell);
        const char *trap = gs_check_size_trap(c->launch.n);
        gs_str_printf(o, "    %12llu  %-22s %s%s%s%s\n", (unsigned long long)c->launch.n, shape,
                      cell, trap[0] ? " (" : "", trap, trap[0] ? ")" : "");
    }
}

static void text_failure(const struct gs_check_run *r, int i, const char *what,
                         struct gs_str *o)
{
    const struct gs_check_case *c = &r->cases[i];
    char shape[64], detail[700];
    launch_label(&c->launch, shape, sizeof shape);
    case_detail(c, detail, sizeof detail);
    gs_str_printf(o, "  %s: n = %llu under %s (T = %llu): %s\n    %s\n", what,
                  (unsigned long long)c->launch.n, shape, (unsigned long long)c->launch.global,
                  gs_check_class_words(c->cls), detail);
    if (c->verdict.listed && c->cls != GS_CHECK_REFUSED && c->cls != GS_CHECK_FAULTED &&
        c->cls != GS_CHECK_NOT_RUN && c->cls != GS_CHECK_DID_NOT_FINISH)
        gs_report_wrong_list(&c->verdict, c->launch.type, "    ", o);
}

static void text_run(const struct gs_check_run *r, int verbose, struct gs_str *o)
{
    const struct gs_device *d = r->dev;
    char counts[300], name[sizeof d->name * 4], platform[sizeof d->platform * 4],
        api[sizeof d->api_version * 4], compiler[sizeof r->build.compiler * 4];
    /* What a driver or a compiler reports, with control characters escaped. */
    gs_escape_controls(name, sizeof name, d->name);
    gs_escape_controls(platform, sizeof platform, d->platform);
    gs_escape_controls(api, sizeof api, d->api_version);
    gs_escape_controls(compiler, sizeof compiler, r->build.compiler);
    gs_str_printf(o, "\n%s  %s [%s]: %s, %s\n", d->backend->name, name, d->id, platform, api);
    gs_str_printf(o, "  built by %s\n", compiler);
    gs_str_printf(o, "  device grid G = %llu blocks x %u threads, T = %llu (%s)\n",
                  (unsigned long long)r->grid, r->block, (unsigned long long)r->threads,
                  r->grid_rule);
    text_cases(r, o);
    counts_text(r, counts, sizeof counts);
    gs_str_printf(o, "  %s\n", counts);
    if (r->smallest >= 0)
        text_failure(r, r->smallest, "smallest failing case", o);
    for (int k = GS_CHECK_OK + 1; k < GS_CHECK_NOT_RUN; ++k) {
        const int i = smallest_of(r, (enum gs_check_class)k);
        if (i >= 0 && i != r->smallest)
            text_failure(r, i, "smallest case of another class", o);
    }
    text_work(&r->work, o);
    text_speed(&r->speed, verbose, o);
    gs_counters_text(&r->counters, counters_why(r), verbose, o);
}

static void text_verdict(const struct gs_check_report_in *in, struct gs_str *o)
{
    int cases = 0;
    for (int i = 0; i < in->nruns; ++i)
        cases += in->runs[i].ncases;
    if (gs_check_all_ok(in->runs, in->nruns)) {
        gs_str_printf(o, "verdict: %s: all %d cases right on",
                      gs_check_too_slow(in->runs, in->nruns) ? "slow" : "ok", cases);
        for (int i = 0; i < in->nruns; ++i)
            gs_str_printf(o, "%s %s", i ? "," : "", in->runs[i].dev->backend->name);
        gs_str_printf(o, "\n");
        for (int i = 0; i < in->nruns; ++i)
            if (in->runs[i].work.cls == GS_WORK_BLOCK_STRIDE ||
                in->runs[i].work.cls == GS_WORK_REPEATED)
                gs_str_printf(o, "  %s: %s\n", in->runs[i].dev->backend->name,
                              in->runs[i].work.words);
        for (int i = 0; i < in->nruns; ++i)
            if (in->runs[i].work.cls == GS_WORK_NOT_COUNTED && in->runs[i].speed.per_block)
                gs_str_printf(o, "  %s: right, but %s\n", in->runs[i].dev->backend->name,
                              in->runs[i].speed.blocks_words);
        for (int i = 0; i < in->nruns; ++i)
            if (gs_counters_lesson(&in->runs[i].counters))
                gs_str_printf(o, "  %s: %s\n", in->runs[i].dev->backend->name,
                              in->runs[i].counters.words);
        for (int i = 0; i < in->nruns; ++i)
            if (in->runs[i].speed.measured)
                gs_str_printf(o, "  %s: %s%s\n", in->runs[i].dev->backend->name,
                              in->runs[i].speed.words,
                              in->runs[i].speed.below_min ? " (below --min-speed)" : "");
        return;
    }
    gs_str_printf(o, "verdict: wrong\n");
    for (int i = 0; i < in->nruns; ++i)
        if (in->runs[i].speed.cls == GS_SPEED_WRONG || in->runs[i].speed.cls == GS_SPEED_IMPOSSIBLE)
            gs_str_printf(o, "  %s: %s\n", in->runs[i].dev->backend->name, in->runs[i].speed.words);
    for (int i = 0; i < in->nruns; ++i) {
        const struct gs_check_run *r = &in->runs[i];
        if (r->smallest < 0)
            continue;
        const struct gs_check_case *c = &r->cases[r->smallest];
        char shape[64], cell[200];
        launch_label(&c->launch, shape, sizeof shape);
        case_cell(c, cell, sizeof cell);
        char detail[700];
        case_detail(c, detail, sizeof detail);
        gs_str_printf(o, "  %s: smallest failing case n = %llu under %s: %s\n"
                         "    cause: %s\n",
                      r->dev->backend->name, (unsigned long long)c->launch.n, shape, cell, detail);
    }
}

static void report_text(const struct gs_check_report_in *in, struct gs_str *o)
{
    /* The answer first, then the evidence that backs it. */
    text_verdict(in, o);
    for (int i = 0; i < in->nskipped; ++i)
        gs_str_printf(o, "  not run on %s: %s\n", in->skipped[i].backend, in->skipped[i].why);
    gs_str_printf(o, "\n");
    text_header(in, o);
    for (int i = 0; i < in->nruns; ++i)
        text_run(&in->runs[i], in->verbose, o);
    int ruled = 0; /* a judgement with a rule that --verbose prints */
    for (int i = 0; i < in->nruns; ++i)
        ruled |= in->runs[i].speed.measured || in->runs[i].counters.state == GS_CTRS_READ;
    if (ruled && !in->verbose)
        gs_str_printf(o, "\n--verbose adds the rule behind each judgement; docs/check.md explains "
                         "each line.\n");
}

/* ---- Markdown ------------------------------------------------------------ */

static void report_md(const struct gs_check_report_in *in, struct gs_str *o)
{
    char sig[240], cell[200], shape[64];
    gs_user_signature(in->src->dialect, in->src->entry, sig, sizeof sig);
    gs_str_printf(o, "# gridstride check `%s`\n\n- kernel: `%s` (%s)\n- contract: `%s`\n",
                  in->src->path, in->src->entry, gs_dialect_name(in->src->dialect), sig);
    gs_str_printf(o, "- commit: `%s`\n", gs_build_commit());
    gs_str_printf(o, "- verdict: **%s**\n", gs_check_verdict_name(in->runs, in->nruns));
    for (int i = 0; i < in->nskipped; ++i)
        gs_str_printf(o, "- not run on %s: %s\n", in->skipped[i].backend, in->skipped[i].why);
    for (int i = 0; i < in->nruns; ++i) {
        const struct gs_check_run *r = &in->runs[i];
        gs_str_printf(o, "\n## %s: %s\n\n- built by %s\n- G = %llu x %u, T = %llu (%s)\n\n",
                      r->dev->backend->name, r->dev->name, r->build.compiler,
                      (unsigned long long)r->grid, r->block, (unsigned long long)r->threads,
                      r->grid_rule);
        gs_str_printf(o, "| section | n | launch | result |\n|---|---:|---|---|\n");
        for (int k = 0; k < r->ncases; ++k) {
            const struct gs_check_case *c = &r->cases[k];
            launch_label(&c->launch, shape, sizeof shape);
            case_cell(c, cell, sizeof cell);
            const char *trap = gs_check_size_trap(c->launch.n);
            gs_str_printf(o, "| %s | %llu | `%s` | %s%s%s%s |\n", section_names[c->section],
                          (unsigned long long)c->launch.n, shape, cell, trap[0] ? " (" : "",
                          trap, trap[0] ? ")" : "");
        }
        if (r->sizes_added[0])
            gs_str_printf(o, "\nOn the device grid, after the seed's ten sizes: %s.\n",
                          r->sizes_added);
        if (r->t4_left_out[0])
            gs_str_printf(o, "\nOn a CPU device the T4's section runs up to n = T + 1, without "
                             "n = %s (`--sizes` runs it there too).\n",
                          r->t4_left_out);
        gs_str_printf(o, "\n- work: %s%s\n- speed: %s\n",
                      r->work.cls == GS_WORK_NOT_COUNTED ? r->work.why : r->work.words,
                      r->work.on_host ? " (counted on the host backend: a .gs text writes the "
                                        "same elements on every backend)" : "",
                      r->speed.words);
        if (r->speed.measured)
            gs_str_printf(o, "- blocks: %s\n", r->speed.blocks_words);
        gs_counters_md(&r->counters, counters_why(r), o);
        if (r->smallest >= 0) {
            struct gs_str part = {0};
            text_failure(r, r->smallest, "smallest failing case", &part);
            gs_str_printf(o, "\n```text\n%s```\n", part.data ? part.data : "");
            gs_str_free(&part);
        }
    }
}

/* ---- CSV ----------------------------------------------------------------- */

static void report_csv(const struct gs_check_report_in *in, struct gs_str *o)
{
    char detail[700];
    gs_str_printf(o, "file,entry,backend,device,compiler,G,T,section,n,grid,block,global,class,"
                     "first_wrong,wrong,unwritten,guard_hits,detail,smallest,work_class,"
                     "work_max,speed_class,speed_ratio,per_block,commit\n");
    for (int i = 0; i < in->nruns; ++i) {
        const struct gs_check_run *r = &in->runs[i];
        for (int k = 0; k < r->ncases; ++k) {
            const struct gs_check_case *c = &r->cases[k];
            const struct gs_verdict *v = &c->verdict;
            gs_csv_field(o, in->src->path);
            gs_csv_field(o, in->src->entry);
            gs_csv_field(o, r->dev->backend->name);
            gs_csv_field(o, r->dev->name);
            gs_csv_field(o, r->build.compiler);
            gs_str_printf(o, "%llu,%llu,%s,%llu,%llu,%llu,%llu,%s,%llu,%llu,%llu,%llu,",
                          (unsigned long long)r->grid, (unsigned long long)r->threads,
                          section_names[c->section], (unsigned long long)c->launch.n,
                          (unsigned long long)c->launch.grid, (unsigned long long)c->launch.block,
                          (unsigned long long)c->launch.global, gs_check_class_name(c->cls),
                          (unsigned long long)v->first_wrong, (unsigned long long)v->wrong,
                          (unsigned long long)v->unwritten, (unsigned long long)v->guard_hits);
            case_detail(c, detail, sizeof detail);
            gs_csv_field(o, c->cls == GS_CHECK_OK ? "" : detail);
            /* The backend's work and speed, on each of its rows. */
            gs_str_printf(o, "%d,%s,", k == r->smallest, gs_work_class_name(r->work.cls));
            if (r->work.cls != GS_WORK_NOT_COUNTED)
                gs_str_printf(o, "%u", r->work.max);
            gs_str_printf(o, ",%s,", gs_speed_class_name(r->speed.cls));
            if (r->speed.ratio > 0)
                gs_str_printf(o, "%.4f", r->speed.ratio);
            gs_str_printf(o, ",%s,", !r->speed.blocks_judged ? ""
                                     : r->speed.per_block ? "yes" : "no");
            gs_csv_last(o, gs_build_commit());
        }
    }
}

/* ---- JSON ---------------------------------------------------------------- */

static void json_case(struct gs_jw *w, const char *key, const struct gs_check_case *c)
{
    const struct gs_verdict *v = &c->verdict;
    char detail[700];
    gs_jw_object(w, key);
    gs_jw_str(w, "section", section_names[c->section]);
    gs_jw_u64(w, "n", c->launch.n);
    gs_jw_u64(w, "grid", c->launch.grid);
    gs_jw_u64(w, "block", c->launch.block);
    gs_jw_u64(w, "global", c->launch.global);
    gs_jw_str(w, "class", gs_check_class_name(c->cls));
    gs_jw_u64(w, "first_wrong", v->first_wrong);
    gs_jw_u64(w, "wrong", v->wrong);
    gs_jw_u64(w, "unwritten", v->unwritten);
    gs_jw_u64(w, "guard_hits", v->guard_hits);
    gs_jw_u64(w, "first_guard", v->first_guard);
    gs_jw_u64(w, "front_hits", v->front_hits);
    gs_jw_u64(w, "front_nearest", v->front_nearest);
    gs_jw_u64(w, "accumulated", v->accumulated);
    case_detail(c, detail, sizeof detail);
    gs_jw_str(w, "detail", c->cls == GS_CHECK_OK ? "" : detail);
    gs_json_wrong_list(w, v);
    gs_jw_end(w, "");
}

static void json_run(struct gs_jw *w, const struct gs_check_run *r)
{
    gs_jw_space(w, "\n    ");
    gs_jw_object(w, NULL);
    gs_json_device(w, r->dev);
    gs_jw_str(w, "compiler", r->build.compiler);
    gs_jw_str(w, "grid_rule", r->grid_rule);
    gs_jw_u64(w, "block", r->block);
    gs_jw_u64(w, "G", r->grid);
    gs_jw_u64(w, "T", r->threads);
    gs_jw_int(w, "cases_right", r->count[GS_CHECK_OK]);
    gs_jw_int(w, "cases", r->ncases);
    gs_jw_str(w, "t4_left_out", r->t4_left_out);
    gs_jw_str(w, "sizes_added", r->sizes_added);
    json_work(w, &r->work);
    json_speed(w, &r->speed);
    gs_counters_json(w, &r->counters, counters_why(r));
    gs_jw_object(w, "elapsed_s");
    gs_jw_fixed(w, "build", 3, r->elapsed.build_s);
    gs_jw_fixed(w, "cases", 3, r->elapsed.cases_s);
    gs_jw_fixed(w, "count", 3, r->elapsed.count_s);
    gs_jw_fixed(w, "speed", 3, r->elapsed.speed_s);
    gs_jw_fixed(w, "counters", 3, r->elapsed.counters_s);
    gs_jw_end(w, "");
    gs_jw_space(w, "\n      ");
    if (r->smallest >= 0)
        json_case(w, "smallest", &r->cases[r->smallest]);
    else
        gs_jw_null(w, "smallest");
    gs_jw_space(w, "\n      ");
    gs_jw_array(w, "results");
    for (int k = 0; k < r->ncases; ++k) {
        gs_jw_space(w, "\n        ");
        json_case(w, NULL, &r->cases[k]);
    }
    gs_jw_end(w, "\n      ");
    gs_jw_end(w, "");
}

static void report_json(const struct gs_check_report_in *in, struct gs_str *o)
{
    struct gs_jw w;
    const struct gs_run_info run = {in->version, in->command ? in->command : "",
                                    in->date ? in->date : "", in->toolkit ? in->toolkit : ""};
    gs_jw_init(&w, o);
    gs_report_header(&w, GS_CHECK_SCHEMA, GS_REPORT_SCHEMA_VERSION, "check", &run);
    gs_jw_space(&w, "\n  ");
    gs_jw_str(&w, "file", in->src->path);
    gs_jw_str(&w, "entry", in->src->entry);
    gs_jw_str(&w, "dialect", gs_dialect_name(in->src->dialect));
    gs_jw_str(&w, "verdict", gs_check_verdict_name(in->runs, in->nruns));
    gs_jw_str(&w, "class", gs_check_overall_class(in->runs, in->nruns));
    gs_jw_space(&w, "\n  ");
    gs_jw_array(&w, "skipped");
    for (int i = 0; i < in->nskipped; ++i) {
        gs_jw_object(&w, NULL);
        gs_jw_str(&w, "backend", in->skipped[i].backend);
        gs_jw_str(&w, "why", in->skipped[i].why);
        gs_jw_end(&w, "");
    }
    gs_jw_end(&w, "");
    gs_jw_space(&w, "\n  ");
    gs_jw_array(&w, "backends");
    for (int i = 0; i < in->nruns; ++i)
        json_run(&w, &in->runs[i]);
    gs_jw_end(&w, "\n  ");
    gs_jw_end(&w, "\n");
}

void gs_report_check(const struct gs_check_report_in *in, enum gs_format f, struct gs_str *out)
{
    static void (*const writers[])(const struct gs_check_report_in *, struct gs_str *) = {
        [GS_FMT_TEXT] = report_text,
        [GS_FMT_MD] = report_md,
        [GS_FMT_CSV] = report_csv,
        [GS_FMT_JSON] = report_json,
    };
    writers[(unsigned)f <= GS_FMT_JSON ? f : GS_FMT_TEXT](in, out);
}

const char *gs_check_overall_class(const struct gs_check_run *runs, int nruns)
{
    for (int i = 0; i < nruns; ++i)
        if (runs[i].smallest >= 0)
            return gs_check_class_name(runs[i].cases[runs[i].smallest].cls);
    for (int i = 0; i < nruns; ++i)
        if (runs[i].count[GS_CHECK_OK] != runs[i].ncases)
            return gs_check_class_name(GS_CHECK_NOT_RUN);
    /* Every case right: what the speed pass found. */
    for (int i = 0; i < nruns; ++i)
        if (runs[i].speed.cls == GS_SPEED_WRONG)
            return "timed-wrong";
    for (int i = 0; i < nruns; ++i)
        if (runs[i].speed.cls == GS_SPEED_IMPOSSIBLE)
            return "impossible-time";
    if (gs_check_too_slow(runs, nruns))
        return "slow";
    return gs_check_class_name(GS_CHECK_OK);
}

/* Each line of the log that names the file: path:LINE[:COL]: TEXT. */
static void json_diagnostics(struct gs_jw *w, const char *log, const char *path)
{
    const size_t plen = strlen(path);
    int n = 0;
    gs_jw_space(w, "\n  ");
    gs_jw_array(w, "diagnostics");
    for (const char *line = log; line && *line && n < 200;) {
        const char *end = strchr(line, '\n');
        const size_t len = end ? (size_t)(end - line) : strlen(line);
        for (const char *p = line; plen && p + plen < line + len; ++p) {
            if (strncmp(p, path, plen) != 0 || p[plen] != ':')
                continue;
            char *q = NULL;
            const unsigned long ln = strtoul(p + plen + 1, &q, 10);
            if (q == p + plen + 1 || *q != ':')
                continue;
            unsigned long col = 0;
            char *r = q;
            if (q[1] >= '0' && q[1] <= '9') {
                col = strtoul(q + 1, &r, 10);
                if (*r != ':')
                    r = q;
            }
            const char *text = r + 1;
            while (text < line + len && *text == ' ')
                ++text;
            char msg[600];
            snprintf(msg, sizeof msg, "%.*s", (int)(line + len - text), text);
            gs_jw_space(w, "\n    ");
            gs_jw_object(w, NULL);
            gs_jw_u64(w, "line", ln);
            gs_jw_u64(w, "column", col);
            gs_jw_str(w, "text", msg);
            gs_jw_end(w, "");
            ++n;
            break;
        }
        line = end ? end + 1 : NULL;
    }
    gs_jw_end(w, n ? "\n  " : "");
}

void gs_report_check_failure(const struct gs_check_failure_in *in, struct gs_str *o)
{
    const char *cls = gs_check_class_name(in->cls);
    struct gs_jw w;
    const struct gs_run_info run = {in->version, in->command ? in->command : "",
                                    in->date ? in->date : "", in->toolkit ? in->toolkit : ""};
    gs_jw_init(&w, o);
    gs_report_header(&w, GS_CHECK_SCHEMA, GS_REPORT_SCHEMA_VERSION, "check", &run);
    gs_jw_space(&w, "\n  ");
    gs_jw_str(&w, "file", in->src->path ? in->src->path : "");
    gs_jw_str(&w, "entry", in->src->entry ? in->src->entry : "");
    gs_jw_str(&w, "dialect", in->src->text ? gs_dialect_name(in->src->dialect) : "");
    gs_jw_str(&w, "verdict", cls);
    gs_jw_str(&w, "class", cls);
    gs_jw_str(&w, "message", in->message ? in->message : "");
    if (in->build && in->backend) {
        gs_jw_space(&w, "\n  ");
        gs_jw_str(&w, "backend", in->backend);
        gs_jw_str(&w, "compiler", in->build->compiler);
        json_diagnostics(&w, in->build->log, in->src->path ? in->src->path : "");
        gs_jw_space(&w, "\n  ");
        gs_jw_str(&w, "log", in->build->log ? in->build->log : "");
    }
    gs_jw_space(&w, "\n  ");
    gs_jw_array(&w, "skipped");
    gs_jw_end(&w, "");
    gs_jw_space(&w, "\n  ");
    gs_jw_array(&w, "backends");
    gs_jw_end(&w, "");
    gs_jw_end(&w, "\n");
}
