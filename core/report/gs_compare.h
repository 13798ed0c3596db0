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

/* Room for a path of PATH_MAX bytes with each control character escaped
 * (gs_escape_controls: at most four bytes for one). */
#define GS_SHOWN_PATH (4 * 4096 + 1)

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

/* A bandwidth row more than this fraction below the first run's fails the
 * comparison (`compare --tolerance`). */
#define GS_COMPARE_TOLERANCE 0.10

struct gs_compare_options {
    double tolerance; /* 0: GS_COMPARE_TOLERANCE */
    int json;         /* the report as JSON (docs/schema/compare.schema.json), not text */
    const char *version, *command, *date, *toolkit; /* the JSON's header */
    unsigned width; /* text: the columns a line may take; the files' column groups go
                       side by side while they fit, else in as many runs as it takes
                       (0: all side by side) */
};

/* What the comparison found. As a CI gate it fails (exit 1) on not_held,
 * wrong, slow or changed; rows that differ between different devices whose
 * predictions held are the APIs' documented differences, reported, not
 * failed. The same device (backend, device name and driver) in two files
 * is a regression gate: any cell whose outcome changed fails. */
struct gs_compare_verdict {
    int differ;   /* rows whose outcomes differ between groups */
    int not_held; /* table cases that did not hold their own device's prediction */
    int wrong;    /* bandwidth rows wrong on some run */
    int slow;     /* bandwidth rows more than the tolerance below run 1 */
    int changed;  /* table cells whose outcome changed on the same device between files */
};

/* The comparison of files of one mode (GS_USAGE when modes differ), in
 * time linear in the cases: each case is indexed by its row and column. */
int gs_compare_run(const struct gs_compare_file *files, int nfiles,
                   const struct gs_compare_options *opt, struct gs_str *out,
                   struct gs_compare_verdict *v, struct gs_err *e);
/* gs_compare_run as text with the default tolerance; *differ as above. */
int gs_compare_report(const struct gs_compare_file *files, int nfiles, struct gs_str *out,
                      int *differ, struct gs_err *e);

#endif
