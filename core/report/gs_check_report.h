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
    const char *date;    /* UTC, ISO 8601, when the runs ended */
    const char *toolkit; /* the compilers and API headers it was built with */
    int verbose;         /* text: each rule and the speed pass's sizing in full */
};

/* The text report starts with its answer: the verdict, and for each device
 * that failed its smallest failing case and the one-line cause; then the
 * evidence (the cases, the wrong indices with the values found and
 * expected, the work, the speed, the counters). */
void gs_report_check(const struct gs_check_report_in *in, enum gs_format f, struct gs_str *out);

/* A run that judged no case: the file refused, bad usage, a compile error
 * (with the compiler's messages, and each line that names the file as a
 * diagnostic), a bad signature, no device. Always JSON: the same object as
 * gs_report_check's, with "verdict" and "class" the outcome, "message" the
 * one line, and no backends. */
struct gs_check_failure_in {
    const struct gs_user_source *src;
    enum gs_check_class cls;
    const char *message;
    const char *backend;               /* whose compiler refused, or NULL */
    const struct gs_build_info *build; /* its compiler and log, or NULL */
    const char *version;
    const char *command;
    const char *date;
    const char *toolkit;
};
void gs_report_check_failure(const struct gs_check_failure_in *in, struct gs_str *out);

/* The class of a whole run for graders: "ok", else the class of the first
 * failing backend's smallest failing case; with every case right, what the
 * speed pass found: "timed-wrong" (a timed output wrong), "impossible-time"
 * (under the floor), "slow" (below --min-speed). */
const char *gs_check_overall_class(const struct gs_check_run *runs, int nruns);

/* 1 when every case of every run is right, and no timed output was wrong or
 * impossibly fast (gs_speed.h). */
int gs_check_all_ok(const struct gs_check_run *runs, int nruns);
/* 1 when a run's speed is below --min-speed (exit 1, verdict "slow"). */
int gs_check_too_slow(const struct gs_check_run *runs, int nruns);
/* "ok", "wrong" (a case, or the timed output, wrong or impossibly fast) or "slow". */
const char *gs_check_verdict_name(const struct gs_check_run *runs, int nruns);

#endif
