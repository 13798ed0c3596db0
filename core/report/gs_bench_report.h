/* SPDX-License-Identifier: MIT */
/* Reports of the bandwidth benchmark (gs_bench.h): text, md, csv and json
 * (gs_bench_report.c), and an SVG chart (gs_bench_svg.c). Built into a
 * gs_str; the CLI writes it. */
#ifndef GS_BENCH_REPORT_H
#define GS_BENCH_REPORT_H

#include "gs_bench.h"
#include "gs_format.h"

struct gs_bench_report_in {
    const struct gs_bench *const *runs;
    int nruns;
    const char *version;
    const char *command;
    const char *date;    /* UTC, ISO 8601; JSON only (gs_results.h) */
    const char *toolkit; /* what the suite was built with; JSON only */
    unsigned width;      /* text: the columns it is written to (0: any) */
};

void gs_bench_report(const struct gs_bench_report_in *in, enum gs_format f, struct gs_str *out);
/* A bar chart of GB/s per variant, one bar per backend, readable when projected. */
void gs_bench_svg(const struct gs_bench_report_in *in, struct gs_str *out);

/* "ceiling", "vector add at G, same bytes", ...: a group's title, shared
 * by the reports and the chart. */
const char *gs_bench_group_title(enum gs_bench_group g);

#endif
