/* SPDX-License-Identifier: MIT */
/* The picture of `gridstride bandwidth --spread`: per device, a panel per
 * launch with a bar per compute unit, its finish as a share of the span. */
#include <stdio.h>

#include "gs_catalog.h"
#include "gs_report_kit.h"
#include "gs_spread_report.h"

/* Run i's device as reports name it. */
GS_DEFINE_RUN_LABEL(run_label, struct gs_spread_report_in, runs, nruns)

enum {
    SVG_W = 1400, SVG_LEFT = 110, SVG_PANEL_W = 560, SVG_GAP = 150, SVG_PANEL_H = 300,
    SVG_ROW_H = 470, SVG_TOP = 150
};

/* One launch's panel: a bar per unit, its finish as a share of the span,
 * sorted; the background above a bar is the unit's idle time. */
static void svg_panel(struct gs_str *o, const struct gs_spread_launch *row, int x0, int y0)
{
    char label[32];
    const int bottom = y0 + SVG_PANEL_H;
    gs_spread_launch_name(row, label, sizeof label);
    gs_str_printf(o, "<text x=\"%d\" y=\"%d\" font-size=\"19\" font-weight=\"bold\">%s: grid %llu"
                     "</text>\n", x0, y0 - 34, label, (unsigned long long)row->launch.grid);
    if (!row->verified) {
        gs_str_printf(o, "<text x=\"%d\" y=\"%d\" font-size=\"17\" fill=\"#c0392b\">WRONG "
                         "result: no timeline shown</text>\n", x0, y0 + 40);
        return;
    }
    const struct gs_spread_stats *st = &row->stats;
    const struct gs_timeline *t = row->timeline;
    char blocks[32];
    if (st->blocks_min == st->blocks_max)
        snprintf(blocks, sizeof blocks, "%u", st->blocks_min);
    else
        snprintf(blocks, sizeof blocks, "%u to %u", st->blocks_min, st->blocks_max);
    gs_str_printf(o, "<text x=\"%d\" y=\"%d\" font-size=\"16\">span %.1f \xc2\xb5s, %u SMs, "
                     "%s blocks each</text>\n",
                  x0, y0 - 12, st->span_us, st->units, blocks);
    gs_str_printf(o, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#f6c89f\"/>\n",
                  x0, y0, SVG_PANEL_W, SVG_PANEL_H);
    const double bw = (double)SVG_PANEL_W / t->nunits;
    const double span_ns = st->span_us * 1e3;
    for (unsigned u = 0; u < t->nunits; ++u) {
        const double f = span_ns > 0 ? (double)t->unit[u].end_ns / span_ns : 1.0;
        const double h = SVG_PANEL_H * (f > 1 ? 1 : f);
        gs_str_printf(o, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
                         "fill=\"#1f6fb4\"/>\n",
                      x0 + u * bw, bottom - h, bw > 2 ? bw - 0.5 : bw, h);
    }
    /* y axis: share of the span */
    for (int p = 0; p <= 100; p += 25) {
        const double y = bottom - SVG_PANEL_H * p / 100.0;
        gs_str_printf(o, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#555555\" "
                         "stroke-width=\"%s\"/><text x=\"%d\" y=\"%.1f\" font-size=\"16\" "
                         "text-anchor=\"end\">%d%%</text>\n",
                      x0 - 6, y, p == 0 ? x0 + SVG_PANEL_W : x0, y, p == 0 ? "1.5" : "1",
                      x0 - 10, y + 5, p);
    }
    gs_str_printf(o, "<text x=\"%d\" y=\"%d\" font-size=\"16\" text-anchor=\"middle\" "
                     "transform=\"rotate(-90 %d %d)\">finish, %% of span</text>\n",
                  x0 - 62, y0 + SVG_PANEL_H / 2, x0 - 62, y0 + SVG_PANEL_H / 2);
    /* x axis */
    gs_str_printf(o, "<text x=\"%d\" y=\"%d\" font-size=\"16\">1</text>"
                     "<text x=\"%d\" y=\"%d\" font-size=\"16\" text-anchor=\"end\">%u</text>\n"
                     "<text x=\"%d\" y=\"%d\" font-size=\"16\" text-anchor=\"middle\">units "
                     "(SMs), sorted by finish time</text>\n",
                  x0, bottom + 20, x0 + SVG_PANEL_W, bottom + 20, t->nunits,
                  x0 + SVG_PANEL_W / 2, bottom + 22);
    /* the median unit's finish, and the idle figures */
    const double ym = bottom - SVG_PANEL_H * (span_ns > 0 ? st->median_finish_us * 1e3 / span_ns : 1);
    gs_str_printf(o, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"black\" "
                     "stroke-width=\"2\" stroke-dasharray=\"8,5\"/>\n",
                  x0, ym, x0 + SVG_PANEL_W, ym);
    gs_str_printf(o, "<text x=\"%d\" y=\"%d\" font-size=\"17\">first SM idle %.1f \xc2\xb5s "
                     "(%.1f%%)</text>\n<text x=\"%d\" y=\"%d\" font-size=\"17\">median SM "
                     "idle %.1f \xc2\xb5s (%.1f%%): the dashed line</text>\n",
                  x0, bottom + 50, st->first_idle_us, gs_spread_pct(st->first_idle_us, st->span_us), x0,
                  bottom + 72, st->median_idle_us, gs_spread_pct(st->median_idle_us, st->span_us));
}

void gs_spread_svg(const struct gs_spread_report_in *in, struct gs_str *o)
{
    const struct gs_spread *m = gs_spread_first_measured(in);
    int rows = 0, notes = 0;
    char name[64], text[1200];
    for (int i = 0; i < in->nruns; ++i) {
        rows += in->runs[i]->available;
        notes += !in->runs[i]->available;
    }
    const int height = SVG_TOP + rows * SVG_ROW_H + notes * 26 + 40;
    gs_str_printf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                     "viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Arial, sans-serif\" "
                     "role=\"img\">\n",
                  SVG_W, height, SVG_W, height);
    gs_str_printf(o, "<title>When each SM finishes one launch: one wave against %u waves of a "
                     "grid-stride float4 add</title>\n<desc>", GS_SPREAD_WAVES);
    for (int i = 0; i < in->nruns; ++i) {
        const struct gs_spread *s = in->runs[i];
        run_label(in, i, name, sizeof name);
        gs_str_xml(o, name);
        gs_str_printf(o, " ");
        gs_str_xml(o, s->dev->name);
        gs_str_printf(o, ": ");
        if (!s->available) {
            gs_str_printf(o, "not available: ");
            gs_str_xml(o, s->why);
        } else {
            gs_spread_finding(s, text, sizeof text);
            gs_str_xml(o, text[0] ? text : "no verified launch");
        }
        gs_str_printf(o, "%s", i + 1 < in->nruns ? " " : "");
    }
    gs_str_printf(o, "</desc>\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    gs_str_printf(o, "<text x=\"20\" y=\"38\" font-size=\"26\" font-weight=\"bold\">When each SM "
                     "finishes: one wave against %u waves</text>\n", GS_SPREAD_WAVES);
    if (m) {
        char bytes[32];
        gs_spread_human_bytes(m->n * 4, bytes, sizeof bytes);
        gs_str_printf(o, "<text x=\"20\" y=\"66\" font-size=\"17\">grid-stride float4 add, %s "
                         "per buffer, block %u; one bar per SM, its last warp's finish as a "
                         "share of the kernel's span, sorted; launch of median span of %u</text>\n",
                      bytes, m->block, m->reps);
    }
    gs_str_printf(o, "<rect x=\"20\" y=\"80\" width=\"18\" height=\"18\" fill=\"#1f6fb4\"/>"
                     "<text x=\"46\" y=\"95\" font-size=\"17\">working</text>"
                     "<rect x=\"150\" y=\"80\" width=\"18\" height=\"18\" fill=\"#f6c89f\"/>"
                     "<text x=\"176\" y=\"95\" font-size=\"17\">idle: finished, waiting for the "
                     "last SM</text>\n");
    int y = SVG_TOP;
    for (int i = 0; i < in->nruns; ++i) {
        const struct gs_spread *s = in->runs[i];
        if (!s->available)
            continue;
        gs_str_printf(o, "<text x=\"20\" y=\"%d\" font-size=\"21\" font-weight=\"bold\">",
                      y - 8);
        gs_str_xml(o, run_label(in, i, name, sizeof name));
        gs_str_printf(o, ": ");
        gs_str_xml(o, s->dev->name);
        gs_str_printf(o, ", G = %llu</text>\n", (unsigned long long)s->grid);
        for (int k = 0; k < GS_SPREAD_LAUNCHES; ++k)
            svg_panel(o, &s->launch[k], SVG_LEFT + k * (SVG_PANEL_W + SVG_GAP), y + 70);
        y += SVG_ROW_H;
    }
    for (int i = 0; i < in->nruns; ++i) {
        const struct gs_spread *s = in->runs[i];
        if (s->available)
            continue;
        gs_str_printf(o, "<text x=\"20\" y=\"%d\" font-size=\"15\" fill=\"#444444\">", y);
        gs_str_xml(o, run_label(in, i, name, sizeof name));
        gs_str_printf(o, " (");
        gs_str_xml(o, s->dev->name);
        gs_str_printf(o, "): not available: ");
        gs_str_xml(o, s->why);
        gs_str_printf(o, "</text>\n");
        y += 26;
    }
    gs_str_printf(o, "</svg>\n");
}
