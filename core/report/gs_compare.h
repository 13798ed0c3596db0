/* SPDX-License-Identifier: MIT */
/* `gridstride compare`: results files (gs_results.h) from any machine and
 * any version of the suite that writes the same schema, side by side.
 *
 * Table files: one column group per device, rows by size n, launch shape
 * and ragged NDRange; a row is flagged when two devices' outcomes differ
 * (one refuses what another runs, one is wrong where another is not).
 * Bandwidth files: one group per run, rows by variant, GB/s and the ratio
 * to the first run that has the row; flagged when a row verified on one
 * run and was wrong on another. */
#ifndef GS_COMPARE_H
#define GS_COMPARE_H

#include "gs_json_read.h"
#include "gs_str.h"

struct gs_compare_file {
    const char *path;
    struct gs_json *root;
    const char *mode; /* "table" or "bandwidth", inside root */
};

/* Read and check one file: GS_IO when it cannot be read, GS_USAGE when it
 * is not JSON, has an unknown schema or lacks a member the comparison
 * needs; e says which, and where, in one line. */
int gs_compare_load(const char *path, struct gs_compare_file *f, struct gs_err *e);
void gs_compare_free(struct gs_compare_file *f);

/* The comparison of files of one mode (GS_USAGE when modes differ).
 * *differ counts the rows whose outcomes differ. */
int gs_compare_report(const struct gs_compare_file *files, int nfiles, struct gs_str *out,
                      int *differ, struct gs_err *e);

#endif
