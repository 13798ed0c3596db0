/* SPDX-License-Identifier: MIT */
/* Reports of the correctness table: text (the seed's table, side by side per
 * backend), Markdown, CSV and JSON. Every format carries each device's
 * metadata: backend, API and driver version, device name, compute units,
 * block size, G and T. Reports are built into a gs_str; the caller writes it. */
#ifndef GS_TABLE_REPORT_H
#define GS_TABLE_REPORT_H

#include "gs_format.h"
#include "gs_table.h"

struct gs_table_report_in {
    const struct gs_table *const *tables; /* one per device, all run with `plan` */
    int ntables;
    const struct gs_table_plan *plan;
    const char *version; /* gridstride's version */
    const char *command; /* the command line, recorded in the report */
    const char *date;    /* UTC, ISO 8601; JSON only (gs_results.h) */
    const char *toolkit; /* what the suite was built with; JSON only */
    /* Text only, for a terminal: colour the cells (ANSI: an expected wrong
     * result, a failed prediction and a refusal each in its own colour),
     * and the terminal's width in columns, under which the backends are
     * stacked instead of side by side (0: no limit). */
    int colour;
    unsigned width;
};

void gs_table_report(const struct gs_table_report_in *in, enum gs_format f, struct gs_str *out);

/* The text of one cell: "ok", "refused", "wrong@40960". */
void gs_table_case_cell(const struct gs_case *c, char *buf, unsigned size);

#endif
