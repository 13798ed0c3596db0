/* SPDX-License-Identifier: MIT */
/* Reports of `gridstride pitfalls` in every format of the table. */
#ifndef GS_PITFALLS_REPORT_H
#define GS_PITFALLS_REPORT_H

#include "gs_pitfalls.h"
#include "gs_report_kit.h"
#include "gs_str.h"

struct gs_pitfalls_report_in {
    const struct gs_pitfalls *const *runs; /* one per device */
    int nruns;
    const char *version;
    const char *command;
    const char *date;    /* UTC, ISO 8601 */
    const char *toolkit; /* the compilers and API headers of the build */
};

void gs_pitfalls_report(const struct gs_pitfalls_report_in *in, enum gs_format f,
                        struct gs_str *out);

#endif
