/* SPDX-License-Identifier: MIT */
/* The bandwidth benchmark's bar chart: GB/s per variant, one bar per
 * backend, readable when projected. */
#include <math.h>
#include <stdio.h>

#include "gs_bench_report.h"
#include "gs_report_kit.h"

static double nice_step(double max)
{
    const double raw = max / 6, mag = pow(10, floor(log10(raw)));
    const double f = raw / mag;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

void gs_bench_svg(const struct gs_bench_report_in *in, struct gs_str *o)
{
    static const char *const colours[] = {"#1f6fb4", "#e8730c", "#2a9d3a", "#c0392b"};
    const struct gs_bench *b0 = in->runs[0];
    const int label_w = 380, chart_w = 760, bar_h = 18, gap = 10, top = 110;
    double max = 0;
    int groups = 0, prev = -1;
    for (int k = 0; k < b0->nrows; ++k) {
        groups += (int)b0->rows[k].group != prev;
        prev = (int)b0->rows[k].group;
        for (int i = 0; i < in->nruns; ++i)
            max = fmax(max, in->runs[i]->rows[k].verified ? in->runs[i]->rows[k].gbps : 0);
    }
    if (max <= 0)
        max = 1;
    const double step = nice_step(max);
    const double axis_max = ceil(max / step) * step;
    const int row_h = in->nruns * bar_h + gap;
    const int height = top + b0->nrows * row_h + groups * 30 + 80;
    const int width = label_w + chart_w + 120;

    gs_str_printf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                     "viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Arial, sans-serif\" "
                     "role=\"img\">\n<title>Memory bandwidth: the same bytes, moved different "
                     "ways</title>\n<desc>GB/s of each variant, one bar per API, in groups: the "
                     "API's copy, vector adds, copy access patterns, launch sizes; each value "
                     "written beside its bar to three significant digits</desc>\n",
                  width, height, width, height);
    gs_str_printf(o, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    gs_str_printf(o, "<text x=\"20\" y=\"34\" font-size=\"24\" font-weight=\"bold\">Memory bandwidth: "
                     "the same bytes, moved different ways</text>\n");
    gs_str_printf(o, "<text x=\"20\" y=\"60\" font-size=\"15\">n = %llu %ss per buffer; GB/s = "
                     "(bytes read + written) / median of %u timed launches; higher is better</text>\n",
                  (unsigned long long)b0->n, gs_type_name(b0->type), b0->reps);
    for (int i = 0; i < in->nruns; ++i) {
        const int x = 20 + i * 420;
        gs_str_printf(o, "<rect x=\"%d\" y=\"74\" width=\"16\" height=\"16\" fill=\"%s\"/>"
                         "<text x=\"%d\" y=\"88\" font-size=\"15\">",
                      x, colours[i % 4], x + 22);
        gs_str_xml(o, in->runs[i]->dev->backend->name);
        gs_str_printf(o, ": ");
        gs_str_xml(o, in->runs[i]->dev->name);
        gs_str_printf(o, "</text>\n");
    }
    /* grid lines and the axis */
    const int chart_h = height - top - 60;
    for (double v = 0; v <= axis_max + step / 2; v += step) {
        const double x = label_w + chart_w * v / axis_max;
        gs_str_printf(o, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#dddddd\"/>"
                         "<text x=\"%.1f\" y=\"%d\" font-size=\"14\" text-anchor=\"middle\">%.0f</text>\n",
                      x, top - 6, x, top + chart_h, x, top + chart_h + 20, v);
    }
    gs_str_printf(o, "<text x=\"%d\" y=\"%d\" font-size=\"16\" text-anchor=\"middle\">GB/s</text>\n",
                  label_w + chart_w / 2, top + chart_h + 44);
    int y = top;
    prev = -1;
    for (int k = 0; k < b0->nrows; ++k) {
        const struct gs_bench_row *r0 = &b0->rows[k];
        if ((int)r0->group != prev) {
            prev = (int)r0->group;
            y += 22;
            gs_str_printf(o, "<text x=\"20\" y=\"%d\" font-size=\"15\" font-weight=\"bold\" "
                             "fill=\"#444444\">%s</text>\n",
                          y - 4, gs_bench_group_title((enum gs_bench_group)prev));
            y += 8;
        }
        gs_str_printf(o, "<text x=\"%d\" y=\"%d\" font-size=\"15\" text-anchor=\"end\">",
                      label_w - 10, y + in->nruns * bar_h / 2 + 5);
        gs_str_xml(o, r0->label);
        gs_str_printf(o, "</text>\n");
        for (int i = 0; i < in->nruns; ++i) {
            const struct gs_bench_row *r = &in->runs[i]->rows[k];
            const int by = y + i * bar_h;
            if (!r->verified) {
                gs_str_printf(o, "<text x=\"%d\" y=\"%d\" font-size=\"13\" fill=\"#c0392b\">WRONG "
                                 "result: not timed</text>\n",
                              label_w + 4, by + bar_h - 5);
                continue;
            }
            const double w = chart_w * r->gbps / axis_max;
            char v[32];
            gs_report_rate(r->gbps, v, sizeof v);
            gs_str_printf(o, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>"
                             "<text x=\"%.1f\" y=\"%d\" font-size=\"13\">%s</text>\n",
                          label_w, by + 1, w, bar_h - 2, colours[i % 4], label_w + w + 4,
                          by + bar_h - 4, v);
        }
        y += row_h;
    }
    gs_str_printf(o, "</svg>\n");
}
