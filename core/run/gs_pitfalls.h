/* SPDX-License-Identifier: MIT */
/* The pitfalls: the traps of the course's pages (the essay's "dirty detail",
 * the day-8 page's "Pitfalls"), each a kernel of kernels/gs_pitfalls.h run where it
 * bites, predicted exactly, launched where that is safe, and verified
 * element by element: the values against the closed form, and, through the
 * count build, how many times each element was written against the model. */
#ifndef GS_PITFALLS_H
#define GS_PITFALLS_H

#include "gs_model.h"
#include "gs_workspace.h"

#define GS_TRAP_LIST(X)                                                                        \
    X(BLOCK_STRIDE, "block-stride")                                                            \
    X(STRIDE32, "stride-32bit")                                                                \
    X(INDEX32, "index-32bit")                                                                  \
    X(INT_LOOP, "int-loop")                                                                    \
    X(BLOCK_COUNT, "int-block-count")                                                          \
    X(Y_GRID, "y-grid")                                                                        \
    X(TILE, "tile-loop")                                                                       \
    X(EARLY_RETURN, "early-return")

enum gs_trap {
#define GS_TRAP_ENUM(id, name) GS_TRAP_##id,
    GS_TRAP_LIST(GS_TRAP_ENUM)
#undef GS_TRAP_ENUM
    GS_TRAPS
};

struct gs_trap_info {
    const char *name;   /* as --traps takes it */
    const char *title;
    const char *code;   /* the offending line, as the course prints it */
    const char *bites;  /* where it bites */
    const char *lesson; /* what the run shows, in one or two sentences */
};

const struct gs_trap_info *gs_trap_info(enum gs_trap t);
/* "block-stride,y-grid" -> bit (1 << enum gs_trap) per trap; "all" = every one. */
int gs_parse_traps(const char *s, unsigned *mask, struct gs_err *e);

#define GS_MAX_TRAP_CASES 24

/* One launch of a trap on one device. */
struct gs_trap_case {
    enum gs_trap trap;
    char label[128];          /* the launch in words: "<<<1056, 256>>> (the device grid)" */
    struct gs_launch launch;
    int counted;              /* the count build runs too */
    int literal;              /* the course's literal text: undefined, recorded only */
    char recorded[320];       /* a case run in check's worker: what it did, in words */
    const char *recorded_class; /* and check's class of it ("ok", "did-not-finish") */
    int skipped;              /* not run here: skip_why says why (memory, the backend) */
    char skip_why[240];
    struct gs_prediction pred;
    struct gs_launch_result got;
    struct gs_verdict verdict;
    int held, deviation;
    char mismatch[240];
    struct gs_launch_result got_count;
    struct gs_count_verdict counts;
    int counts_held;          /* every element's count as predicted (or not counted) */
};

struct gs_pitfalls_plan {
    unsigned traps; /* bit per enum gs_trap */
    const struct gs_progress *progress;
    /* 1 in the gridstride program, whose hidden mode is check's worker: the
     * early-return trap runs there (gs_worker.h), each launch under
     * barrier_timeout_s (0: GS_BARRIER_TIMEOUT_S). 0 elsewhere (a test
     * binary): its cases are skipped with the reason. */
    int isolated;
    double barrier_timeout_s; /* seconds, a fraction allowed */
};

#define GS_BARRIER_TIMEOUT_S 10.0

struct gs_pitfalls {
    struct gs_device *dev;
    uint64_t grid, threads; /* the device grid G and T, at GS_DEFAULT_BLOCK */
    char grid_rule[200];
    unsigned t_bits;        /* how the device's kernels compute T (the grid probe) */
    int ncases;
    struct gs_trap_case cases[GS_MAX_TRAP_CASES];
    int failed, deviations, skipped;
    struct gs_copy_rate copies; /* the workspace's copies and phases, all cases together */
};

/* Plan, predict, launch and verify every case of the chosen traps on dev.
 * GS_OK whether or not the predictions held; errors are environment
 * failures. */
int gs_pitfalls_run(struct gs_device *dev, const struct gs_pitfalls_plan *plan,
                    struct gs_pitfalls *out, struct gs_err *e);

#endif
