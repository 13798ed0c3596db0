/* SPDX-License-Identifier: MIT */
/* `gridstride bandwidth --spread`: when each compute unit (an SM) finishes
 * its share of one launch.
 *
 * The float4 grid-stride add runs at one wave (grid = G, every block
 * resident at once) and at 16 waves (grid = 16 G) in the timeline build
 * (core/device/gs_backend.h, struct gs_timeline): per unit, its first start, its
 * last warp's finish and its block count, from one device clock. A grid-
 * stride loop gives every block the same work, so at one wave every unit
 * gets an equal static share; if the units do not move bytes equally fast,
 * the first to finish sits idle until the last one ends. More waves let the
 * block scheduler hand blocks to the units that free up first.
 *
 * Each launch is verified like every other (output poisoned before, read
 * back and compared after); a wrong one ends that launch's repetitions and
 * gets no numbers. After one verified warm-up, `reps` launches are kept and
 * the one of median span is shown (the lower middle for an even count), with
 * every repetition's numbers beside it. Library code: nothing is printed. */
#ifndef GS_SPREAD_H
#define GS_SPREAD_H

#include "gs_backend.h"
#include "gs_str.h"
#include "gs_workspace.h"

#define GS_SPREAD_KERNEL GS_K_ADD_GS_F4
#define GS_SPREAD_DEFAULT_REPS 5u
#define GS_SPREAD_MAX_REPS 101u
#define GS_SPREAD_WAVES 16u  /* the second launch: 16 G blocks */
#define GS_SPREAD_LAUNCHES 2 /* one wave, then GS_SPREAD_WAVES */

/* One launch's timeline in numbers; times in microseconds after its first
 * start. */
struct gs_spread_stats {
    unsigned units;           /* compute units that ran at least one block */
    double span_us;           /* the last finish: the kernel's span */
    double first_finish_us;   /* the earliest unit's finish */
    double median_finish_us;  /* the median unit's finish (mean of the middle two for an
                                 even count) */
    double first_idle_us;     /* span - first finish: how long the first unit to finish
                                 had nothing left to do before the kernel ended */
    double median_idle_us;    /* span - median finish */
    double start_skew_us;     /* the last unit's first start: how long the launch took to
                                 reach every unit */
    unsigned blocks_min, blocks_max; /* blocks per unit */
    double clock_step_ns;     /* the smallest nonzero gap between two recorded times: the
                                 clock's resolution is at most this; 0 when none */
    double event_ms;          /* the API's own timer for the launch (events) */
};

/* The numbers of timeline t; order (t->nunits entries, or NULL) receives
 * t's unit indices by finish time, earliest first (by id on a tie). */
void gs_spread_stats_of(const struct gs_timeline *t, struct gs_spread_stats *s,
                        unsigned *order);

struct gs_spread_launch {
    unsigned waves;            /* grid = waves x G */
    struct gs_launch launch;   /* kernel, grid, block, n (no buffers) */
    unsigned made;             /* kept repetitions launched and verified */
    int verified;              /* every launch of this row computed the right result */
    char wrong[320];           /* else what was wrong; no numbers then */
    unsigned kept;             /* the repetition shown: median span */
    struct gs_spread_stats *rep; /* each kept repetition's numbers (made entries) */
    struct gs_spread_stats stats; /* rep[kept] */
    struct gs_timeline *timeline; /* rep[kept]'s record, units sorted by finish */
};

/* One device. */
struct gs_spread {
    struct gs_device *dev;
    int available;          /* 0: the device cannot record a timeline; why says so */
    char why[200];
    uint64_t n;             /* floats per buffer */
    unsigned block, reps;
    uint64_t grid;          /* G, one wave */
    char grid_rule[200];
    struct gs_spread_launch launch[GS_SPREAD_LAUNCHES];
    int wrong;              /* launches of this device that computed a wrong result */
};

struct gs_spread_plan {
    uint64_t n;     /* floats per buffer */
    unsigned block; /* 0: GS_DEFAULT_BLOCK */
    unsigned reps;  /* 0: GS_SPREAD_DEFAULT_REPS; at most GS_SPREAD_MAX_REPS */
    const struct gs_progress *progress; /* may be NULL */
};

/* The device's answer, without running anything: s->available and s->why
 * (gs_dev_timeline_check). */
void gs_spread_probe(struct gs_device *dev, struct gs_spread *s);

/* Run the plan on dev. A device that cannot record a timeline is no error:
 * s->available = 0 and s->why. Errors are API or environment failures, or
 * GS_USAGE for a block or grid the device refuses. Free with gs_spread_free. */
int gs_spread_run(struct gs_device *dev, const struct gs_spread_plan *p, struct gs_spread *s,
                  struct gs_err *e);
void gs_spread_free(struct gs_spread *s);

#endif
