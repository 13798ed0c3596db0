/* SPDX-License-Identifier: MIT */
/* Reports of the correctness table: text (the seed's table, side by side per
 * backend), Markdown, CSV and JSON. Every format carries each device's
 * metadata: backend, API and driver version, device name, compute units,
 * block size, G and T. Reports are built into a gs_str; the caller writes it. */
#ifndef GS_REPORT_H
#define GS_REPORT_H

#include "gs_format.h"
#include "gs_table.h"

struct gs_report_in {
    const struct gs_table *const *tables; /* one per device, all run with `plan` */
    int ntables;
    const struct gs_plan *plan;
    const char *version; /* gridstride's version */
    const char *command; /* the command line, recorded in the report */
    const char *date;    /* UTC, ISO 8601; JSON only (gs_results.h) */
    const char *toolkit; /* what the suite was built with; JSON only */
};

void gs_report_table(const struct gs_report_in *in, enum gs_format f, struct gs_str *out);

/* The text of one cell: "ok", "refused", "wrong@40960". */
void gs_case_cell(const struct gs_case *c, char *buf, unsigned size);

/* The grid probe's answer for d in one line (or why it was not probed). */
void gs_probe_line(const struct gs_device *d, char *buf, unsigned size);

/* "first_wrong_indices": [{index, block, thread, pass, ...}, ...] of a verdict. */
void gs_json_wrong_list(const struct gs_verdict *v, struct gs_str *o);
/* A device's "backend", "device", "id", "platform", "api_version",
 * "driver_version" and "arch" members, each followed by ", ". */
void gs_json_device(const struct gs_device *d, struct gs_str *o);
/* The first wrong indices of a verdict with the block, thread and pass that
 * should have written each: the course harness's listing, one line each. */
void gs_report_wrong_list(const struct gs_verdict *v, const char *indent, struct gs_str *o);

/* A case's "asked_grid"/"asked_block" (when the runtime chose another
 * launch) and "predicted": {outcome, first_wrong, wrong, rule}, then ", ". */
void gs_json_predicted(const struct gs_launch *l, const struct gs_prediction *p,
                       struct gs_str *o);

#endif
