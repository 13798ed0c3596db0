/* SPDX-License-Identifier: MIT */
/* `gridstride lecture`: the lesson's engines, run once on the devices
 * present, rendered as one self-contained HTML deck (inline SVG and CSS, a
 * few lines of inline script for the arrow keys and for a layout check a
 * browser test reads; no network, no external font or script). Eight 16:9
 * slides of 1920 x 1080 CSS pixels, type of at least 28 px, a print
 * stylesheet of one slide a page, and a speaker's note per slide. Every
 * number on a slide is read off the results handed in here: nothing is
 * measured, and nothing printed, in this file. */
#ifndef GS_LECTURE_H
#define GS_LECTURE_H

#include "gs_bench.h"
#include "gs_pitfalls.h"
#include "gs_spread.h"
#include "gs_str.h"
#include "gs_sweep.h"
#include "gs_table.h"
#include "gs_trace.h"

/* The smallest type on a slide, in CSS pixels at 1920 x 1080. */
#define GS_LECTURE_MIN_PX 28
#define GS_LECTURE_SLIDES 8
/* Bars of the coalescing chart per device, and devices drawn: at most 12 bars. */
#define GS_LECTURE_BARS 4
#define GS_LECTURE_BAR_DEVICES 3
/* Devices one slide's merged results name. */
#define GS_LECTURE_MAX_DEVICES 32

/* One device's part of the lesson. A part that did not run says why in
 * its no_* string (empty when it ran). */
struct gs_lecture_device {
    struct gs_device *dev;
    char label[64]; /* how the slides name it: "opencl", "opencl [0:1]" (gs_lecture_label) */
    struct gs_table *table; /* the seed's sizes on the device's G */
    struct gs_table *t4;    /* the same with G = 160 (a T4's grid) */
    int has_trace;
    struct gs_trace trace;  /* seed 000's launch */
    char no_trace[700];
    int has_bench;
    struct gs_bench bench;  /* small buffers on a CPU device (bytes says) */
    uint64_t bench_bytes;   /* per buffer */
    char no_bench[700];
    int has_sweep;
    struct gs_sweep sweep;
    int has_spread;
    struct gs_spread spread; /* probed always; run where available */
    int has_pitfalls;
    struct gs_pitfalls pitfalls;
    char no_pitfalls[240];
    double seconds; /* wall time of this device's part */
};

/* The exercise: one run of `gridstride check` on the suite's example. */
struct gs_lecture_check {
    int ran;            /* the command was started */
    int code;           /* its exit code; -1 when it was stopped or did not exit */
    int timed_out;
    double seconds;
    char command[512];  /* as a user types it */
    char why[240];      /* when it did not run, or did not finish */
    char report[24576]; /* its standard output (cut at the size) */
};

struct gs_lecture_in {
    const struct gs_lecture_device *const *devs;
    int ndevs;
    const struct gs_trace_agreement *agree; /* per trace kernel (gs_trace_agree) */
    int agreed;
    const struct gs_lecture_check *check;
    const char *version, *command, *date;
    double seconds; /* the whole run, before rendering */
};

/* The deck. */
void gs_lecture_html(const struct gs_lecture_in *in, struct gs_str *out);

/* Each device's label: its backend, with its id when the run has another
 * device of that backend. */
void gs_lecture_label(struct gs_lecture_device *const *devs, int ndevs);

/* Release what gs_lecture_device holds (the engines' results). */
void gs_lecture_device_free(struct gs_lecture_device *d);

#endif
