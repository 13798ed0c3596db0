/* SPDX-License-Identifier: MIT */
/* check's counters (core/run/gs_counters.h) in its reports: the table of
 * requests and sectors beside the suite's loop and the minimum, the verdict
 * in the lesson's words with its rule, and the JSON `counters` block. */
#ifndef GS_COUNTERS_REPORT_H
#define GS_COUNTERS_REPORT_H

#include "gs_counters.h"
#include "gs_report_kit.h"

/* The one line of a report: the words when read, else why not (`fallback`
 * when the pass left none: the device's API reads no counters). */
const char *gs_counters_line(const struct gs_counters *c, const char *fallback);
/* 1 when the counters say something the verdict repeats (a lesson). */
int gs_counters_lesson(const struct gs_counters *c);
/* Text: the table (when read) and the `counters:` line, two spaces in;
 * verbose: the rule too. */
void gs_counters_text(const struct gs_counters *c, const char *fallback, int verbose,
                      struct gs_str *o);
/* Markdown: `- counters: ...` and, when read, the table. */
void gs_counters_md(const struct gs_counters *c, const char *fallback, struct gs_str *o);
/* The JSON `counters` object of one backend's run. */
void gs_counters_json(struct gs_jw *w, const struct gs_counters *c, const char *fallback);

#endif
