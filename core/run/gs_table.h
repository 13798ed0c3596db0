/* SPDX-License-Identifier: MIT */
/* One device's run of the correctness table: the course's A/B/C columns plus a
 * chunked column at every size, the launch shapes at n = 611, and, where the
 * API can express it, a ragged NDRange. Every case is predicted, launched on
 * a poisoned output, read back and verified. */
#ifndef GS_TABLE_H
#define GS_TABLE_H

#include "gs_model.h"
#include "gs_parse.h"
#include "gs_workspace.h"

enum gs_column {
    GS_COL_A, /* monolithic, grid sized to n: ceil(n / block) blocks */
    GS_COL_B, /* monolithic, the device grid */
    GS_COL_C, /* grid-stride, the device grid */
    GS_COL_D, /* chunked, the device grid, C = ceil(n / T) */
    GS_COLUMNS
};

enum gs_section {
    GS_SEC_SIZES,  /* columns A..D at every size */
    GS_SEC_SHAPES, /* C and D at GS_SHAPE_N under each launch shape */
    GS_SEC_RAGGED  /* C at GS_SHAPE_N with global = n, local = block (OpenCL) */
};

#define GS_SHAPE_N 611u

struct gs_case {
    enum gs_section section;
    enum gs_column column;
    int row;                 /* size index (GS_SEC_SIZES) or shape index (GS_SEC_SHAPES) */
    struct gs_launch launch; /* buffers are cleared once the case has run */
    struct gs_prediction pred;
    struct gs_launch_result got;
    struct gs_verdict verdict;
    int held;      /* the prediction held, or the case is a deviation */
    int deviation; /* accepted beyond the device's own report (gs_model.h) */
    char mismatch[240]; /* how the observation differed, when !held or a deviation */
};

/* What to run; the same for every device of one invocation. */
struct gs_table_plan {
    unsigned block;        /* threads per block for A..D; 0 = GS_DEFAULT_BLOCK */
    uint64_t grid;         /* the "device grid" override (--grid); 0 = from the device */
    const uint64_t *sizes; /* the rows */
    int nsizes;
    const struct gs_shape *shapes; /* grid 0 = the device grid */
    int nshapes;
    unsigned columns; /* bit (1 << enum gs_column) for each column to run */
    const struct gs_progress *progress; /* may be NULL */
};

struct gs_table {
    struct gs_device *dev;
    unsigned block;
    uint64_t grid;       /* G */
    uint64_t threads;    /* T = G x block */
    /* What the runtime grants for <<<G, block>>> (gs_dev_grant): G and block
     * themselves unless the backend's API takes them as upper bounds. */
    uint64_t granted_grid, granted_block;
    char grid_rule[200]; /* how G was found */
    int ncases;
    struct gs_case *cases;
    int failed;     /* cases whose prediction did not hold */
    int deviations; /* cases the API accepted beyond the device's report */
    int grid_fallback; /* the block is beyond the device: G is a stand-in (grid_rule) */
    /* The inputs' upload and the read-backs, timed: the run's floor beside
     * its time (gs_copy_rate_line says it in words). */
    struct gs_copy_rate copies;
};

/* G for dev under plan (the device grid, or plan->grid). A block beyond the
 * device gets a stand-in G of one block per compute unit (*fallback = 1, and
 * rule says so), so that its launches still record what the API answers. */
int gs_table_grid(struct gs_device *dev, const struct gs_table_plan *plan, uint64_t *grid,
                  int *fallback, char *rule, unsigned rule_size, struct gs_err *e);

/* One device's G as gs_table_grid finds it: found once per device when the
 * run is planned (gs_plan_run.h) and handed to the engines that take it. */
struct gs_grid_choice {
    uint64_t grid;
    int fallback;
    char rule[200];
};
int gs_grid_choose(struct gs_device *dev, unsigned block, uint64_t grid,
                   struct gs_grid_choice *out, struct gs_err *e);

/* The largest n of the plan's cases: its largest size, or the shapes' n. */
uint64_t gs_table_max_n(const struct gs_table_plan *plan);

/* Run every case of the plan on dev. On GS_OK *out holds the results,
 * whether or not the predictions held; errors are environment failures. */
int gs_table_run(struct gs_device *dev, const struct gs_table_plan *plan, struct gs_table **out,
                 struct gs_err *e);
/* The same on the G already chosen for dev under plan. */
int gs_table_run_at(struct gs_device *dev, const struct gs_table_plan *plan,
                    const struct gs_grid_choice *g, struct gs_table **out, struct gs_err *e);
void gs_table_free(struct gs_table *t);

/* The case of (section, column, row), or NULL when the table has none. */
const struct gs_case *gs_table_find(const struct gs_table *t, enum gs_section sec,
                                    enum gs_column col, int row);

const char *gs_column_letter(enum gs_column c);
const char *gs_column_title(enum gs_column c);

#endif
