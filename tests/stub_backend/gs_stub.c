/* SPDX-License-Identifier: MIT */
/* The template for a new backend: copy this folder to backend_<name>/,
 * rename `stub` to your backend's name, and replace each stubXxx call of the
 * pretend API (gs_stub_api.h) with your API's. CONTRIBUTING.md walks through
 * it; a CI test follows that walk on a copy.
 *
 * What a backend writes is only what its API makes it write. The core owns
 * the rest: it allocates the device and buffer objects (device_size,
 * buffer_size), keeps the device list and the live buffers, checks every
 * buffer range and kernel id before calling in, never sends a launch that
 * predicts_accept() marks GS_NOT_SENT, and reaches the optional members only
 * through core/device/gs_device.c, which answers "unsupported" for a NULL one.
 *
 * This stub runs the kernels of kernels/ on the CPU through the pretend API,
 * with its error codes, refusals and timing, and passes the conformance
 * body (tests/test_conformance.c) like every backend. */
#include <stdio.h>
#include <string.h>

#include "gs_backend.h"
#include "gs_common.h"
#include "gs_stub_api.h"

/* Your device: the core's part first (the compiler checks it). */
struct stub_device {
    struct gs_device base;
    int ordinal;       /* the API's device number */
    unsigned resident; /* blocks a unit holds at once, as the API reports it */
};
GS_DEVICE_STRUCT(struct stub_device);

/* Your buffer: the core's part first (it knows the size and checks ranges). */
struct stub_buf {
    struct gs_buf base;
    void *ptr;
};
GS_BUF_STRUCT(struct stub_buf);

static void *ptr_of(const struct gs_buf *b)
{
    return b ? ((const struct stub_buf *)b)->ptr : NULL;
}

/* What a launch passes: the address of the view (gs_buf.front bytes in). */
static void *view_of(const struct gs_buf *b)
{
    return b ? (char *)((const struct stub_buf *)b)->ptr + b->front : NULL;
}

/* Every API call goes through this: GS_OK, or the call, file:line and the
 * API's own error name in e (core/device/gs_backend.h, gs_api_error). */
static int stub_check(stubError rc, const char *call, const char *file, int line,
                      struct gs_err *e)
{
    if (rc == stubSuccess)
        return GS_OK;
    return gs_api_error(e, rc == stubErrorOutOfMemory ? GS_NOMEM : GS_API, call, file, line,
                        stubGetErrorName(rc), (long)rc, stubGetErrorString(rc));
}
#define STUB_CHECK(e, call) stub_check((call), #call, __FILE__, __LINE__, (e))

/* ---- discovery ---------------------------------------------------------- */

static int stub_describe(struct stub_device *d, int ordinal, struct gs_err *e)
{
    struct stubDeviceProps p;
    int st = STUB_CHECK(e, stubGetDeviceProps(ordinal, &p));
    if (st != GS_OK)
        return st;
    struct gs_device *g = &d->base;
    d->ordinal = ordinal;
    snprintf(g->id, sizeof g->id, "%d", ordinal);
    gs_strlcpy(g->name, p.name, sizeof g->name);
    gs_strlcpy(g->platform, "stub", sizeof g->platform);
    gs_strlcpy(g->api_version, "stub API 1.0", sizeof g->api_version);
    gs_strlcpy(g->arch, "a CPU pretending", sizeof g->arch);
    g->is_gpu = 0; /* it runs on the CPU: CPU budgets and caps apply */
    g->compute_units = p.units;
    g->max_block = g->max_block_device = p.max_block;
    g->max_grid = p.max_grid;
    g->global_mem = g->max_alloc = p.memory;
    gs_strlcpy(g->peak_rule, "unknown: the stub API reports no memory clock", sizeof g->peak_rule);
    g->caps = GS_CAP_TIMING | GS_CAP_COPY | GS_CAP_2D | GS_CAP_COUNT | GS_CAP_TRACE;
    d->resident = p.resident_blocks;
    /* A device that cannot serve timeline() says why, and the core
     * never asks it (an API without any such clock leaves timeline NULL
     * and says so here for every device). */
    if (!p.unit_clock)
        gs_strlcpy(g->no_timeline,
                   "the stub API's device has no per-unit clock (GRIDSTRIDE_STUB=timeline "
                   "pretends one)",
                   sizeof g->no_timeline);
    return GS_OK;
}

static int stub_open(struct gs_device_list *list, char *notice, unsigned notice_size,
                     struct gs_err *e)
{
    int count = 0;
    if (notice_size)
        notice[0] = '\0';
    /* Not through STUB_CHECK: no API or no device is an answer, not an error. */
    if (stubGetDeviceCount(&count) != stubSuccess || count == 0)
        return gs_err_set(e, GS_NO_DEVICE, "no stub device: stubGetDeviceCount found none");
    for (int i = 0; i < count; ++i) {
        struct stub_device *d = (struct stub_device *)gs_device_list_add(list, e);
        const int st = d ? stub_describe(d, i, e) : e->status;
        if (st != GS_OK)
            return st;
    }
    return GS_OK;
}

/* ---- the grid and the launch rules -------------------------------------- */

static int stub_blocks_per_unit(struct gs_device *dev, enum gs_kernel_id kernel, unsigned block,
                                unsigned *blocks, char *rule, unsigned rule_size,
                                struct gs_err *e)
{
    (void)kernel;
    if (block == 0 || block > dev->max_block_device)
        return gs_err_set(e, GS_USAGE, "stub: block of %u threads is outside 1..%u", block,
                          dev->max_block_device);
    *blocks = ((const struct stub_device *)dev)->resident;
    snprintf(rule, rule_size, "the stub API has no occupancy query: %u blocks per unit", *blocks);
    return GS_OK;
}

/* The API's rules, from what the device reports; the same as stubLaunch's. */
static int stub_predicts_accept(const struct gs_device *dev, const struct gs_launch *l,
                                char *why, unsigned why_size)
{
    const char *rule = NULL;
    if (l->grid == 0)
        rule = "a grid of zero blocks (stubErrorInvalidValue)";
    else if (l->block == 0 || l->block > dev->max_block)
        rule = "a block outside 1..max_block (stubErrorInvalidValue)";
    else if (l->grid > dev->max_grid || l->grid_y > dev->max_grid)
        rule = "a grid beyond max_grid (stubErrorInvalidValue)";
    else if (l->global != l->grid * l->block)
        rule = "the stub API launches whole blocks only";
    if (!rule)
        return GS_ACCEPTS;
    gs_strlcpy(why, rule, why_size);
    return GS_REFUSES;
}

/* ---- buffers: the core checked every range before these ------------------ */

static int stub_alloc(struct gs_device *dev, struct gs_buf *buf, struct gs_err *e)
{
    (void)dev;
    return STUB_CHECK(e, stubMalloc(&((struct stub_buf *)buf)->ptr,
                                    buf->bytes ? (size_t)buf->bytes : 1));
}

static int stub_write(struct gs_device *dev, struct gs_buf *buf, uint64_t offset,
                      const void *src, uint64_t bytes, struct gs_err *e)
{
    (void)dev;
    return STUB_CHECK(e, stubMemcpy((char *)ptr_of(buf) + offset, src, (size_t)bytes));
}

static int stub_read(struct gs_device *dev, struct gs_buf *buf, uint64_t offset, void *dst,
                     uint64_t bytes, struct gs_err *e)
{
    (void)dev;
    return STUB_CHECK(e, stubMemcpy(dst, (const char *)ptr_of(buf) + offset, (size_t)bytes));
}

static void stub_free(struct gs_device *dev, struct gs_buf *buf)
{
    (void)dev;
    (void)stub_check(stubFree(ptr_of(buf)), "stubFree", __FILE__, __LINE__, NULL);
}

static int stub_fill32(struct gs_device *dev, struct gs_buf *buf, uint64_t offset,
                       uint64_t bytes, uint32_t pattern, struct gs_err *e)
{
    (void)dev;
    return STUB_CHECK(e, stubMemset32((char *)ptr_of(buf) + offset, pattern,
                                      (size_t)(bytes / 4)));
}

/* ---- launch and copy ---------------------------------------------------- */

static int stub_launch(struct gs_device *dev, const struct gs_launch *l, int timed,
                       struct gs_launch_result *r, struct gs_err *e)
{
    double ms = 0.0;
    (void)dev;
    const stubError rc = stubLaunch((int)l->kernel, (int)gs_launch_build(l), l->grid,
                                    l->grid_y ? l->grid_y : 1, l->block, view_of(l->a),
                                    view_of(l->b), view_of(l->out), l->n, l->param, &ms);
    /* A refused shape is the result being measured, not an error. */
    if (rc == stubErrorInvalidValue || rc == stubErrorLaunchRefused) {
        gs_refusal(r, (long)rc, stubGetErrorName(rc), "stubLaunch: %s", stubGetErrorString(rc));
        return GS_OK;
    }
    const int st = STUB_CHECK(e, rc);
    if (st == GS_OK) {
        r->accepted = 1;
        r->ms = timed ? ms : 0.0;
    }
    return st;
}

static int stub_copy(struct gs_device *dev, struct gs_buf *dst, struct gs_buf *src,
                     uint64_t bytes, double *ms, struct gs_err *e)
{
    (void)dev;
    const double t0 = gs_common_clock_ms(); /* the pretend API has no timer for copies */
    const int st = STUB_CHECK(e, stubMemcpy(ptr_of(dst), ptr_of(src), (size_t)bytes));
    *ms = gs_common_clock_ms() - t0;
    return st;
}

/* Per-unit finish times (`gridstride bandwidth --spread`), from the
 * pretend API's per-unit clock. The core has checked the launch (1D, a
 * catalogue kernel, accepted by predicts_accept) and zeroed t, and checks
 * the record afterwards (every block counted once). The output is the
 * kernel's: the core verifies it. */
static int stub_timeline(struct gs_device *dev, const struct gs_launch *l,
                         struct gs_launch_result *r, struct gs_timeline *t, struct gs_err *e)
{
    struct stub_device *d = (struct stub_device *)dev;
    struct stubUnitTimes units[GS_TIMELINE_MAX_UNITS];
    double ms = 0.0;
    if (dev->compute_units > GS_TIMELINE_MAX_UNITS)
        return gs_err_set(e, GS_UNSUPPORTED, "stub: %u units, more than a timeline holds",
                          dev->compute_units);
    const stubError rc = stubLaunchTimeline((int)l->kernel, l->grid, l->block, view_of(l->a),
                                            view_of(l->b), view_of(l->out), l->n, l->param, units,
                                            dev->compute_units, &ms);
    if (rc == stubErrorInvalidValue || rc == stubErrorLaunchRefused) {
        gs_refusal(r, (long)rc, stubGetErrorName(rc), "stubLaunchTimeline: %s",
                   stubGetErrorString(rc));
        return GS_OK;
    }
    const int st = STUB_CHECK(e, rc);
    if (st != GS_OK)
        return st;
    for (unsigned u = 0; u < dev->compute_units; ++u)
        if (units[u].blocks)
            t->unit[t->nunits++] = (struct gs_timeline_unit){u, units[u].blocks,
                                                              units[u].start_ns, units[u].end_ns};
    t->resident_per_unit = d->resident;
    t->ms = ms;
    gs_strlcpy(t->clock, "the stub API's pretend per-unit clock", sizeof t->clock);
    r->accepted = 1;
    r->ms = ms;
    return GS_OK;
}

/* Only what the API offers is filled in: staging memory, pinning memory in
 * place, a free-memory query and the grid probe stay NULL (and
 * open_any_thread 0: the pretend API opens in the thread that uses it), and the core
 * degrades for them (plain malloc'd staging, pageable read-backs, the
 * device's memory size, "not probed"); so do
 * user kernels and counters (a pretend API has no profiler: check's
 * counters line says why). */
const struct gs_backend gs_backend_stub = {
    .name = "stub",
    .description = "the template backend: a pretend API running kernels/ on the CPU",
    .device_size = sizeof(struct stub_device),
    .buffer_size = sizeof(struct stub_buf),
    .open = stub_open,
    .blocks_per_unit = stub_blocks_per_unit,
    .predicts_accept = stub_predicts_accept,
    .alloc = stub_alloc,
    .write = stub_write,
    .read = stub_read,
    .free = stub_free,
    .launch = stub_launch,
    .copy = stub_copy,
    .fill32 = stub_fill32,
    .timeline = stub_timeline,
};
