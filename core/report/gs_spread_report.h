/* SPDX-License-Identifier: MIT */
/* Reports of `gridstride bandwidth --spread` (gs_spread.h): text and JSON
 * (gs_spread_report.c), and an SVG chart (gs_spread_svg.c), with the words
 * and numbers they share. Built into a gs_str; the CLI writes it. */
#ifndef GS_SPREAD_REPORT_H
#define GS_SPREAD_REPORT_H

#include <stddef.h>

#include "gs_format.h"
#include "gs_spread.h"

struct gs_spread_report_in {
    const struct gs_spread *const *runs; /* available or not */
    int nruns;
    const char *version;
    const char *command;
    const char *date;    /* UTC, ISO 8601; JSON only */
    const char *toolkit; /* JSON only */
    unsigned width;      /* text: the columns it is written to (0: any) */
};

/* GS_FMT_JSON, or text for any other format. */
void gs_spread_report(const struct gs_spread_report_in *in, enum gs_format f, struct gs_str *out);
/* Per device with data, each unit's finish time sorted, as a share of the
 * launch's span, for one wave and for 16 waves: readable when projected. */
void gs_spread_svg(const struct gs_spread_report_in *in, struct gs_str *out);

/* ---- shared by the reports and the chart (gs_spread_report.c) ---- */

/* part as a percentage of whole; 0 when whole is not positive. */
double gs_spread_pct(double part, double whole);
/* The first run that has numbers (its n, block and reps head the report);
 * NULL when none has. */
const struct gs_spread *gs_spread_first_measured(const struct gs_spread_report_in *in);
/* "1 wave (G)", "16 waves (16 G)". */
void gs_spread_launch_name(const struct gs_spread_launch *row, char *buf, size_t size);
/* What the two launches of one device show, in words, from their numbers;
 * empty when the first launch was not verified. */
void gs_spread_finding(const struct gs_spread *s, char *buf, size_t size);
/* "1.00 GiB", "64.0 MiB", "128.0 KiB". */
void gs_spread_human_bytes(uint64_t bytes, char *buf, size_t size);

#endif
