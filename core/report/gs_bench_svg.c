/* SPDX-License-Identifier: MIT */
/* The bandwidth benchmark's bar charts: GB/s per variant, one bar per
 * backend, readable when projected. The rows are grouped into lessons (the
 * API's copy; the vector adds; the copy access patterns; each kernel's
 * launch sizes), and a lesson is cut into charts of at most 12 bars (rows
 * x backends), two charts side by side, each about half of a 1920 x 1080
 * frame. Every chart has one scale, the same in all of them, and every bar
 * its value written beside it to three significant digits (never "0" for a
 * value that is not zero). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gs_bench_report.h"
#include "gs_format.h"
#include "gs_report_kit.h"

#define FONT "DejaVu Sans, Arial, sans-serif"
#define MAX_BARS 12
#define PANEL_W 940
#define PANEL_GAP 40
#define LEFT 20
#define LABEL_W 380
#define CHART_W 400
#define BAR_H 26
#define ROW_GAP 12
#define PANEL_HEAD 44
#define PANEL_FOOT 56

static double nice_step(double max)
{
    const double raw = max / 4, mag = pow(10, floor(log10(raw)));
    const double f = raw / mag;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

/* The lesson row k belongs to: its group, and within the launch sizes the
 * kernel (the label before ", grid"). */
static void lesson_of(const struct gs_bench_row *r, char *buf, size_t size)
{
    const char *grid = strstr(r->label, ", grid");
    if (r->group == GS_BG_WAVES && grid)
        snprintf(buf, size, "%d %.*s", (int)r->group, (int)(grid - r->label), r->label);
    else
        snprintf(buf, size, "%d", (int)r->group);
}

struct chart {
    int first, rows; /* rows of the benchmark */
    int part, parts; /* of its lesson */
};

/* The charts: each lesson cut into as few charts of at most MAX_BARS bars
 * as it needs, of rows as even as can be. */
static int charts_of(const struct gs_bench *b0, int nruns, struct chart *c, int max)
{
    const int per = MAX_BARS / nruns > 0 ? MAX_BARS / nruns : 1;
    int n = 0;
    for (int k = 0; k < b0->nrows;) {
        char a[96], b[96];
        int end = k + 1;
        lesson_of(&b0->rows[k], a, sizeof a);
        while (end < b0->nrows && (lesson_of(&b0->rows[end], b, sizeof b), strcmp(a, b) == 0))
            ++end;
        const int rows = end - k, parts = (rows + per - 1) / per;
        for (int p = 0, at = k; p < parts && n < max; ++p) {
            const int take = (rows - (at - k) + (parts - p) - 1) / (parts - p);
            c[n++] = (struct chart){at, take, p + 1, parts};
            at += take;
        }
        k = end;
    }
    return n;
}

static int panel_height(int rows, int nruns)
{
    return PANEL_HEAD + rows * (nruns * BAR_H + ROW_GAP) + PANEL_FOOT;
}

static void panel(struct gs_str *o, const struct gs_bench_report_in *in, const struct chart *c,
                  double axis_max, double step, int x0, int y0, int height)
{
    static const char *const colours[] = {"#1f6fb4", "#e8730c", "#2a9d3a", "#c0392b"};
    const struct gs_bench *b0 = in->runs[0];
    const struct gs_bench_row *r0 = &b0->rows[c->first];
    char title[160];
    const char *grid = strstr(r0->label, ", grid");
    if (r0->group == GS_BG_WAVES && grid)
        snprintf(title, sizeof title, "launch sizes: %.*s", (int)(grid - r0->label), r0->label);
    else
        snprintf(title, sizeof title, "%s", gs_bench_group_title(r0->group));
    if (c->parts > 1) {
        const size_t len = strlen(title);
        snprintf(title + len, sizeof title - len, " (%d of %d)", c->part, c->parts);
    }
    gs_str_printf(o, "<g transform=\"translate(%d %d)\">\n", x0, y0);
    gs_str_printf(o, "<rect width=\"%d\" height=\"%d\" fill=\"#f7f9fb\" stroke=\"#c9d3de\"/>\n",
                  PANEL_W, height);
    gs_svg_text(o, 14, 30, 22, "font-weight=\"bold\"", title);
    const int top = PANEL_HEAD, bottom = height - PANEL_FOOT;
    for (double v = 0; v <= axis_max + step / 2; v += step) {
        const double x = LABEL_W + CHART_W * v / axis_max;
        char num[32];
        snprintf(num, sizeof num, "%g", v);
        gs_str_printf(o, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#d5dbe2\"/>\n",
                      x, top - 4, x, bottom + 4);
        gs_svg_text(o, x, bottom + 24, 17, "text-anchor=\"middle\"", num);
    }
    gs_svg_text(o, LABEL_W + CHART_W / 2, bottom + 48, 17, "text-anchor=\"middle\"", "GB/s");
    int y = top;
    for (int k = c->first; k < c->first + c->rows; ++k, y += in->nruns * BAR_H + ROW_GAP) {
        const struct gs_bench_row *row = &b0->rows[k];
        char label[96];
        /* the lesson is in the title: the row says what differs */
        const char *at = strstr(row->label, ", grid");
        snprintf(label, sizeof label, "%s",
                 row->group == GS_BG_WAVES && at ? at + 2 : row->label);
        gs_svg_text(o, LABEL_W - 12, y + in->nruns * BAR_H / 2 + 6, 17, "text-anchor=\"end\"",
                    label);
        for (int i = 0; i < in->nruns; ++i) {
            const struct gs_bench_row *r = &in->runs[i]->rows[k];
            const int by = y + i * BAR_H;
            if (!r->verified) {
                gs_svg_text(o, LABEL_W + 6, by + BAR_H - 7, 17,
                            "fill=\"#c0392b\" font-weight=\"bold\"", "WRONG result: not timed");
                continue;
            }
            const double w = CHART_W * r->gbps / axis_max;
            char v[32];
            gs_report_rate(r->gbps, v, sizeof v);
            gs_str_printf(o, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>",
                          LABEL_W, by + 2, w > 1 ? w : 1, BAR_H - 4, colours[i % 4]);
            gs_svg_text(o, LABEL_W + (w > 1 ? w : 1) + 6, by + BAR_H - 7, 17, "", v);
        }
    }
    gs_str_printf(o, "</g>\n");
}

void gs_bench_svg(const struct gs_bench_report_in *in, struct gs_str *o)
{
    static const char *const colours[] = {"#1f6fb4", "#e8730c", "#2a9d3a", "#c0392b"};
    const struct gs_bench *b0 = in->runs[0];
    struct chart charts[GS_BENCH_MAX_ROWS];
    const int nc = charts_of(b0, in->nruns, charts, GS_BENCH_MAX_ROWS);
    double max = 0;
    for (int k = 0; k < b0->nrows; ++k)
        for (int i = 0; i < in->nruns; ++i)
            max = fmax(max, in->runs[i]->rows[k].verified ? in->runs[i]->rows[k].gbps : 0);
    if (max <= 0)
        max = 1;
    const double step = nice_step(max);
    const double axis_max = ceil(max / step) * step;
    /* the legend of the backends, in rows of two */
    const int top = 96 + ((in->nruns + 1) / 2) * 26;
    int height = top;
    for (int c = 0; c < nc; c += 2) {
        const int h0 = panel_height(charts[c].rows, in->nruns);
        const int h1 = c + 1 < nc ? panel_height(charts[c + 1].rows, in->nruns) : 0;
        height += (h0 > h1 ? h0 : h1) + PANEL_GAP / 2;
    }
    const int width = LEFT * 2 + PANEL_W * 2 + PANEL_GAP;

    gs_str_printf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                     "viewBox=\"0 0 %d %d\" font-family=\"%s\" role=\"img\">\n<title>Memory "
                     "bandwidth: the same bytes, moved different ways</title>\n<desc>GB/s of "
                     "each variant, one bar per API, in %d charts of at most %d bars, by lesson: "
                     "the API's copy, vector adds, copy access patterns, each kernel's launch "
                     "sizes; one scale for every chart; each value written beside its bar to "
                     "three significant digits</desc>\n",
                  width, height, width, height, FONT, nc, MAX_BARS);
    gs_str_printf(o, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    gs_svg_text(o, LEFT, 38, 28, "font-weight=\"bold\"",
                "Memory bandwidth: the same bytes, moved different ways");
    {
        char line[240];
        snprintf(line, sizeof line, "n = %llu %ss per buffer; GB/s = (bytes read + written) / "
                                    "median of %u timed launches; higher is better",
                 (unsigned long long)b0->n, gs_type_name(b0->type), b0->reps);
        gs_svg_text(o, LEFT, 68, 18, "", line);
    }
    for (int i = 0; i < in->nruns; ++i) {
        const int x = LEFT + (i % 2) * (PANEL_W + PANEL_GAP), y = 96 + (i / 2) * 26;
        struct gs_str who = {0};
        gs_str_printf(o, "<rect x=\"%d\" y=\"%d\" width=\"18\" height=\"18\" fill=\"%s\"/>", x,
                      y - 15, colours[i % 4]);
        gs_str_printf(&who, "%s: %s", in->runs[i]->dev->backend->name, in->runs[i]->dev->name);
        gs_svg_text(o, x + 26, y, 18, "", who.data ? who.data : "");
        if (who.failed)
            o->failed = 1;
        gs_str_free(&who);
    }
    int y = top;
    for (int c = 0; c < nc; c += 2) {
        const int h0 = panel_height(charts[c].rows, in->nruns);
        const int h1 = c + 1 < nc ? panel_height(charts[c + 1].rows, in->nruns) : 0;
        const int h = h0 > h1 ? h0 : h1;
        panel(o, in, &charts[c], axis_max, step, LEFT, y, h);
        if (c + 1 < nc)
            panel(o, in, &charts[c + 1], axis_max, step, LEFT + PANEL_W + PANEL_GAP, y, h);
        y += h + PANEL_GAP / 2;
    }
    gs_str_printf(o, "</svg>\n");
}
