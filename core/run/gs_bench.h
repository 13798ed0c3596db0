/* SPDX-License-Identifier: MIT */
/* The bandwidth benchmark: the same bytes moved by every variant, timed with
 * device timers, each variant verified before it is timed.
 *
 * Rows, in groups:
 *   ceiling   the API's own device-to-device copy;
 *   add       vector add at the device grid G, one row per way of writing
 *             it: monolithic, the plain grid-stride loop, four per trip
 *             (without restrict, with it, and with the loads written
 *             first), warp-contiguous x4, vectors of two and four elements;
 *   access    copy: coalesced, warp-contiguous x4, four-element vectors, one
 *             chunk per thread, and lanes 2, 8 and 32 elements apart;
 *   waves     the launch-size axis of three adds: multiples of G (1.5 G is a
 *             partial last wave), and grids sized to the data, so that every
 *             thread makes 4, 2 or 1 trips.
 * GB/s = (bytes read + bytes written) / median seconds / 1e9. Each row also
 * gives the bytes its code has in flight per SM: the loads a thread issues
 * before its first store, times the threads resident on an SM.
 *
 * Elements are floats or doubles (gs_bench_plan.type): the rows are the same
 * kernels, built once more in double; every byte count, the API's copy and
 * the vectors' widths follow the element size, and n and the trips count
 * elements. */
#ifndef GS_BENCH_H
#define GS_BENCH_H

#include "gs_backend.h"
#include "gs_progress.h"

enum gs_bench_group { GS_BG_CEILING, GS_BG_ADD, GS_BG_ACCESS, GS_BG_WAVES };

#define GS_BENCH_MAX_ROWS 48

struct gs_bench_row {
    enum gs_bench_group group;
    char label[64];
    int is_copy;   /* the API's own copy, not a kernel */
    struct gs_launch launch;
    uint64_t bytes; /* moved per launch: read + written */
    unsigned per_trip;      /* elements a thread handles per trip of its loop */
    double trips;           /* trips per thread at this grid: n / (T x per_trip) */
    unsigned inflight;      /* bytes a thread loads before its first store; 0: not a kernel */
    double inflight_per_sm; /* inflight x the threads resident on one SM (compute unit) */
    int verified;   /* 1: the result matched the reference before timing */
    char wrong[320]; /* when !verified: what was wrong (then no numbers) */
    double min_ms, med_ms, max_ms, mean_ms, stddev_ms;
    double *samples_ms; /* the timed repetitions, in the order they ran (reps of them) */
    double gbps;     /* bytes / median / 1e9 */
    double pct_copy; /* of this run's copy row */
    double pct_best; /* of this run's fastest kernel row */
    double pct_peak; /* of the device's theoretical peak; 0 when unknown */
};

struct gs_bench_plan {
    uint64_t n;       /* elements per buffer */
    unsigned reps;    /* timed repetitions per row */
    unsigned warmup;  /* untimed launches before them */
    unsigned block;   /* threads per block */
    uint64_t grid;    /* device grid override; 0 = the device's */
    /* Told after each row (a step: the backend, row of rows, "label: G GB/s"
     * or "label: WRONG"); may be NULL. */
    const struct gs_progress *progress;
    enum gs_type type; /* of the elements: float (0) or double (GS_CAP_F64) */
    /* The groups to run, a bit (1u << GS_BG_*) each; 0: every row. The
     * lecture runs the API's copy and the access patterns only. */
    unsigned groups;
};

struct gs_bench {
    struct gs_device *dev;
    enum gs_type type; /* of the elements */
    uint64_t n, grid, threads;
    unsigned block, reps, warmup;
    char grid_rule[200];
    int nrows;
    struct gs_bench_row rows[GS_BENCH_MAX_ROWS];
    double copy_gbps;
    int best_row;          /* the fastest verified kernel row (not the API's copy), -1 if none */
    double chunked_ratio;  /* copy chunked / copy coalesced */
    double stride32_ratio; /* copy stride 32 / copy coalesced */
    int wrong_rows;        /* rows that failed verification */
};

/* Runs every row on dev. Free the samples with gs_bench_free, also after an
 * error. */
int gs_bench_run(struct gs_device *dev, const struct gs_bench_plan *plan, struct gs_bench *b,
                 struct gs_err *e);
void gs_bench_free(struct gs_bench *b);

/* The fastest verified row of a kernel's waves, -1 if none. */
int gs_bench_best_wave(const struct gs_bench *b, enum gs_kernel_id kernel);

#endif
