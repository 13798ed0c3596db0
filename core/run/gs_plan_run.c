/* SPDX-License-Identifier: MIT */
#include "gs_plan_run.h"

#include <string.h>

#include "gs_cpu_size.h"
#include "gs_device.h"
#include "gs_memory.h"
#include "gs_speed.h"
#include "gs_sysmem.h"

int gs_plan_limits(const struct gs_device *d, unsigned block, uint64_t grid,
                   const struct gs_shape *shapes, int nshapes, struct gs_err *e)
{
    if (block > d->max_block)
        return gs_err_set(e, GS_USAGE, "block %u%s exceeds the largest block of %s device %s (%u); "
                                       "choose --block 1 to %u",
                          block, block == GS_DEFAULT_BLOCK ? " (the default)" : "",
                          d->backend->name, d->name, d->max_block, d->max_block);
    if (grid > d->max_grid)
        return gs_err_set(e, GS_USAGE, "--grid %llu exceeds the largest grid of %s device %s (%llu); "
                                       "choose a smaller --grid",
                          (unsigned long long)grid, d->backend->name, d->name,
                          (unsigned long long)d->max_grid);
    for (int i = 0; i < nshapes; ++i)
        if (shapes[i].block > d->max_block || shapes[i].grid > d->max_grid)
            return gs_err_set(e, GS_USAGE,
                              "--shape %llux%llu is beyond %s device %s (at most %llu blocks of %u "
                              "threads); choose a smaller shape",
                              (unsigned long long)shapes[i].grid,
                              (unsigned long long)shapes[i].block, d->backend->name, d->name,
                              (unsigned long long)d->max_grid, d->max_block);
    return GS_OK;
}

/* ---- the table ------------------------------------------------------------ */

/* Whether some device could take a launch of `grid` x `block` at all (its
 * own maxima, not the limits it reports for the kernels): a shape beyond one
 * API's limit is that API's predicted refusal in the table, and only input
 * that no selected device could ever run is bad usage. */
static int some_device_takes(struct gs_device *const *devs, int ndevs, uint64_t grid,
                             uint64_t block)
{
    for (int i = 0; i < ndevs; ++i)
        if (block >= 1 && block <= devs[i]->max_block_device && grid <= devs[i]->max_grid)
            return 1;
    return 0;
}

static void largest(struct gs_device *const *devs, int ndevs, unsigned *block, uint64_t *grid)
{
    *block = 0;
    *grid = 0;
    for (int i = 0; i < ndevs; ++i) {
        if (devs[i]->max_block_device > *block)
            *block = devs[i]->max_block_device;
        if (devs[i]->max_grid > *grid)
            *grid = devs[i]->max_grid;
    }
}

static int table_usable(struct gs_device *const *devs, int ndevs, const struct gs_table_plan *plan,
                        const struct gs_table_request *req, struct gs_err *e)
{
    unsigned max_block;
    uint64_t max_grid;
    largest(devs, ndevs, &max_block, &max_grid);
    if (plan->grid > max_grid)
        return gs_err_set(e, GS_USAGE,
                          "--grid %llu is beyond every selected device (at most %llu blocks); "
                          "choose a smaller grid",
                          (unsigned long long)plan->grid, (unsigned long long)max_grid);
    if (!some_device_takes(devs, ndevs, 0, plan->block))
        return gs_err_set(e, GS_USAGE,
                          "block %u%s is beyond every selected device (at most %u threads); "
                          "choose --block 1 to %u",
                          plan->block, req->block ? "" : " (the default)", max_block, max_block);
    for (int i = 0; i < req->nshapes; ++i)
        if (!some_device_takes(devs, ndevs, req->shapes[i].grid, req->shapes[i].block))
            return gs_err_set(e, GS_USAGE,
                              "--shape %llux%llu is beyond every selected device (at most %llu "
                              "blocks of %u threads); choose a smaller shape",
                              (unsigned long long)req->shapes[i].grid,
                              (unsigned long long)req->shapes[i].block,
                              (unsigned long long)max_grid, max_block);
    return GS_OK;
}

int gs_plan_table(struct gs_device *const *devs, int ndevs, const struct gs_table_request *req,
                  struct gs_table_setup *out, struct gs_grid_choice *grids, struct gs_err *e)
{
    struct gs_table_plan *plan = &out->plan;
    int nsizes = req->nsizes;
    memset(out, 0, sizeof *out);
    plan->block = req->block ? req->block : GS_DEFAULT_BLOCK;
    plan->grid = req->grid;
    plan->columns = req->columns;
    if (req->nshapes) {
        memcpy(out->shapes, req->shapes, (size_t)req->nshapes * sizeof *req->shapes);
        plan->nshapes = req->nshapes;
    } else {
        plan->nshapes = gs_default_shapes(0, plan->block, out->shapes); /* grid 0 = each device's G */
    }
    plan->shapes = out->shapes;
    if (nsizes)
        memcpy(out->sizes, req->sizes, (size_t)nsizes * sizeof *req->sizes);
    int rc = table_usable(devs, ndevs, plan, req, e);
    for (int i = 0; rc == GS_OK && i < ndevs; ++i) {
        rc = gs_grid_choose(devs[i], plan->block, plan->grid, &grids[i], e);
        if (rc != GS_OK || req->nsizes || grids[i].fallback)
            continue; /* a stand-in G sets no rows */
        uint64_t dev_sizes[GS_MAX_SIZES];
        const int k = gs_default_sizes(grids[i].grid * plan->block, dev_sizes);
        nsizes = gs_sizes_merge(out->sizes, nsizes, dev_sizes, k);
        if (nsizes < 0)
            rc = gs_err_set(e, GS_USAGE, "too many distinct sizes across devices; pass --sizes");
    }
    plan->sizes = out->sizes;
    plan->nsizes = nsizes;
    for (int i = 0; rc == GS_OK && i < ndevs; ++i)
        rc = gs_memory_preflight(devs[i], gs_table_max_n(plan), e);
    return rc;
}

/* ---- check ------------------------------------------------------------------ */

int gs_plan_builds_dialect(const struct gs_backend *b, enum gs_dialect d)
{
    return (gs_backend_user_dialects(b) >> d & 1u) && gs_backend_has_user_kernels(b);
}

int gs_plan_dialect_devices(struct gs_device *const *devs, int ndevs, enum gs_dialect d,
                            struct gs_device **out)
{
    int n = 0;
    for (int i = 0; i < ndevs; ++i)
        if (gs_plan_builds_dialect(devs[i]->backend, d))
            out[n++] = devs[i];
    return n;
}

int gs_plan_check(struct gs_device *const *devs, int ndevs, const struct gs_check_plan *plan,
                  struct gs_grid_choice *grids, struct gs_err *e)
{
    const unsigned block = plan->block ? plan->block : GS_DEFAULT_BLOCK;
    for (int i = 0; i < ndevs; ++i) {
        int rc = gs_plan_limits(devs[i], block, plan->grid, plan->shapes, plan->nshapes, e);
        if (rc == GS_OK)
            rc = gs_grid_choose(devs[i], block, plan->grid, &grids[i], e);
        if (rc == GS_OK)
            rc = gs_memory_preflight(devs[i], gs_check_max_n(plan, grids[i].grid * block), e);
        if (rc != GS_OK)
            return rc;
    }
    /* The devices side by side, and check's own shared memory, in this
     * machine's memory at once: the size that fits each alone may not. */
    uint64_t need = 0, top = 0;
    for (int i = 0; i < ndevs; ++i) {
        const uint64_t n = gs_check_max_n(plan, grids[i].grid * block);
        need += gs_check_host_bytes(devs[i]->is_gpu, n,
                                    devs[i]->is_gpu && !plan->no_speed ? GS_SPEED_GPU_BYTES : 0);
        top = n > top ? n : top;
    }
    return gs_memory_preflight_host(need, top, e);
}

/* ---- bandwidth ---------------------------------------------------------------- */

int gs_plan_bench_device(const struct gs_device *d, unsigned block, uint64_t grid,
                         enum gs_type type, struct gs_err *e)
{
    char why[200];
    const int rc = gs_plan_limits(d, block ? block : GS_DEFAULT_BLOCK, grid, NULL, 0, e);
    if (rc != GS_OK || type != GS_TYPE_DOUBLE || gs_dev_has_f64(d, why, sizeof why))
        return rc;
    /* --type double on a device without the double build: why, then the fix. */
    return gs_err_set(e, GS_USAGE, "--type double: %s device %s cannot run double (%s); run "
                                   "--type float, or choose a device with double precision",
                      d->backend->name, d->name, why);
}

/* The largest n that fits every device (and this machine, for a CPU
 * device), capped at `gpu_bytes` per buffer (less with a CPU device); n
 * counts elements of type. */
int gs_plan_bandwidth_n(struct gs_device *const *devs, int ndevs, enum gs_type type,
                        uint64_t bytes, uint64_t gpu_bytes, uint64_t *n, char *why,
                        size_t why_size, struct gs_err *e)
{
    if (why && why_size)
        why[0] = '\0';
    const unsigned elem = gs_type_size(type);
    uint64_t cap = UINT64_MAX;
    const char *limit = "";
    for (int i = 0; i < ndevs; ++i) {
        const uint64_t fit = gs_memory_max_n_of(devs[i], UINT64_MAX / elem, type) * elem;
        if (fit < cap) {
            cap = fit;
            limit = devs[i]->name;
        }
    }
    if (bytes) {
        if (bytes > cap)
            return gs_err_set(e, GS_USAGE,
                              "--bytes: %llu bytes per buffer do not fit %s (at most %llu); "
                              "choose a smaller size",
                              (unsigned long long)bytes, limit, (unsigned long long)cap);
        if (bytes < 4096)
            return gs_err_set(e, GS_USAGE, "--bytes: too small; give at least 4KiB per buffer");
        *n = bytes / elem;
        return GS_OK;
    }
    uint64_t want = gpu_bytes;
    for (int i = 0; i < ndevs; ++i)
        if (!devs[i]->is_gpu)
            want = gs_cpu_bench_bytes(devs[i]->compute_units, why, why_size);
    *n = (want < cap ? want : cap) / elem;
    if (*n < 1024)
        return gs_err_set(e, GS_USAGE, "bandwidth: %s has too little memory for a run; free some, "
                                       "or choose another --device", limit);
    return GS_OK;
}

/* ---- trace ---------------------------------------------------------------------- */

int gs_plan_trace_maps(const struct gs_trace_plan *p, int ndevs, struct gs_err *e)
{
    const uint64_t need = p->n * sizeof(struct gs_trace_cell) * (uint64_t)p->nkernels * ndevs;
    const uint64_t avail = gs_host_available_memory();
    if (avail && need > avail / 2)
        return gs_err_set(e, GS_USAGE, "--n %llu: %d kernels on %d devices make maps of %llu "
                                       "bytes, more than half of this machine's %llu available; "
                                       "choose a smaller --n or fewer --kernels",
                          (unsigned long long)p->n, p->nkernels, ndevs,
                          (unsigned long long)need, (unsigned long long)avail);
    return GS_OK;
}
