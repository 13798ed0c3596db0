/* SPDX-License-Identifier: MIT */
/* Planning a run before anything is launched: what each command runs on
 * the devices chosen, each device's G (found once, handed to the engine),
 * and the preflight that refuses, in one line naming the option to change,
 * what a device cannot hold or launch. Every function here is policy the
 * command line only calls: no device is launched and nothing is printed. */
#ifndef GS_PLAN_RUN_H
#define GS_PLAN_RUN_H

#include "gs_check.h"
#include "gs_defaults.h"
#include "gs_table.h"
#include "gs_trace.h"

/* Device limits the command line must respect (block, grid, shapes),
 * checked before any launch: GS_USAGE with a message naming the option. */
int gs_plan_limits(const struct gs_device *d, unsigned block, uint64_t grid,
                   const struct gs_shape *shapes, int nshapes, struct gs_err *e);

/* ---- the table ------------------------------------------------------------ */

/* What the command line asks of the table; 0 and NULL for the defaults. */
struct gs_table_request {
    unsigned block; /* 0: GS_DEFAULT_BLOCK */
    uint64_t grid;  /* 0: each device's G */
    unsigned columns;
    const uint64_t *sizes; /* nsizes 0: the union of each device's default sizes */
    int nsizes;
    const struct gs_shape *shapes; /* nshapes 0: seed 002's four, on each device's G */
    int nshapes;
};

/* The plan of one invocation. plan points into this object: do not copy it. */
struct gs_table_setup {
    struct gs_table_plan plan;
    uint64_t sizes[GS_MAX_SIZES];
    struct gs_shape shapes[GS_MAX_SHAPES];
};

/* The shapes and sizes for every device, and each device's G into
 * grids[i]: a grid, block or shape that no device could take, too many
 * distinct sizes, or buffers a device cannot hold are GS_USAGE. The same
 * rows for every device: the union of each one's default sizes, where no
 * --sizes is given (a stand-in G sets no rows). */
int gs_plan_table(struct gs_device *const *devs, int ndevs, const struct gs_table_request *req,
                  struct gs_table_setup *out, struct gs_grid_choice *grids, struct gs_err *e);

/* ---- check ------------------------------------------------------------------ */

/* Whether backend b builds user kernels of dialect d. */
int gs_plan_builds_dialect(const struct gs_backend *b, enum gs_dialect d);
/* The devices among devs whose backend builds d, in order, into out;
 * returns their count. */
int gs_plan_dialect_devices(struct gs_device *const *devs, int ndevs, enum gs_dialect d,
                            struct gs_device **out);
/* Every device takes the plan's block, grid and shapes, and holds its
 * buffers on its own G, which goes into grids[i]. */
int gs_plan_check(struct gs_device *const *devs, int ndevs, const struct gs_check_plan *plan,
                  struct gs_grid_choice *grids, struct gs_err *e);

/* ---- bandwidth ---------------------------------------------------------------- */

/* A CPU device in a bandwidth run: minutes, not hours. */

/* Whether d can run bandwidth rows of `type` under block (0: the default)
 * and grid (0: G); GS_USAGE and the reason otherwise. */
int gs_plan_bench_device(const struct gs_device *d, unsigned block, uint64_t grid,
                         enum gs_type type, struct gs_err *e);
/* Elements of `type` per buffer for these devices: `bytes` when not 0 (at
 * least 4 KiB, and fitting every device), else `gpu_bytes`, or with a CPU
 * device among them the size gs_cpu_size.h chooses from the machine's
 * caches and cores (why, when not NULL, gets its one sentence; else ""),
 * less where that does not fit. */
int gs_plan_bandwidth_n(struct gs_device *const *devs, int ndevs, enum gs_type type,
                        uint64_t bytes, uint64_t gpu_bytes, uint64_t *n, char *why,
                        size_t why_size, struct gs_err *e);

/* ---- trace ---------------------------------------------------------------------- */

/* Every map is held at once, to be compared and drawn: the maps of ndevs
 * devices must fit half of this machine's available memory. */
int gs_plan_trace_maps(const struct gs_trace_plan *p, int ndevs, struct gs_err *e);

#endif
