/* SPDX-License-Identifier: MIT */
/* The chart of `gridstride bandwidth --sweep`: microseconds per launch (log
 * scale) against n (log2 scale), one line per variant per API: the colour
 * names the variant, the dash and the marker the API. A dotted vertical
 * line marks each API's crossover of the grid-stride loop on G. Large type
 * and thick lines, for a projector. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gs_format.h"
#include "gs_report_kit.h"
#include "gs_sweep_report.h"

#define FONT "DejaVu Sans, Arial, Helvetica, sans-serif"
#define WIDTH 1480.0
#define HEIGHT 790.0
#define PLOT_X 120.0 /* the plot's left edge */
#define PLOT_Y 120.0 /* its top */
#define PLOT_W 860.0
#define PLOT_H 560.0
#define LEGEND_X (PLOT_X + PLOT_W + 40.0)

static const char *const colours[GS_SWEEP_VARIANTS] = {"#1f6fb4", "#e8730c", "#2a9d3a"};
/* Monolithic wide and drawn first: where the fitted grid runs the same
 * launch (ceil(n/B) <= G), its line shows inside monolithic's band. */
static const double widths[GS_SWEEP_VARIANTS] = {8, 3.5, 3.5};
static const char *const dashes[] = {"", "12 7", "3 6", "14 5 3 5"};
#define STYLES (sizeof dashes / sizeof dashes[0])

struct axes {
    double x_lo, x_hi; /* log2 n */
    double y_lo, y_hi; /* log10 us */
};

static double log2_of(uint64_t n)
{
    return log2((double)n);
}

static double px(const struct axes *a, uint64_t n)
{
    return PLOT_X + PLOT_W * (log2_of(n) - a->x_lo) / (a->x_hi - a->x_lo);
}

static double py(const struct axes *a, double us)
{
    return PLOT_Y + PLOT_H * (a->y_hi - log10(us)) / (a->y_hi - a->y_lo);
}

/* Whole decades around every verified median; whole powers of two across n. */
static void find_axes(const struct gs_sweep_report_in *in, struct axes *a)
{
    double lo = INFINITY, hi = 0;
    uint64_t top = 0;
    for (int i = 0; i < in->nruns; ++i) {
        const struct gs_sweep *s = in->runs[i];
        for (int k = 0; k < s->nsizes; ++k)
            for (int v = 0; v < GS_SWEEP_VARIANTS; ++v)
                if (s->pts[k][v].verified && s->pts[k][v].med_us > 0) {
                    lo = fmin(lo, s->pts[k][v].med_us);
                    hi = fmax(hi, s->pts[k][v].med_us);
                }
        if (s->nsizes && s->n[s->nsizes - 1] > top)
            top = s->n[s->nsizes - 1];
    }
    if (!(hi > 0))
        lo = hi = 1;
    a->y_lo = floor(log10(lo));
    a->y_hi = ceil(log10(hi));
    if (a->y_hi <= a->y_lo)
        a->y_hi = a->y_lo + 1;
    a->x_lo = GS_SWEEP_MIN_LOG2;
    a->x_hi = top > (1ull << GS_SWEEP_MIN_LOG2) ? log2_of(top) : GS_SWEEP_MIN_LOG2 + 1;
}

static void decade_label(double us, char *buf, size_t size)
{
    snprintf(buf, size, us >= 1 ? "%.0f" : "%g", us);
}

static void y_axis(const struct axes *a, struct gs_str *o)
{
    char label[32];
    for (double d = a->y_lo; d <= a->y_hi + 1e-9; d += 1) {
        for (int m = 1; m <= 9; ++m) {
            const double us = (double)m * pow(10, d), y = py(a, us);
            if (log10(us) > a->y_hi + 1e-9)
                break;
            gs_str_printf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                             "stroke=\"%s\"/>\n",
                          PLOT_X, y, PLOT_X + PLOT_W, y, m == 1 ? "#bbbbbb" : "#eeeeee");
            if (m != 1 && m != 2 && m != 5)
                continue;
            decade_label(us, label, sizeof label);
            gs_svg_text(o, PLOT_X - 10, y + 6, m == 1 ? 18 : 14,
                    m == 1 ? "text-anchor=\"end\"" : "text-anchor=\"end\" fill=\"#777777\"",
                    label);
        }
    }
    gs_str_printf(o, "<text x=\"34\" y=\"%.1f\" font-size=\"19\" text-anchor=\"middle\" "
                     "transform=\"rotate(-90 34 %.1f)\">microseconds per launch (median, log "
                     "scale); lower is better</text>\n",
                  PLOT_Y + PLOT_H / 2, PLOT_Y + PLOT_H / 2);
}

static void x_axis(const struct axes *a, struct gs_str *o)
{
    const int lo = (int)a->x_lo, hi = (int)a->x_hi, step = hi - lo > 10 ? 2 : 1;
    for (int k = lo; k <= hi; ++k) {
        const double x = px(a, 1ull << k);
        gs_str_printf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
                      x, PLOT_Y, x, PLOT_Y + PLOT_H, (k - lo) % step ? "#eeeeee" : "#bbbbbb");
        if ((k - lo) % step)
            continue;
        gs_str_printf(o, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"18\" text-anchor=\"middle\">"
                         "2<tspan dy=\"-8\" font-size=\"13\">%d</tspan></text>\n",
                      x, PLOT_Y + PLOT_H + 28, k);
    }
    gs_svg_text(o, PLOT_X + PLOT_W / 2, PLOT_Y + PLOT_H + 62, 19, "text-anchor=\"middle\"",
            "n, floats per buffer (log2 scale)");
}

/* Run r's marker at (x, y), half-size s (larger for monolithic). */
static void marker(struct gs_str *o, int r, double x, double y, double s, const char *colour)
{
    switch (r % 4) {
    case 0:
        gs_str_printf(o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"/>\n", x, y, s,
                      colour);
        break;
    case 1:
        gs_str_printf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                         "fill=\"white\" stroke=\"%s\" stroke-width=\"2.5\"/>\n",
                      x - s, y - s, 2 * s, 2 * s, colour);
        break;
    case 2:
        gs_str_printf(o, "<path d=\"M %.1f %.1f l %.1f %.1f l %.1f %.1f l %.1f %.1f z\" "
                         "fill=\"%s\"/>\n",
                      x, y - s, s, s, -s, s, -s, -s, colour);
        break;
    default:
        gs_str_printf(o, "<path d=\"M %.1f %.1f l %.1f %.1f l %.1f 0 z\" fill=\"white\" "
                         "stroke=\"%s\" stroke-width=\"2.5\"/>\n",
                      x, y - s, s, 1.7 * s, -2 * s, colour);
    }
}

static double marker_size(enum gs_sweep_variant v)
{
    return v == GS_SV_MONO ? 8.5 : 5.5;
}

/* A variant's line, broken where a point is missing (WRONG), and its markers. */
static void variant_line(const struct axes *a, const struct gs_sweep *s, int r,
                         enum gs_sweep_variant v, struct gs_str *o)
{
    const char *dash = dashes[r % STYLES];
    int open = 0;
    for (int k = 0; k < s->nsizes; ++k) {
        const struct gs_sweep_point *p = &s->pts[k][v];
        if (!p->verified || !(p->med_us > 0)) {
            gs_str_printf(o, "%s", open ? "\"/>\n" : "");
            open = 0;
            continue;
        }
        const double x = px(a, s->n[k]), y = py(a, p->med_us);
        if (open)
            gs_str_printf(o, " L %.1f %.1f", x, y);
        else
            gs_str_printf(o, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\"%s%s%s "
                             "d=\"M %.1f %.1f",
                          colours[v], widths[v], dash[0] ? " stroke-dasharray=\"" : "", dash,
                          dash[0] ? "\"" : "", x, y);
        open = 1;
    }
    gs_str_printf(o, "%s", open ? "\"/>\n" : "");
    for (int k = 0; k < s->nsizes; ++k) {
        const struct gs_sweep_point *p = &s->pts[k][v];
        if (p->verified && p->med_us > 0)
            marker(o, r, px(a, s->n[k]), py(a, p->med_us), marker_size(v), colours[v]);
    }
}

/* Run r's crossover of the grid-stride loop on G, where there is one
 * inside the sweep: a dotted line and "cuda: 2^17". */
static void crossover_mark(const struct axes *a, const struct gs_sweep *s, int r,
                           const char *who, struct gs_str *o)
{
    const struct gs_crossover x = s->xo[GS_SV_GS_G];
    char label[96];
    if (x.kind != GS_XO_FOUND || x.index == 0)
        return;
    const double at = px(a, s->n[x.index]);
    gs_str_printf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                     "stroke-width=\"2\" stroke-dasharray=\"2 5\"/>\n",
                  at, PLOT_Y, at, PLOT_Y + PLOT_H, colours[GS_SV_GS_G]);
    snprintf(label, sizeof label, "%s: G within %.0f%% from 2^%.0f", who,
             GS_SWEEP_TOLERANCE * 100, log2_of(s->n[x.index]));
    gs_svg_text(o, at + 6, PLOT_Y + 22 + 22 * r, 15, "fill=\"#444444\"", label);
}

/* Run r's device as reports name it. */
GS_DEFINE_RUN_LABEL(run_label, struct gs_sweep_report_in, runs, nruns)

static void legend(const struct gs_sweep_report_in *in, struct gs_str *o)
{
    double y = PLOT_Y + 10;
    char who[64], name[64];
    for (int r = 0; r < in->nruns; ++r) {
        const struct gs_sweep *s = in->runs[r];
        run_label(in, r, who, sizeof who);
        gs_svg_text(o, LEGEND_X, y, 18, "font-weight=\"bold\"", who);
        snprintf(name, sizeof name, "%.52s%s", s->dev->name, strlen(s->dev->name) > 52 ? "..." : "");
        gs_svg_text(o, LEGEND_X, y + 22, 14, "fill=\"#444444\"", name);
        y += 34;
        for (int v = 0; v < GS_SWEEP_VARIANTS; ++v) {
            const char *dash = dashes[r % STYLES];
            y += 28;
            gs_str_printf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                             "stroke-width=\"%.1f\"%s%s%s/>\n",
                          LEGEND_X, y - 6, LEGEND_X + 56, y - 6, colours[v], widths[v],
                          dash[0] ? " stroke-dasharray=\"" : "", dash, dash[0] ? "\"" : "");
            marker(o, r, LEGEND_X + 28, y - 6, marker_size((enum gs_sweep_variant)v), colours[v]);
            gs_svg_text(o, LEGEND_X + 68, y, 16, "", gs_sweep_variant_label((enum gs_sweep_variant)v));
        }
        /* Where two lines are one launch, the picture says so. */
        const int same = gs_sweep_same_launch_from(s);
        if (same >= 0) {
            char note[96];
            snprintf(note, sizeof note, "G and min(G, ceil(n/B)): the same launch from 2^%.0f:",
                     log2_of(s->n[same]));
            y += 26;
            gs_svg_text(o, LEGEND_X, y, 15, "fill=\"#444444\"", note);
            y += 20;
            gs_svg_text(o, LEGEND_X, y, 15, "fill=\"#444444\"",
                        "their lines coincide there, but for noise (fit over G)");
        }
        y += 34;
    }
}

void gs_sweep_svg(const struct gs_sweep_report_in *in, struct gs_str *o)
{
    struct axes a;
    char line[300], who[64];
    if (in->nruns == 0)
        return;
    find_axes(in, &a);
    gs_str_printf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                     "viewBox=\"0 0 %.0f %.0f\" font-family=\"%s\">\n",
                  WIDTH, HEIGHT, WIDTH, HEIGHT, FONT);
    gs_str_printf(o, "<title>Microseconds per launch of one vector add against n, monolithic and "
                     "grid-stride</title>\n<desc>Median microseconds per launch (log scale) "
                     "against n (log2 scale), one line per variant per API; where the two "
                     "grid-stride launches are the same launch their lines coincide, as the "
                     "legend says</desc>\n");
    gs_str_printf(o, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    gs_svg_text(o, 20, 38, 26, "font-weight=\"bold\"",
            "The cost of the grid-stride loop at small n");
    snprintf(line, sizeof line,
             "one vector add per launch, B = %u threads per block, G = the device grid; each "
             "point verified, then the median of %u launches timed by the API's device timer",
             in->runs[0]->block, in->runs[0]->reps);
    gs_svg_text(o, 20, 68, 17, "", line);
    gs_str_printf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
                     "stroke=\"#888888\"/>\n",
                  PLOT_X, PLOT_Y, PLOT_W, PLOT_H);
    y_axis(&a, o);
    x_axis(&a, o);
    /* every API's monolithic band first, the grid-stride lines over them */
    for (int v = 0; v < GS_SWEEP_VARIANTS; ++v)
        for (int r = 0; r < in->nruns; ++r)
            variant_line(&a, in->runs[r], r, (enum gs_sweep_variant)v, o);
    for (int r = 0; r < in->nruns; ++r)
        crossover_mark(&a, in->runs[r], r, run_label(in, r, who, sizeof who), o);
    legend(in, o);
    gs_str_printf(o, "</svg>\n");
}
