/* SPDX-License-Identifier: MIT */
/* The index tracer (`gridstride trace`): seed 000's picture, recorded on the
 * device rather than drawn.
 *
 * Each kernel runs once in its trace build (kernels/gs_kernels.h), which
 * records for every element how many times it was written, the lowest
 * global index of a thread that wrote it, and that thread's pass (how many
 * stores it had made before). The record is read back and compared, element
 * by element, with the model's: the count of gs_model_count, the writer and
 * pass of gs_owner_of. A run fails when they differ anywhere. The maps of
 * several backends for the same launch are compared with each other too:
 * the same kernel text must leave the same map through every API.
 *
 * Facts for the report (first unwritten element, passes, elements written
 * more than once, what the first warp touched at each step) are read off
 * the recorded map, never off the model. */
#ifndef GS_TRACE_H
#define GS_TRACE_H

#include "gs_model.h"
#include "gs_workspace.h"

/* Elements: a record of 16 bytes each on the device, and on the host a map
 * per kernel per device, all held at once to be compared and drawn. */
#define GS_TRACE_MAX_N (1ull << 22)
#define GS_TRACE_NONE UINT64_MAX      /* the writer of an element nobody wrote */
#define GS_TRACE_NO_PASS UINT32_MAX   /* its pass */
#define GS_TRACE_STRIDE 8u            /* S of the lane-strided copy in a trace */
#define GS_TRACE_SHOWN 8              /* elements of thread 0 listed */
#define GS_TRACE_WARP 32u             /* lanes of the warp the warp view follows */
#define GS_TRACE_STEPS 4              /* steps of that warp shown */
#define GS_TRACE_SEGMENT 32u          /* floats in a 128-byte memory segment */

/* The seed's picture: 4 blocks of 256 threads over 4096 elements. */
#define GS_TRACE_DEFAULT_GRID 4u
#define GS_TRACE_DEFAULT_N 4096u

/* One element of a recorded (or predicted) map. */
struct gs_trace_cell {
    uint32_t count;  /* writes */
    uint32_t pass;   /* the writer's pass: its stores before this one; GS_TRACE_NO_PASS */
    uint64_t writer; /* lowest global thread index that wrote it; GS_TRACE_NONE */
};

struct gs_trace_plan {
    enum gs_kernel_id kernels[GS_KERNEL_COUNT];
    int nkernels;
    uint64_t grid, block, n;
    const struct gs_progress *progress; /* may be NULL */
};

/* The plan's sizes are traceable: n in 1..GS_TRACE_MAX_N, grid and block at
 * least 1, fewer than 2^32 threads (the record keeps a 32-bit writer). */
int gs_trace_plan_check(const struct gs_trace_plan *p, struct gs_err *e);

/* The launch a trace makes of kernel k: <<<grid, block>>> over n, with the
 * parameter each kernel needs: the chunk C = ceil(n / T), the lane stride
 * GS_TRACE_STRIDE, tiles of 2 x block elements (so a grid of G blocks covers
 * 2 x G x block: the tile loop's trap shows at the default size), and for one
 * block per row, `grid` rows (along y) of ceil(n / grid) elements. */
void gs_trace_launch(const struct gs_trace_plan *p, enum gs_kernel_id k, struct gs_launch *l);

/* The model's record of element i of launch l (T computed in t_bits). */
void gs_trace_expect(const struct gs_launch *l, unsigned t_bits, uint64_t i,
                     struct gs_trace_cell *c);

struct gs_trace_mismatch {
    uint64_t index;
    struct gs_trace_cell got, want;
};

/* What the first warp (lanes 0..31 of block 0) touched at one of its
 * steps, read off the recorded map: the elements whose writer is that lane
 * and whose pass is the step. */
struct gs_warp_step {
    unsigned lanes;       /* lanes with an element at this step */
    uint64_t elements;    /* elements touched (a float4 lane touches four) */
    uint64_t first, last; /* lowest and highest element touched */
    uint64_t apart;       /* element of lane l + 1 minus lane l's, the same for every lane;
                             0 when they are not evenly spaced (or one lane) */
    uint64_t segments;    /* distinct 128-byte segments touched */
    uint64_t lane_at[GS_TRACE_WARP]; /* each lane's lowest element (lanes < `lanes`) */
};

/* One kernel traced on one device. */
struct gs_trace_kernel {
    struct gs_launch launch;
    struct gs_prediction pred;
    struct gs_launch_result got;
    struct gs_trace_cell *cells; /* launch.n cells, recorded; NULL when nothing ran */
    int held;                    /* the record equals the model's (or a refusal was predicted) */
    char why[320];               /* when not held, or not run: why */
    uint64_t mismatched, first_mismatch, guard_hits, fence_hits;
    int listed;
    struct gs_trace_mismatch list[GS_LISTED];
    /* Facts of the recorded map. */
    uint64_t written;            /* elements written at least once */
    uint64_t first_unwritten;    /* n when every element was written */
    uint64_t writes;             /* all writes */
    uint64_t duplicated;         /* elements written more than once */
    uint64_t max_count;
    uint64_t passes;             /* highest pass recorded + 1 */
    uint64_t thread0_total;      /* elements whose lowest writer is thread 0 */
    int nthread0;
    uint64_t thread0[GS_TRACE_SHOWN]; /* the first of them */
    int nsteps;
    struct gs_warp_step warp[GS_TRACE_STEPS];
};

struct gs_trace {
    struct gs_device *dev;
    struct gs_trace_plan plan;
    unsigned t_bits;
    int nkernels;
    struct gs_trace_kernel k[GS_KERNEL_COUNT];
    int failed; /* kernels whose record differs from the model, or ran unpredicted */
};

/* Trace every kernel of the plan on dev. GS_OK whether or not the maps held;
 * errors are environment failures (the device lacks the trace build: 
 * GS_UNSUPPORTED). Free with gs_trace_free, also after an error. */
int gs_trace_run(struct gs_device *dev, const struct gs_trace_plan *plan, struct gs_trace *t,
                 struct gs_err *e);
void gs_trace_free(struct gs_trace *t);

struct gs_pool;
/* Compare k's recorded cells with the model, element by element, into its
 * mismatched, first_mismatch and list (gs_trace_run does); on the pool's
 * threads, or on this one when pool is NULL. */
int gs_trace_compare(struct gs_trace_kernel *k, unsigned t_bits, struct gs_pool *pool,
                     struct gs_err *e);

/* Fill the facts of k from its recorded cells (gs_trace_run does). */
void gs_trace_facts(struct gs_trace_kernel *k);

/* How the maps of several runs of one plan agree, kernel by kernel. */
struct gs_trace_agreement {
    int compared;              /* runs that recorded a map of this kernel's launch */
    int other_launch;          /* runs whose runtime granted another launch (gs_dev_grant):
                                  compared with the model only */
    int equal;                 /* all of them are the same, element by element */
    int a, b;                  /* when not: two runs that differ */
    uint64_t first_difference; /* and the first element where they do */
};
/* Whether two launches are the same threads over the same elements: maps
 * are compared only then. */
int gs_trace_same_launch(const struct gs_launch *a, const struct gs_launch *b);
/* out[k] for the plan's k-th kernel: the maps of every run that made the
 * first run's launch are compared; 1 when every kernel agrees. */
int gs_trace_agree(const struct gs_trace *const *runs, int nruns,
                   struct gs_trace_agreement out[GS_KERNEL_COUNT]);

#endif
