/* SPDX-License-Identifier: MIT */
/* The bandwidth benchmark: the same bytes moved by every variant, timed with
 * device timers, each variant verified before it is timed.
 *
 * Rows: the API's own device-to-device copy (the ceiling); vector add as
 * monolithic, grid-stride, grid-stride x4 and grid-stride float4; copy
 * coalesced, chunked and lane-strided at S = 2..32; and the grid-stride add
 * at 1/8 .. 16 times the device grid (the launch-size curve; 1.5 G is the
 * one partial last wave of the curve: every block does the same work, so
 * half a wave leaves half the machine idle at the end).
 * GB/s = (bytes read + bytes written) / median seconds / 1e9. */
#ifndef GS_BENCH_H
#define GS_BENCH_H

#include "gs_backend.h"
#include "gs_format.h"

enum gs_bench_group { GS_BG_CEILING, GS_BG_ADD, GS_BG_ACCESS, GS_BG_LAUNCH };

#define GS_BENCH_MAX_ROWS 24

struct gs_bench_row {
    enum gs_bench_group group;
    char label[64];
    int is_copy;   /* the API's own copy, not a kernel */
    struct gs_launch launch;
    uint64_t bytes; /* moved per launch: read + written */
    int verified;   /* 1: the result matched the reference before timing */
    char wrong[320]; /* when !verified: what was wrong (then no numbers) */
    double min_ms, med_ms, max_ms;
    double gbps;    /* bytes / median / 1e9 */
    double pct_copy; /* of this run's copy row */
};

/* Called after each row so the CLI can show progress; may be NULL. */
typedef void (*gs_bench_progress)(void *ctx, const char *backend, int row, int rows,
                                  const struct gs_bench_row *r);

struct gs_bench_plan {
    uint64_t n;       /* floats per buffer */
    unsigned reps;    /* timed repetitions per row */
    unsigned warmup;  /* untimed launches before them */
    unsigned block;   /* threads per block */
    uint64_t grid;    /* device grid override; 0 = the device's */
    gs_bench_progress progress;
    void *progress_ctx;
};

struct gs_bench {
    struct gs_device *dev;
    uint64_t n, grid, threads;
    unsigned block, reps, warmup;
    char grid_rule[200];
    int nrows;
    struct gs_bench_row rows[GS_BENCH_MAX_ROWS];
    double copy_gbps;
    double chunked_ratio;  /* copy chunked / copy coalesced */
    double stride32_ratio; /* copy stride 32 / copy coalesced */
    int wrong_rows;        /* rows that failed verification */
};

int gs_bench_run(struct gs_device *dev, const struct gs_bench_plan *plan, struct gs_bench *b,
                 struct gs_err *e);

struct gs_bench_report_in {
    const struct gs_bench *const *runs;
    int nruns;
    const char *version;
    const char *command;
    const char *date;    /* UTC, ISO 8601; JSON only (gs_results.h) */
    const char *toolkit; /* what the suite was built with; JSON only */
};

void gs_bench_report(const struct gs_bench_report_in *in, enum gs_format f, struct gs_str *out);
/* A bar chart of GB/s per variant, one bar per backend, readable when projected. */
void gs_bench_svg(const struct gs_bench_report_in *in, struct gs_str *out);

#endif
