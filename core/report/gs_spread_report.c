/* SPDX-License-Identifier: MIT */
/* Reports of `gridstride bandwidth --spread`: text and JSON (the SVG
 * chart: gs_spread_svg.c). Every sentence is computed from the recorded
 * numbers. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gs_catalog.h"
#include "gs_report_kit.h"
#include "gs_spread_report.h"

double gs_spread_pct(double part, double whole)
{
    return whole > 0 ? 100.0 * part / whole : 0.0;
}

/* The first run that has numbers (its n, block and reps head the report). */
const struct gs_spread *gs_spread_first_measured(const struct gs_spread_report_in *in)
{
    for (int i = 0; i < in->nruns; ++i)
        if (in->runs[i]->available)
            return in->runs[i];
    return NULL;
}

void gs_spread_launch_name(const struct gs_spread_launch *row, char *buf, size_t size)
{
    if (row->waves == 1)
        snprintf(buf, size, "1 wave (G)");
    else
        snprintf(buf, size, "%u waves (%u G)", row->waves, row->waves);
}

/* Text wrapped at `width` columns, each line starting with `indent`. */
static void wrapped(struct gs_str *o, const char *indent, const char *text, size_t width)
{
    size_t col = 0;
    const char *p = text;
    while (*p) {
        const char *sp = strchr(p, ' ');
        const size_t len = sp ? (size_t)(sp - p) : strlen(p);
        if (col == 0) {
            gs_str_printf(o, "%s", indent);
            col = strlen(indent);
        } else if (col + 1 + len > width) {
            gs_str_printf(o, "\n%s", indent);
            col = strlen(indent);
        } else {
            gs_str_printf(o, " ");
            col++;
        }
        gs_str_printf(o, "%.*s", (int)len, p);
        col += len;
        p += len;
        while (*p == ' ')
            ++p;
    }
    if (col)
        gs_str_printf(o, "\n");
}

/* What the two launches of one device show, in words, from their numbers. */
void gs_spread_finding(const struct gs_spread *s, char *buf, size_t size)
{
    const struct gs_spread_launch *one = &s->launch[0], *many = &s->launch[1];
    const struct gs_spread_stats *a = &one->stats, *b = &many->stats;
    size_t len = 0;
    buf[0] = '\0';
    if (!one->verified)
        return;
    if (a->blocks_min == a->blocks_max)
        len += (size_t)snprintf(buf + len, size - len,
                                "At one wave every unit ran %u blocks, yet the first to finish "
                                "had no work left for %.1f us of the %.1f us launch (%.1f%%), and "
                                "the median unit for %.1f us (%.1f%%): equal shares of the work, "
                                "unequal finish times.",
                                a->blocks_min, a->first_idle_us, a->span_us,
                                gs_spread_pct(a->first_idle_us, a->span_us), a->median_idle_us,
                                gs_spread_pct(a->median_idle_us, a->span_us));
    else
        len += (size_t)snprintf(buf + len, size - len,
                                "At one wave the units ran %u to %u blocks; the first to finish "
                                "had no work left for %.1f us of the %.1f us launch (%.1f%%), "
                                "and the median unit for %.1f us (%.1f%%).",
                                a->blocks_min, a->blocks_max, a->first_idle_us, a->span_us,
                                gs_spread_pct(a->first_idle_us, a->span_us), a->median_idle_us,
                                gs_spread_pct(a->median_idle_us, a->span_us));
    if (!many->verified || len >= size)
        return;
    snprintf(buf + len, size - len,
             " At %u waves, with %u to %u blocks per unit, the first unit idled %.1f us of the "
             "%.1f us launch (%.1f%%, against %.1f%% at one wave) and the median unit %.1f us "
             "(%.1f%%).",
             many->waves, b->blocks_min, b->blocks_max, b->first_idle_us, b->span_us,
             gs_spread_pct(b->first_idle_us, b->span_us),
             gs_spread_pct(a->first_idle_us, a->span_us),
             b->median_idle_us, gs_spread_pct(b->median_idle_us, b->span_us));
}

/* "1.00 GiB", "64.0 MiB", "128.0 KiB". */
void gs_spread_human_bytes(uint64_t bytes, char *buf, size_t size)
{
    if (bytes >= (1ull << 30))
        snprintf(buf, size, "%.2f GiB", (double)bytes / (1ull << 30));
    else if (bytes >= (1ull << 20))
        snprintf(buf, size, "%.1f MiB", (double)bytes / (1ull << 20));
    else
        snprintf(buf, size, "%.1f KiB", (double)bytes / (1ull << 10));
}

/* Notes on whether one wave was one wave of the instrumented kernel. */
static void residency_notes(const struct gs_spread *s, struct gs_str *o, const char *pre)
{
    const struct gs_spread_launch *one = &s->launch[0];
    const unsigned units = s->dev->compute_units;
    if (!one->verified || !one->timeline || !one->timeline->resident_per_unit || !units)
        return;
    const unsigned resident = one->timeline->resident_per_unit;
    if ((uint64_t)resident * units != s->grid)
        gs_str_printf(o, "%snote: the timeline build holds %u blocks per unit at once, so one "
                         "wave of it is %llu blocks, not G = %llu\n",
                      pre, resident, (unsigned long long)resident * units,
                      (unsigned long long)s->grid);
    if (one->stats.blocks_max > resident)
        gs_str_printf(o, "%snote: a unit ran %u blocks at one wave but holds %u at once: not "
                         "every block was resident from the start\n",
                      pre, one->stats.blocks_max, resident);
}

static void report_text(const struct gs_spread_report_in *in, struct gs_str *o)
{
    const struct gs_spread *m = gs_spread_first_measured(in);
    char label[32], text[1200], bytes[32];
    gs_str_printf(o, "gridstride %s bandwidth --spread: when each compute unit (an SM on NVIDIA) "
                     "finishes its share of one launch\n", in->version);
    if (m) {
        gs_spread_human_bytes(m->n * 4, bytes, sizeof bytes);
        snprintf(text, sizeof text,
                 "kernel %s (%s), n = %llu floats per buffer (%s), block %u. 1 wave: grid = G, "
                 "the blocks the device holds at once; %u waves: grid = %u G. Each: 1 warm-up, "
                 "then %u launches, every one verified; the launch of median span is shown. "
                 "Span: first start to last finish; idle: from a unit's last finish to the end "
                 "of the span; times from the device's clock.",
                 gs_kernel_info(GS_SPREAD_KERNEL)->symbol, gs_kernel_info(GS_SPREAD_KERNEL)->name,
                 (unsigned long long)m->n, bytes, m->block, GS_SPREAD_WAVES, GS_SPREAD_WAVES,
                 m->reps);
        wrapped(o, "", text, 100);
    }
    for (int i = 0; i < in->nruns; ++i) {
        const struct gs_spread *s = in->runs[i];
        const struct gs_device *d = s->dev;
        gs_str_printf(o, "\n%-7s %s [%s]", d->backend->name, d->name, d->id);
        if (!s->available) {
            gs_str_printf(o, ": not available: %s\n", s->why);
            continue;
        }
        gs_str_printf(o, ": %s, %s%s%s, %u compute units\n", d->platform, d->api_version,
                      d->driver_version[0] ? ", driver " : "", d->driver_version,
                      d->compute_units);
        gs_str_printf(o, "        G = %llu blocks (%s)\n", (unsigned long long)s->grid,
                      s->grid_rule);
        const struct gs_timeline *t = s->launch[0].timeline ? s->launch[0].timeline
                                                            : s->launch[1].timeline;
        if (t)
            gs_str_printf(o, "        clock: %s; smallest gap between two recorded times: %.0f ns\n",
                          t->clock, s->launch[0].timeline ? s->launch[0].stats.clock_step_ns
                                                          : s->launch[1].stats.clock_step_ns);
        gs_str_printf(o, "  %-16s %7s %6s %12s %10s %18s %18s %11s %10s\n", "launch", "grid",
                      "units", "blocks/unit", "span us", "first unit idle", "median unit idle",
                      "start skew", "event us");
        for (int k = 0; k < GS_SPREAD_LAUNCHES; ++k) {
            const struct gs_spread_launch *row = &s->launch[k];
            const struct gs_spread_stats *st = &row->stats;
            gs_spread_launch_name(row, label, sizeof label);
            if (!row->verified) {
                gs_str_printf(o, "  %-16s %7llu  WRONG: %s\n", label,
                              (unsigned long long)row->launch.grid, row->wrong);
                continue;
            }
            char blocks[24], first[32], median[32];
            snprintf(blocks, sizeof blocks, "%u..%u", st->blocks_min, st->blocks_max);
            snprintf(first, sizeof first, "%.1f (%.1f%%)", st->first_idle_us,
                     gs_spread_pct(st->first_idle_us, st->span_us));
            snprintf(median, sizeof median, "%.1f (%.1f%%)", st->median_idle_us,
                     gs_spread_pct(st->median_idle_us, st->span_us));
            gs_str_printf(o, "  %-16s %7llu %6u %12s %10.1f %18s %18s %11.1f %10.1f\n", label,
                          (unsigned long long)row->launch.grid, st->units, blocks, st->span_us,
                          first, median, st->start_skew_us, st->event_ms * 1e3);
        }
        for (int k = 0; k < GS_SPREAD_LAUNCHES; ++k) {
            const struct gs_spread_launch *row = &s->launch[k];
            double lo = 0, hi = 0;
            if (!row->verified)
                continue;
            for (unsigned r = 0; r < row->made; ++r) {
                lo = r ? fmin(lo, row->rep[r].first_idle_us) : row->rep[r].first_idle_us;
                hi = r ? fmax(hi, row->rep[r].first_idle_us) : row->rep[r].first_idle_us;
            }
            gs_spread_launch_name(row, label, sizeof label);
            gs_str_printf(o, "  %s: first unit idle over the %u launches %.1f..%.1f us (shown: "
                             "launch %u)\n", label, row->made, lo, hi, row->kept + 1);
        }
        residency_notes(s, o, "  ");
        gs_spread_finding(s, text, sizeof text);
        if (text[0])
            wrapped(o, "  ", text, 100);
    }
}

/* ---- JSON ----------------------------------------------------------------- */

static void json_stats(struct gs_jw *w, const char *key, const struct gs_spread_stats *st)
{
    gs_jw_object(w, key);
    gs_jw_u64(w, "units", st->units);
    gs_jw_fixed(w, "span_us", 3, st->span_us);
    gs_jw_fixed(w, "first_finish_us", 3, st->first_finish_us);
    gs_jw_fixed(w, "median_finish_us", 3, st->median_finish_us);
    gs_jw_fixed(w, "first_idle_us", 3, st->first_idle_us);
    gs_jw_fixed(w, "median_idle_us", 3, st->median_idle_us);
    gs_jw_fixed(w, "start_skew_us", 3, st->start_skew_us);
    gs_jw_u64(w, "blocks_min", st->blocks_min);
    gs_jw_u64(w, "blocks_max", st->blocks_max);
    gs_jw_fixed(w, "clock_step_ns", 0, st->clock_step_ns);
    gs_jw_fixed(w, "event_ms", 6, st->event_ms);
    gs_jw_end(w, "");
}

static void json_launch(struct gs_jw *w, const struct gs_spread_launch *row)
{
    gs_jw_space(w, "\n        ");
    gs_jw_object(w, NULL);
    gs_jw_u64(w, "waves", row->waves);
    gs_jw_u64(w, "grid", row->launch.grid);
    gs_jw_u64(w, "block", row->launch.block);
    gs_jw_u64(w, "n", row->launch.n);
    gs_jw_bool(w, "verified", row->verified);
    if (!row->verified) {
        gs_jw_str(w, "wrong", row->wrong);
        gs_jw_end(w, "");
        return;
    }
    const struct gs_timeline *t = row->timeline;
    gs_jw_u64(w, "reps", row->made);
    gs_jw_u64(w, "shown", row->kept + 1);
    gs_jw_u64(w, "resident_blocks_per_unit", t->resident_per_unit);
    gs_jw_space(w, "\n         ");
    json_stats(w, "stats", &row->stats);
    gs_jw_space(w, "\n         ");
    gs_jw_array(w, "each_rep");
    for (unsigned r = 0; r < row->made; ++r) {
        gs_jw_space(w, "\n           ");
        json_stats(w, NULL, &row->rep[r]);
    }
    gs_jw_end(w, "");
    /* The shown launch, unit by unit, in finish order, 16 to a line. */
    static const char *const members[] = {"finish_us", "start_us", "unit", "blocks"};
    for (int m = 0; m < 4; ++m) {
        gs_jw_space(w, "\n         ");
        gs_jw_array(w, members[m]);
        for (unsigned u = 0; u < t->nunits; ++u) {
            const struct gs_timeline_unit *x = &t->unit[u];
            if (u && u % 16 == 0)
                gs_jw_space(w, "\n           ");
            if (m == 0)
                gs_jw_fixed(w, NULL, 3, (double)x->end_ns / 1e3);
            else if (m == 1)
                gs_jw_fixed(w, NULL, 3, (double)x->start_ns / 1e3);
            else
                gs_jw_u64(w, NULL, m == 2 ? x->id : x->blocks);
        }
        gs_jw_end(w, "");
    }
    gs_jw_end(w, "");
}

static void report_json(const struct gs_spread_report_in *in, struct gs_str *o)
{
    const struct gs_run_info run = {in->version, in->command, in->date, in->toolkit};
    struct gs_jw w;
    gs_jw_init(&w, o);
    gs_results_header(&w, "bandwidth-spread", &run);
    gs_jw_space(&w, "\n  ");
    gs_jw_str(&w, "kernel", gs_kernel_info(GS_SPREAD_KERNEL)->name);
    gs_jw_str(&w, "time_unit", "microseconds after the launch's first start, by the device's "
                               "clock");
    gs_jw_space(&w, "\n  ");
    gs_jw_str(&w, "shown", "of the repetitions, the launch of median span (the lower middle for "
                           "an even count)");
    gs_jw_space(&w, "\n  ");
    gs_jw_array(&w, "runs");
    for (int i = 0; i < in->nruns; ++i) {
        const struct gs_spread *s = in->runs[i];
        gs_jw_space(&w, "\n    ");
        gs_jw_object(&w, NULL);
        gs_results_device(&w, s->dev);
        gs_jw_bool(&w, "available", s->available);
        if (!s->available) {
            gs_jw_str(&w, "not_available", s->why);
            gs_jw_end(&w, "");
            continue;
        }
        const struct gs_timeline *t = s->launch[0].timeline ? s->launch[0].timeline
                                                            : s->launch[1].timeline;
        gs_jw_u64(&w, "n", s->n);
        gs_jw_u64(&w, "block", s->block);
        gs_jw_u64(&w, "G", s->grid);
        gs_jw_str(&w, "grid_rule", s->grid_rule);
        gs_jw_str(&w, "clock", t ? t->clock : "");
        gs_jw_space(&w, "\n      ");
        gs_jw_array(&w, "launches");
        for (int k = 0; k < GS_SPREAD_LAUNCHES; ++k)
            json_launch(&w, &s->launch[k]);
        gs_jw_end(&w, "\n      ");
        gs_jw_end(&w, "");
    }
    gs_jw_end(&w, "\n  ");
    gs_jw_end(&w, "\n");
}

void gs_spread_report(const struct gs_spread_report_in *in, enum gs_format f, struct gs_str *out)
{
    if (f == GS_FMT_JSON)
        report_json(in, out);
    else
        report_text(in, out);
}
