/* SPDX-License-Identifier: MIT */
/* Reports of `gridstride check`: text, Markdown, CSV and JSON, built into a
 * gs_str that the CLI writes. Every format names the file, the entry, each
 * backend's device and compiler, every case's class, and for each failing
 * class its smallest case with the first wrong indices. */
#ifndef GS_CHECK_REPORT_H
#define GS_CHECK_REPORT_H

#include "gs_check.h"
#include "gs_report_kit.h"

/* A backend that ran no case, and why (no device, no compiler). */
struct gs_check_skip {
    const char *backend;
    char why[700];
};

struct gs_check_report_in {
    const struct gs_user_source *src;
    const struct gs_check_run *runs;
    int nruns;
    const struct gs_check_skip *skipped;
    int nskipped;
    const char *version;
    const char *command;
};

void gs_report_check(const struct gs_check_report_in *in, enum gs_format f, struct gs_str *out);

/* 1 when every case of every run is right. */
int gs_check_all_ok(const struct gs_check_run *runs, int nruns);

#endif
