/* SPDX-License-Identifier: MIT */
/* What the reports and the SVG chart of the bandwidth benchmark share
 * (gs_bench_report.c). The reports themselves are declared with the
 * engine, in gs_bench.h. */
#ifndef GS_BENCH_REPORT_H
#define GS_BENCH_REPORT_H

#include "gs_bench.h"

/* "ceiling", "vector add at G, same bytes", ...: a group's title. */
const char *gs_bench_group_title(enum gs_bench_group g);

#endif
