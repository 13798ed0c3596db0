/* SPDX-License-Identifier: MIT */
#include "gs_device.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int gs_backend_check(const struct gs_backend *b, struct gs_err *e)
{
    if (!b)
        return gs_err_set(e, GS_BAD_BACKEND, "no backend");
    if (!b->name || !b->open || !b->blocks_per_unit || !b->predicts_accept || !b->alloc ||
        !b->write || !b->read || !b->free || !b->launch)
        return gs_err_set(e, GS_BAD_BACKEND, "backend '%s' lacks a required method",
                          b->name ? b->name : "?");
    if (b->device_size < sizeof(struct gs_device) || b->buffer_size < sizeof(struct gs_buf))
        return gs_err_set(e, GS_BAD_BACKEND,
                          "backend '%s' declares a device or buffer struct smaller than the "
                          "core's part (device_size %zu, buffer_size %zu)",
                          b->name, b->device_size, b->buffer_size);
    return GS_OK;
}

int gs_dev_has_f64(const struct gs_device *d, char *why, unsigned why_size)
{
    if (d->caps & GS_CAP_F64)
        return 1;
    if (!why_size)
        return 0;
    if (d->no_f64[0])
        snprintf(why, why_size, "%s", d->no_f64);
    else
        snprintf(why, why_size, "the %s backend has no double build of the kernels",
                 d->backend->name);
    return 0;
}

/* ---- what a backend offers, for the core and the CLI -------------------- */

int gs_backend_has_timeline(const struct gs_backend *b)
{
    return b->timeline != NULL;
}

int gs_backend_has_user_kernels(const struct gs_backend *b)
{
    return b->user_build && b->user_launch && b->user_free;
}

unsigned gs_backend_user_dialects(const struct gs_backend *b)
{
    return b->user_dialects;
}

int gs_backend_builds_dialect(const struct gs_backend *b, enum gs_dialect d)
{
    return (gs_backend_user_dialects(b) >> d & 1u) && gs_backend_has_user_kernels(b);
}

int gs_backend_can_compile_user(const struct gs_backend *b)
{
    return b->user_compile != NULL;
}

/* ---- the core's own state of a device ----------------------------------- */

const struct gs_grid_probe *gs_dev_probed(const struct gs_device *d)
{
    return d->core && d->core->probed ? &d->core->probe : NULL;
}

int gs_dev_buffers_held(const struct gs_device *d)
{
    int n = 0;
    for (const struct gs_buf *b = d->core ? d->core->buffers : NULL; b; b = b->next)
        ++n;
    return n;
}

void gs_dev_free_all(struct gs_device *d)
{
    while (d->core && d->core->buffers)
        gs_dev_free(d, d->core->buffers);
}

/* ---- services for backends ---------------------------------------------- */

int gs_api_error(struct gs_err *e, int status, const char *call, const char *file, int line,
                 const char *name, long code, const char *message)
{
    return gs_err_set(e, status, "%s at %s:%d: %s (%ld): %s", call, file, line, name, code,
                      message);
}

void gs_refusal(struct gs_launch_result *r, long code, const char *name, const char *fmt, ...)
{
    va_list ap;
    r->accepted = 0;
    r->api_code = code;
    r->ms = 0.0;
    gs_strlcpy(r->api_error, name, sizeof r->api_error);
    va_start(ap, fmt);
    vsnprintf(r->api_message, sizeof r->api_message, fmt, ap);
    va_end(ap);
}

/* Every access to a buffer is checked here, once, for every backend. */
/* A range of the allocation, front included (raw offsets). */
static int in_range(const struct gs_buf *buf, uint64_t offset, uint64_t bytes, const char *what,
                    struct gs_err *e)
{
    if (!buf || offset > buf->bytes || bytes > buf->bytes - offset)
        return gs_err_set(e, GS_USAGE, "%s of %llu bytes at %llu outside a %llu-byte buffer",
                          what, (unsigned long long)bytes, (unsigned long long)offset,
                          (unsigned long long)(buf ? buf->bytes : 0));
    return GS_OK;
}

static int unsupported(const struct gs_device *d, const char *what, struct gs_err *e)
{
    return gs_err_set(e, GS_UNSUPPORTED, "backend '%s' does not implement %s",
                      d->backend->name, what);
}

int gs_dev_blocks_per_unit(struct gs_device *d, enum gs_kernel_id k, unsigned block,
                           unsigned *blocks, char *rule, unsigned rule_size, struct gs_err *e)
{
    if ((unsigned)k >= GS_KERNEL_COUNT)
        return gs_err_set(e, GS_USAGE, "%s: unknown kernel %d", d->backend->name, (int)k);
    return d->backend->blocks_per_unit(d, k, block, blocks, rule, rule_size, e);
}

int gs_dev_predicts_accept(const struct gs_device *d, const struct gs_launch *l, char *why,
                           unsigned why_size)
{
    if (why_size)
        why[0] = '\0';
    return d->backend->predicts_accept(d, l, why, why_size);
}

int gs_dev_alloc(struct gs_device *d, uint64_t bytes, struct gs_buf **out, struct gs_err *e)
{
    return gs_dev_alloc_view(d, 0, bytes, out, e);
}

int gs_dev_alloc_view(struct gs_device *d, uint64_t front, uint64_t view_bytes,
                      struct gs_buf **out, struct gs_err *e)
{
    const uint64_t bytes = front + view_bytes;
    *out = NULL;
    if (bytes < front || bytes > d->max_alloc)
        return gs_err_set(e, GS_NOMEM,
                          "%s: a buffer of %llu bytes exceeds the device's largest allocation "
                          "(%llu bytes)",
                          d->name, (unsigned long long)bytes, (unsigned long long)d->max_alloc);
    struct gs_buf *buf = calloc(1, d->backend->buffer_size);
    if (!buf)
        return gs_err_set(e, GS_NOMEM, "out of memory for a buffer record");
    buf->dev = d;
    buf->bytes = bytes;
    buf->front = front;
    int rc = d->backend->alloc(d, buf, e);
    if (rc != GS_OK) {
        free(buf);
        return rc;
    }
    buf->next = d->core->buffers;
    if (d->core->buffers)
        d->core->buffers->prev = buf;
    d->core->buffers = buf;
    *out = buf;
    return GS_OK;
}

int gs_dev_write(struct gs_device *d, struct gs_buf *buf, uint64_t offset, const void *src,
                 uint64_t bytes, struct gs_err *e)
{
    if (buf)
        offset += buf->front;
    int rc = in_range(buf, offset, bytes, "write", e);
    if (rc != GS_OK || bytes == 0)
        return rc;
    return d->backend->write(d, buf, offset, src, bytes, e);
}

int gs_dev_read(struct gs_device *d, struct gs_buf *buf, uint64_t offset, void *dst,
                uint64_t bytes, struct gs_err *e)
{
    if (buf)
        offset += buf->front;
    int rc = in_range(buf, offset, bytes, "read", e);
    if (rc != GS_OK || bytes == 0)
        return rc;
    return d->backend->read(d, buf, offset, dst, bytes, e);
}


int gs_dev_fill32(struct gs_device *d, struct gs_buf *buf, uint64_t offset, uint64_t bytes,
                  uint32_t pattern, struct gs_err *e)
{
    if (!d->backend->fill32)
        return unsupported(d, "fill32", e);
    if (offset % 4 || bytes % 4)
        return gs_err_set(e, GS_USAGE, "fill32: offset %llu and size %llu must be multiples of 4",
                          (unsigned long long)offset, (unsigned long long)bytes);
    if (buf)
        offset += buf->front;
    int rc = in_range(buf, offset, bytes, "fill", e);
    if (rc != GS_OK)
        return rc;
    return bytes ? d->backend->fill32(d, buf, offset, bytes, pattern, e) : GS_OK;
}

int gs_dev_front_write(struct gs_device *d, struct gs_buf *buf, const void *src, struct gs_err *e)
{
    int rc = in_range(buf, 0, buf ? buf->front : 0, "front write", e);
    if (rc != GS_OK || buf->front == 0)
        return rc;
    return d->backend->write(d, buf, 0, src, buf->front, e);
}

int gs_dev_front_read(struct gs_device *d, struct gs_buf *buf, void *dst, struct gs_err *e)
{
    int rc = in_range(buf, 0, buf ? buf->front : 0, "front read", e);
    if (rc != GS_OK || buf->front == 0)
        return rc;
    return d->backend->read(d, buf, 0, dst, buf->front, e);
}

int gs_dev_pin(struct gs_device *d, void *ptr, uint64_t bytes, struct gs_err *e)
{
    if (!d->backend->pin || !d->backend->unpin)
        return gs_err_set(e, GS_UNSUPPORTED, "%s cannot page-lock memory in place",
                          d->backend->name);
    return d->backend->pin(d, ptr, bytes, e);
}

void gs_dev_unpin(struct gs_device *d, void *ptr)
{
    if (d->backend->pin && d->backend->unpin)
        d->backend->unpin(d, ptr);
}

int gs_dev_staging_alloc(struct gs_device *d, uint64_t bytes, void **ptr, void **handle,
                         int *pinned, struct gs_err *e)
{
    *ptr = *handle = NULL;
    *pinned = 0;
    if (d->backend->staging_alloc && d->backend->staging_free) {
        int rc = d->backend->staging_alloc(d, bytes, ptr, handle, e);
        if (rc != GS_NOMEM) {
            *pinned = rc == GS_OK;
            return rc;
        }
        /* Page-locked memory is scarce; plain memory only costs speed. */
        gs_err_clear(e);
    }
    *ptr = malloc(bytes ? bytes : 1);
    if (!*ptr)
        return gs_err_set(e, GS_NOMEM, "cannot allocate a staging area of %llu bytes",
                          (unsigned long long)bytes);
    return GS_OK;
}

void gs_dev_staging_free(struct gs_device *d, void *ptr, void *handle, int pinned)
{
    if (!ptr)
        return;
    if (pinned)
        d->backend->staging_free(d, ptr, handle);
    else
        free(ptr);
}

int gs_dev_mem_available(struct gs_device *d, uint64_t *bytes, struct gs_err *e)
{
    *bytes = 0;
    if (!d->backend->mem_available)
        return unsupported(d, "mem_available", e);
    return d->backend->mem_available(d, bytes, e);
}

int gs_dev_probe_grid(struct gs_device *d, const struct gs_grid_probe **p, struct gs_err *e)
{
    struct gs_device_core *c = d->core;
    *p = &c->probe;
    if (c->probed)
        return GS_OK;
    memset(&c->probe, 0, sizeof c->probe);
    if (!d->backend->probe_grid) {
        c->probe.status = GS_UNSUPPORTED;
        snprintf(c->probe.why, sizeof c->probe.why,
                 "the %s backend has no grid probe: its prelude computes T in 64 bits",
                 d->backend->name);
    } else {
        int rc = d->backend->probe_grid(d, &c->probe, e);
        if (rc != GS_OK)
            return rc;
    }
    c->probed = 1;
    return GS_OK;
}

void gs_dev_free(struct gs_device *d, struct gs_buf *buf)
{
    if (!buf)
        return;
    d->backend->free(d, buf);
    if (buf->prev)
        buf->prev->next = buf->next;
    else
        d->core->buffers = buf->next;
    if (buf->next)
        buf->next->prev = buf->prev;
    free(buf);
}

int gs_dev_launch(struct gs_device *d, const struct gs_launch *l, int timed,
                  struct gs_launch_result *r, struct gs_err *e)
{
    char why[sizeof r->api_message];
    *r = (struct gs_launch_result){0};
    if (timed && !(d->caps & GS_CAP_TIMING))
        return unsupported(d, "timed launches", e);
    if (l->user) {
        if (!d->backend->user_launch)
            return unsupported(d, "user kernels", e);
        return d->backend->user_launch(d, l, timed, r, e);
    }
    if ((unsigned)l->kernel >= GS_KERNEL_COUNT)
        return gs_err_set(e, GS_USAGE, "%s: unknown kernel %d", d->backend->name, (int)l->kernel);
    if (l->grid_y > 1 && !(d->caps & GS_CAP_2D))
        return unsupported(d, "2D launches", e);
    if (l->count && !(d->caps & GS_CAP_COUNT))
        return unsupported(d, "the count build", e);
    if (l->trace && !(d->caps & GS_CAP_TRACE))
        return unsupported(d, "the trace build", e);
    if (l->trace && l->count)
        return gs_err_set(e, GS_USAGE, "a launch runs the count build or the trace build, not both");
    if (l->type != GS_TYPE_FLOAT && l->type != GS_TYPE_DOUBLE)
        return gs_err_set(e, GS_USAGE, "%s: unknown element type %d", d->backend->name,
                          (int)l->type);
    if (l->type == GS_TYPE_DOUBLE && (l->count || l->trace))
        return gs_err_set(e, GS_USAGE, "the count and trace builds are float only; launch them "
                                       "with type float");
    if (l->type == GS_TYPE_DOUBLE && !gs_dev_has_f64(d, why, sizeof why))
        return gs_err_set(e, GS_UNSUPPORTED, "%s device %s cannot run double: %s",
                          d->backend->name, d->name, why);
    /* The suite's own caps are kept here, once, for every backend. */
    if (gs_dev_predicts_accept(d, l, why, sizeof why) == GS_NOT_SENT) {
        r->not_sent = 1;
        gs_strlcpy(r->api_error, "not sent", sizeof r->api_error);
        gs_strlcpy(r->api_message, why, sizeof r->api_message);
        return GS_OK;
    }
    return d->backend->launch(d, l, timed, r, e);
}

int gs_dev_grant(struct gs_device *d, struct gs_launch *l, struct gs_err *e)
{
    char why[8];
    uint64_t grid = 0, block = 0;
    /* Nothing is granted for a launch that never reaches the API. */
    if (!d->backend->grant || l->user || l->asked_grid ||
        (l->grid_y > 1 && !(d->caps & GS_CAP_2D)) || (l->count && !(d->caps & GS_CAP_COUNT)) ||
        (l->trace && !(d->caps & GS_CAP_TRACE)) ||
        (l->type == GS_TYPE_DOUBLE && !gs_dev_has_f64(d, NULL, 0)) ||
        gs_dev_predicts_accept(d, l, why, sizeof why) != GS_ACCEPTS)
        return GS_OK;
    const int rc = d->backend->grant(d, l, &grid, &block, e);
    if (rc != GS_OK)
        return rc;
    l->asked_grid = l->grid;
    l->asked_block = l->block;
    l->grid = grid;
    l->block = block;
    l->global = grid * block;
    return GS_OK;
}

int gs_dev_copy(struct gs_device *d, struct gs_buf *dst, struct gs_buf *src, uint64_t bytes,
                double *ms, struct gs_err *e)
{
    if (!(d->caps & GS_CAP_COPY) || !d->backend->copy)
        return unsupported(d, "a device-to-device copy", e);
    *ms = 0.0;
    if (!dst || !src || dst->front != src->front)
        return gs_err_set(e, GS_USAGE, "copy: the two buffers' views start at different offsets");
    /* The API copies from the allocations' starts: the fronts and the first
     * `bytes` of the views (the workspace keeps guard bits in every front, so
     * the copy leaves the destination's front guard as it was). */
    const uint64_t raw = bytes ? bytes + dst->front : 0;
    int rc = in_range(dst, 0, raw, "copy", e);
    if (rc == GS_OK)
        rc = in_range(src, 0, raw, "copy", e);
    if (rc != GS_OK || bytes == 0)
        return rc;
    return d->backend->copy(d, dst, src, raw, ms, e);
}

int gs_dev_grid(struct gs_device *d, enum gs_kernel_id kernel, unsigned block, uint64_t *grid,
                char *rule, unsigned rule_size, struct gs_err *e)
{
    unsigned per_unit = 0;
    int rc = gs_dev_blocks_per_unit(d, kernel, block, &per_unit, rule, rule_size, e);
    if (rc != GS_OK)
        return rc;
    if (per_unit == 0)
        return gs_err_set(e, GS_API, "%s: no block of %u threads fits on a compute unit (%s)",
                          d->name, block, rule);
    *grid = (uint64_t)per_unit * d->compute_units;
    if (*grid == 0)
        return gs_err_set(e, GS_API, "%s: the device reports no compute units", d->name);
    if (*grid > d->max_grid)
        *grid = d->max_grid; /* the launch must stay legal; rule says how G was found */
    return GS_OK;
}

int gs_dev_timeline_check(const struct gs_device *d, char *why, unsigned why_size)
{
    const struct gs_backend *b = d->backend;
    if (d->no_timeline[0])
        gs_strlcpy(why, d->no_timeline, why_size);
    else if (!gs_backend_has_timeline(b))
        snprintf(why, why_size, "the %s backend does not record per-unit finish times (no "
                 "timeline member)", b->name);
    else
        return GS_OK;
    return GS_UNSUPPORTED;
}

/* What a backend's record must satisfy, whatever the API: every block of
 * the launch counted on exactly one unit, no more units than the device
 * has, times in order. */
static int timeline_consistent(const struct gs_device *d, const struct gs_launch *l,
                               const struct gs_timeline *t, struct gs_err *e)
{
    uint64_t blocks = 0, first = UINT64_MAX;
    if (t->nunits == 0 || t->nunits > GS_TIMELINE_MAX_UNITS ||
        (d->compute_units && t->nunits > d->compute_units))
        return gs_err_set(e, GS_API, "%s: the timeline names %u compute units; the device has "
                                     "%u", d->backend->name, t->nunits, d->compute_units);
    for (unsigned i = 0; i < t->nunits; ++i) {
        const struct gs_timeline_unit *u = &t->unit[i];
        if (u->blocks == 0 || u->end_ns < u->start_ns)
            return gs_err_set(e, GS_API, "%s: the timeline's unit %u has %u blocks, start %llu ns "
                                         "and finish %llu ns",
                              d->backend->name, u->id, u->blocks,
                              (unsigned long long)u->start_ns, (unsigned long long)u->end_ns);
        for (unsigned k = 0; k < i; ++k)
            if (t->unit[k].id == u->id)
                return gs_err_set(e, GS_API, "%s: the timeline names unit %u twice",
                                  d->backend->name, u->id);
        blocks += u->blocks;
        if (u->start_ns < first)
            first = u->start_ns;
    }
    const uint64_t grid = l->grid * (l->grid_y ? l->grid_y : 1);
    if (blocks != grid)
        return gs_err_set(e, GS_API, "%s: the timeline counts %llu blocks in a launch of %llu",
                          d->backend->name, (unsigned long long)blocks,
                          (unsigned long long)grid);
    if (first != 0)
        return gs_err_set(e, GS_API, "%s: the timeline's first start is %llu ns, not 0",
                          d->backend->name, (unsigned long long)first);
    return GS_OK;
}

int gs_dev_timeline(struct gs_device *d, const struct gs_launch *l, struct gs_launch_result *r,
                    struct gs_timeline *t, struct gs_err *e)
{
    char why[200];
    *r = (struct gs_launch_result){0};
    memset(t, 0, sizeof *t);
    if (gs_dev_timeline_check(d, why, sizeof why) != GS_OK)
        return gs_err_set(e, GS_UNSUPPORTED, "%s", why);
    if ((unsigned)l->kernel >= GS_KERNEL_COUNT)
        return gs_err_set(e, GS_USAGE, "%s: unknown kernel %d", d->backend->name, (int)l->kernel);
    if (l->user || l->count || l->trace || l->grid_y > 1)
        return gs_err_set(e, GS_USAGE, "a timeline is recorded for a 1D launch of a catalogue "
                                       "kernel's normal build");
    if (gs_dev_predicts_accept(d, l, why, sizeof why) != GS_ACCEPTS)
        return gs_err_set(e, GS_USAGE, "%s: a timeline needs a launch the API takes; "
                                       "<<<%llu, %llu>>> is not (%s)",
                          d->backend->name, (unsigned long long)l->grid,
                          (unsigned long long)l->block, why);
    const int rc = d->backend->timeline(d, l, r, t, e);
    if (rc != GS_OK || !r->accepted)
        return rc;
    return timeline_consistent(d, l, t, e);
}

int gs_dev_user_build(struct gs_device *d, const struct gs_user_source *src,
                      struct gs_user_kernel **k, struct gs_build_info *info, struct gs_err *e)
{
    *k = NULL;
    if (!gs_backend_has_user_kernels(d->backend))
        return unsupported(d, "user kernels", e);
    return d->backend->user_build(d, src, k, info, e);
}

int gs_dev_user_count(struct gs_device *d, const struct gs_launch *l, uint32_t *count,
                      uint32_t *first, uint32_t *last, struct gs_err *e)
{
    if (!d->backend->user_count)
        return gs_err_set(e, GS_UNSUPPORTED, "%s cannot run one thread of a launch alone, so it "
                                             "does not count a user kernel's writes; the host "
                                             "backend does (--backend host, a .gs file)",
                          d->backend->name);
    if (!l->user || l->grid * l->block > 0xFFFFFFFFull)
        return gs_err_set(e, GS_USAGE, "%s: counting writes needs a user kernel of fewer than "
                                       "2^32 threads", d->backend->name);
    return d->backend->user_count(d, l, count, first, last, e);
}

int gs_backend_has_counters(const struct gs_backend *b)
{
    return b->counters != NULL;
}

int gs_dev_counters(struct gs_device *d, const char *library, const char *const *metrics,
                    int nmetrics, int (*run)(void *ctx, struct gs_err *e), void *ctx,
                    double *values, int max_ranges, int *nranges, char *source,
                    size_t source_size, struct gs_err *e)
{
    *nranges = 0;
    if (source_size)
        source[0] = '\0';
    if (!d->backend->counters)
        return gs_err_set(e, GS_UNSUPPORTED, "%s reads no hardware counters",
                          d->backend->name);
    if (nmetrics <= 0 || max_ranges <= 0)
        return gs_err_set(e, GS_USAGE, "%s: counters of no metric or no range",
                          d->backend->name);
    return d->backend->counters(d, library, metrics, nmetrics, run, ctx, values, max_ranges,
                                nranges, source, source_size, e);
}

void gs_dev_user_free(struct gs_device *d, struct gs_user_kernel *k)
{
    if (k && gs_backend_has_user_kernels(d->backend))
        d->backend->user_free(d, k);
}

int gs_backend_user_compile(const struct gs_backend *b, const struct gs_user_source *src,
                            const char *target, struct gs_build_info *info, struct gs_err *e)
{
    if (!gs_backend_can_compile_user(b))
        return gs_err_set(e, GS_UNSUPPORTED, "backend '%s' cannot compile without a device",
                          b->name);
    return b->user_compile(src, target, info, e);
}

void gs_build_info_free(struct gs_build_info *info)
{
    free(info->log);
    info->log = NULL;
}

int gs_resource_id(const struct gs_device *d, char *buf, unsigned size)
{
    unsigned domain, bus, dev, fn;
    if (!d->is_gpu || sscanf(d->pci, "%x:%x:%x.%x", &domain, &bus, &dev, &fn) != 4)
        return 0;
    /* CTest ids: lowercase letters, digits and underscores only. */
    snprintf(buf, size, "pci_%04x_%02x_%02x_%x", domain, bus, dev, fn);
    return 1;
}
