/* SPDX-License-Identifier: MIT */
/* What the text, JSON and SVG reports of `bandwidth --spread` share: the
 * words and numbers they compute from a run (gs_spread_report.c). The
 * reports themselves are declared with the engine, in gs_spread.h. */
#ifndef GS_SPREAD_REPORT_H
#define GS_SPREAD_REPORT_H

#include <stddef.h>

#include "gs_spread.h"

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
