/* SPDX-License-Identifier: MIT */
/* Reports of `gridstride trace`: a compact strip per kernel for a terminal,
 * JSON, and the picture (SVG) for a lecture. Built into a gs_str; the CLI
 * writes it. */
#ifndef GS_TRACE_REPORT_H
#define GS_TRACE_REPORT_H

#include "gs_report_kit.h"
#include "gs_str.h"
#include "gs_trace.h"

struct gs_trace_report_in {
    const struct gs_trace *const *runs; /* one per device, all of one plan */
    int nruns;
    const struct gs_trace_agreement *agree; /* per kernel, from gs_trace_agree */
    int agreed;                             /* every kernel's maps are the same */
    const char *version;
    const char *command;
    const char *date;    /* UTC, ISO 8601 */
    const char *toolkit; /* the compilers and API headers of the build */
};

/* GS_FMT_TEXT or GS_FMT_JSON. */
void gs_trace_report(const struct gs_trace_report_in *in, enum gs_format f, struct gs_str *out);

/* The picture: one strip per kernel per API, the first warp's steps, a
 * legend, a caption and alt text. */
void gs_trace_svg(const struct gs_trace_report_in *in, struct gs_str *out);

/* The picture of a user's kernel from check's count of who writes what
 * (`check FILE.gs --svg FILE`): the same strip, legend and frame as
 * gs_trace_svg, drawn from each element's number of writers and its first
 * writer. The count records who wrote, not when: an element's pass is
 * derived as its rank among the elements its first writer wrote, in index
 * order, and the caption says so. count NULL: a frame that says why (`why`). */
struct gs_count_picture_in {
    const char *file, *entry; /* as shown (control characters escaped) */
    const char *checked_on;   /* the backend whose cases were right */
    const char *counted_on;   /* the backend that counted ("host") */
    uint64_t n, grid, block;  /* the counted launch */
    const uint32_t *count, *first; /* n each, or NULL */
    const char *words;        /* the count's verdict in the lesson's words, or why not */
    const char *version, *command, *date;
};
void gs_count_svg(const struct gs_count_picture_in *in, struct gs_str *out);

/* One sentence on what kernel k did, read off its recorded map, in the
 * words of seed 000's alt text ("thread 0 writes 0, 1024, 2048 and 3072").
 * `sep` groups thousands in numbers (",", or "" for plain digits). */
void gs_trace_sentence(const struct gs_trace_kernel *k, const char *sep, struct gs_str *out);

/* "n = 4096, <<<4, 256>>> (T = 1024)", and the kernel's parameter. */
void gs_trace_launch_words(const struct gs_launch *l, const char *sep, struct gs_str *out);

/* The first warp at one step in words: "elements 0-31, adjacent, 1 segment
 * of 128 bytes". */
void gs_trace_warp_words(const struct gs_warp_step *w, const char *sep, struct gs_str *out);

/* 1 when run r ran another launch than the first run that traced the same
 * kernel (a runtime's grant, gs_dev_grant): its maps were compared with the
 * model only, not with the other APIs'. */
int gs_trace_ran_other_launch(const struct gs_trace_report_in *in, int r);

/* v with `sep` between groups of three digits. */
const char *gs_trace_num(uint64_t v, const char *sep, char buf[32]);

#endif
