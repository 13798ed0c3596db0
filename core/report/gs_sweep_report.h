/* SPDX-License-Identifier: MIT */
/* Reports of `gridstride bandwidth --sweep` (gs_sweep.h): text, md, csv and
 * json (gs_sweep_report.c), and an SVG chart (gs_sweep_svg.c). Built into
 * a gs_str; the CLI writes it. */
#ifndef GS_SWEEP_REPORT_H
#define GS_SWEEP_REPORT_H

#include "gs_format.h"
#include "gs_sweep.h"

struct gs_sweep_report_in {
    const struct gs_sweep *const *runs;
    int nruns;
    const char *version;
    const char *command;
    const char *date;    /* UTC, ISO 8601; JSON only */
    const char *toolkit; /* what the suite was built with; JSON only */
    unsigned width;      /* text: the columns it is written to (0: any) */
};

void gs_sweep_report(const struct gs_sweep_report_in *in, enum gs_format f, struct gs_str *out);
/* Time per launch (log scale) against n (log2 scale): one line per variant
 * per API, readable when projected. */
void gs_sweep_svg(const struct gs_sweep_report_in *in, struct gs_str *out);

#endif
