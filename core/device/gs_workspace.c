/* SPDX-License-Identifier: MIT */
/* clock_gettime() is POSIX. */
#define _POSIX_C_SOURCE 200809L

#include "gs_workspace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gs_device.h"
#include "gs_parallel.h"
#include "gs_sysmem.h"

/* 64 MiB a transfer: large enough for full PCIe speed, small enough that
 * two staging areas cost nothing (16 Mi floats, 8 Mi doubles). */
#define GS_STAGE_BYTES (64ull << 20)
/* Work items per pool thread and chunk: enough that a slow thread does not
 * hold the others up. */
#define GS_PARTS_PER_THREAD 4u
#define GS_MAX_PARTS 256u
/* Elements read back at each sampled place to prove a fill. */
#define GS_SAMPLE_ELEMS 1024ull

uint64_t gs_buffer_bytes(uint64_t n)
{
    return gs_buffer_bytes_of(n, GS_TYPE_FLOAT);
}

uint64_t gs_buffer_bytes_of(uint64_t n, enum gs_type type)
{
    return (GS_FRONT_ELEMS + n + GS_GUARD_ELEMS) * gs_type_size(type);
}

static void progress(const struct gs_workspace *w, const char *phase, uint64_t done,
                     uint64_t total)
{
    gs_progress_tell(w->progress, w->label, phase, done, total, NULL);
}

static unsigned parts_for(const struct gs_workspace *w, uint64_t count)
{
    uint64_t parts = (uint64_t)gs_pool_threads(w->pool) * GS_PARTS_PER_THREAD;
    if (parts > GS_MAX_PARTS)
        parts = GS_MAX_PARTS;
    /* Small spans are not worth waking threads for. */
    const uint64_t by_size = count / 65536u + 1u;
    return (unsigned)(parts < by_size ? parts : by_size);
}

/* Part k of `parts` equal slices of [0, count). */
static void slice(uint64_t count, unsigned parts, unsigned k, uint64_t *lo, uint64_t *hi)
{
    *lo = count / parts * k + (k < count % parts ? k : count % parts);
    *hi = *lo + count / parts + (k < count % parts);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* gs_dev_write and gs_dev_read of a bulk transfer, timed into w->copies. */
static int timed_write(struct gs_workspace *w, struct gs_buf *buf, uint64_t offset,
                       const void *src, uint64_t bytes, struct gs_err *e)
{
    const double t0 = now_s();
    const int rc = gs_dev_write(w->dev, buf, offset, src, bytes, e);
    w->copies.up_s += now_s() - t0;
    w->copies.up_bytes += rc == GS_OK ? bytes : 0;
    return rc;
}

static int timed_read(struct gs_workspace *w, struct gs_buf *buf, uint64_t offset, void *dst,
                      uint64_t bytes, struct gs_err *e)
{
    const double t0 = now_s();
    const int rc = gs_dev_read(w->dev, buf, offset, dst, bytes, e);
    w->copies.down_s += now_s() - t0;
    w->copies.down_bytes += rc == GS_OK ? bytes : 0;
    return rc;
}

static void rate_text(uint64_t bytes, double s, char *buf, size_t size)
{
    if (bytes == 0 || s <= 0.0)
        snprintf(buf, size, "not measured");
    else
        snprintf(buf, size, "%.1f GB/s (%.2f GB in %.3f s)", (double)bytes / s / 1e9,
                 (double)bytes / 1e9, s);
}

int gs_copy_rate_line(const struct gs_copy_rate *c, uint64_t min_bytes, char *buf, size_t size)
{
    char up[96], down[96];
    if (size)
        buf[0] = '\0';
    if (c->up_bytes + c->down_bytes < min_bytes || !size)
        return 0;
    rate_text(c->up_bytes, c->up_s, up, sizeof up);
    rate_text(c->down_bytes, c->down_s, down, sizeof down);
    snprintf(buf, size,
             "copies measured: host to device %s, device to host %s; time by phase: inputs "
             "generated %.3f s beyond the upload, uploaded %.3f s, poisoned %.3f s, launched "
             "%.3f s, read back %.3f s, compared %.3f s beyond the read-back",
             up, down, c->inputs_wait_s, c->up_s, c->poison_s, c->launch_s, c->down_s,
             c->verify_wait_s);
    return 1;
}

/* ---- inputs ------------------------------------------------------------ */

struct input_job {
    void *a, *b;
    enum gs_type type;
    uint64_t first, count;
    unsigned parts;
};

static void input_part(void *ctx, unsigned k)
{
    const struct input_job *j = ctx;
    uint64_t lo, hi;
    slice(j->count, j->parts, k, &lo, &hi);
    if (j->type == GS_TYPE_DOUBLE)
        gs_fill_inputs_f64_at((double *)j->a + lo, (double *)j->b + lo, j->first + lo, hi - lo);
    else
        gs_fill_inputs_at((float *)j->a + lo, (float *)j->b + lo, j->first + lo, hi - lo);
}

/* Chunk [off, off + count) of a and b into staging area s: a in its first
 * half, b in its second. */
static void input_chunk(const struct gs_workspace *w, int s, uint64_t half, uint64_t off,
                        uint64_t count, struct input_job *j)
{
    *j = (struct input_job){w->stage[s], (char *)w->stage[s] + half * w->elem, w->type, off,
                            count, parts_for(w, count)};
}

/* a and b for [0, total), total <= n + guard.
 *
 * When they fit one staging area each (n + guard <= stage_elems), they are
 * generated on every core, a into one area and b into the other, and each
 * buffer is written by one transfer.
 *
 * Larger, a chunk at a time: the pool generates chunk k + 1 on every core
 * into one staging area (a in its first half, b in its second) while this
 * thread uploads chunk k from the other, so that the generation hides
 * behind the transfers. The writes are blocking (gs_dev_write returns once
 * the API has read the source), and the pool is waited for before a staging
 * area is generated into again, on every path out of the loop.
 *
 * oclgrind's uninitialized-value check (scripts/oclgrind.sh) cannot follow
 * a buffer written by more than one transfer: its shadow of a buffer is
 * replaced, sized to the transfer, at every host write (oclgrind 21.10,
 * ShadowMemory::allocate), so all but the last chunk read as
 * uninitialized. The one-transfer path above is what the sizes of that
 * check (at most 4 Mi elements) take. */
static int upload_inputs(struct gs_workspace *w, uint64_t total, struct gs_err *e)
{
    int rc = GS_OK, s = 0;
    w->inputs_seed = gs_inputs_seed();
    w->inputs_n = 0;
    if (total <= w->stage_elems) {
        struct input_job j = {w->stage[0], w->stage[1], w->type, 0, total, parts_for(w, total)};
        const double t0 = now_s();
        gs_pool_run(w->pool, input_part, &j, j.parts);
        w->copies.inputs_wait_s += now_s() - t0;
        rc = timed_write(w, w->da, 0, w->stage[0], total * w->elem, e);
        if (rc == GS_OK)
            rc = timed_write(w, w->db, 0, w->stage[1], total * w->elem, e);
        progress(w, "inputs", total, total);
        w->inputs_n = rc == GS_OK ? total : 0;
        return rc;
    }
    const uint64_t half = w->stage_elems / 2;
    struct input_job jobs[2];
    const double t0 = now_s();
    input_chunk(w, 0, half, 0, half, &jobs[0]);
    gs_pool_run(w->pool, input_part, &jobs[0], jobs[0].parts);
    w->copies.inputs_wait_s += now_s() - t0;
    for (uint64_t off = 0; off < total && rc == GS_OK; off += half, s ^= 1) {
        const uint64_t count = jobs[s].count, next = off + half;
        const int ahead = next < total;
        if (ahead) {
            input_chunk(w, s ^ 1, half, next, total - next < half ? total - next : half,
                        &jobs[s ^ 1]);
            gs_pool_start(w->pool, input_part, &jobs[s ^ 1], jobs[s ^ 1].parts);
        }
        rc = timed_write(w, w->da, off * w->elem, jobs[s].a, count * w->elem, e);
        if (rc == GS_OK)
            rc = timed_write(w, w->db, off * w->elem, jobs[s].b, count * w->elem, e);
        if (ahead) {
            const double t1 = now_s();
            gs_pool_wait(w->pool);
            w->copies.inputs_wait_s += now_s() - t1;
        }
        progress(w, "inputs", off + count, total);
    }
    w->inputs_n = rc == GS_OK ? total : 0;
    return rc;
}

int gs_workspace_reseed(struct gs_workspace *w, uint64_t seed, uint64_t n, struct gs_err *e)
{
    const uint64_t total = (n < w->n ? n : w->n) + GS_GUARD_ELEMS;
    gs_inputs_set_seed(seed);
    if (seed == w->inputs_seed && total <= w->inputs_n)
        return GS_OK;
    return upload_inputs(w, total, e);
}

/* ---- open and close ---------------------------------------------------- */

/* `words` 32-bit words of `bits` (an element is one word, or two). */
static void fill_bits(void *dst, uint64_t words, uint32_t bits)
{
    char *p = dst;
    for (uint64_t i = 0; i < words; ++i)
        memcpy(p + 4 * i, &bits, sizeof bits);
}

/* The guard's bits into buf's front, from a staging area. */
static int write_front_guard(struct gs_workspace *w, struct gs_buf *buf, struct gs_err *e)
{
    fill_bits(w->stage[0], GS_FRONT_ELEMS * (w->elem / 4), GS_GUARD_BITS);
    return gs_dev_front_write(w->dev, buf, w->stage[0], e);
}

/* The inputs' fronts hold the guard's bits too: never read uninitialized,
 * and an API copy from a's allocation start to out's (gs_dev_copy) leaves
 * out's front guard intact. */
static int guard_fronts(struct gs_workspace *w, struct gs_err *e)
{
    int rc = write_front_guard(w, w->da, e);
    if (rc == GS_OK)
        rc = write_front_guard(w, w->db, e);
    return rc;
}

/* One chunk's comparison: values against the closed form, or the count
 * build's counters against the model (want != NULL). */
struct verify_job {
    const void *out;
    enum gs_type type;
    uint64_t first, count;
    enum gs_op op;
    gs_count_fn want;
    const void *want_ctx;
    unsigned parts;
    struct gs_vpart part[GS_MAX_PARTS];
    struct gs_count_verdict cpart[GS_MAX_PARTS];
};

struct gs_verify_jobs {
    struct verify_job job[2];
};

/* The pool's threads: one a core, less the core of the thread that drives
 * the API's copies (an API may spin while it waits for its DMA: CUDA's
 * default on a host with more cores than contexts), so that the comparison
 * and the generation never take the core that keeps the copies going. A
 * host of one or two cores keeps them all: there the comparison, not a
 * copy, is the bottleneck. */
static unsigned pool_threads(void)
{
    const unsigned cpus = gs_host_cpus();
    return cpus > 2 ? cpus - 1 : cpus;
}

int gs_workspace_open(struct gs_workspace *w, struct gs_device *dev, uint64_t n,
                      const struct gs_progress *prog, struct gs_err *e)
{
    return gs_workspace_open_as(w, dev, n, GS_TYPE_FLOAT, prog, e);
}

int gs_workspace_open_as(struct gs_workspace *w, struct gs_device *dev, uint64_t n,
                         enum gs_type type, const struct gs_progress *prog, struct gs_err *e)
{
    /* Each buffer's view is n elements and the guard past them; the front
     * guard before it is the allocation's first GS_FRONT_ELEMS elements. All
     * three have it, so that an API's copy from one allocation's start to
     * another's moves the views in step. */
    const uint64_t front = GS_FRONT_ELEMS * (uint64_t)gs_type_size(type);
    const uint64_t bytes = gs_buffer_bytes_of(n, type) - front;
    char why[200];
    int rc;
    memset(w, 0, sizeof *w);
    if (type == GS_TYPE_DOUBLE && !gs_dev_has_f64(dev, why, sizeof why))
        return gs_err_set(e, GS_UNSUPPORTED, "%s device %s cannot run double: %s",
                          dev->backend->name, dev->name, why);
    w->dev = dev;
    w->n = n;
    w->type = type;
    w->elem = gs_type_size(type);
    w->progress = prog;
    snprintf(w->label, sizeof w->label, "%s %s", dev->backend->name, dev->name);
    const uint64_t stage_max = GS_STAGE_BYTES / w->elem;
    w->stage_elems = n + GS_GUARD_ELEMS < stage_max ? n + GS_GUARD_ELEMS : stage_max;
    w->jobs = calloc(1, sizeof *w->jobs);
    if (!w->jobs) {
        rc = gs_err_set(e, GS_NOMEM, "out of memory");
        goto fail;
    }
    if ((rc = gs_pool_open(&w->pool, pool_threads(), e)) != GS_OK)
        goto fail;
    for (int k = 0; k < 2; ++k)
        if ((rc = gs_dev_staging_alloc(dev, w->stage_elems * w->elem, &w->stage[k],
                                       &w->stage_handle[k], &w->stage_pinned[k], e)) != GS_OK)
            goto fail;
    if ((rc = gs_dev_alloc_view(dev, front, bytes, &w->da, e)) != GS_OK ||
        (rc = gs_dev_alloc_view(dev, front, bytes, &w->db, e)) != GS_OK ||
        (rc = gs_dev_alloc_view(dev, front, bytes, &w->dout, e)) != GS_OK ||
        (rc = guard_fronts(w, e)) != GS_OK || (rc = upload_inputs(w, n + GS_GUARD_ELEMS, e)) != GS_OK)
        goto fail;
    return GS_OK;
fail:
    gs_workspace_close(w);
    return rc;
}

void gs_workspace_close(struct gs_workspace *w)
{
    if (w->dev) {
        gs_dev_free(w->dev, w->da);
        gs_dev_free(w->dev, w->db);
        gs_dev_free(w->dev, w->dout);
        for (int k = 0; k < 2; ++k)
            gs_dev_staging_free(w->dev, w->stage[k], w->stage_handle[k], w->stage_pinned[k]);
    }
    gs_pool_close(w->pool);
    free(w->jobs);
    memset(w, 0, sizeof *w);
}

void gs_workspace_bind(const struct gs_workspace *w, struct gs_launch *l)
{
    l->a = w->da;
    l->b = w->db;
    l->out = w->dout;
}

/* ---- poison ------------------------------------------------------------ */

/* Without an API fill: upload the poison from a staging area. */
static int upload_poison(struct gs_workspace *w, uint64_t n, uint32_t pattern, struct gs_err *e)
{
    const unsigned words = w->elem / 4;
    int rc = GS_OK;
    fill_bits(w->stage[0], w->stage_elems * words, pattern);
    for (uint64_t off = 0; off < n && rc == GS_OK; off += w->stage_elems) {
        const uint64_t count = n - off < w->stage_elems ? n - off : w->stage_elems;
        rc = gs_dev_write(w->dev, w->dout, off * w->elem, w->stage[0], count * w->elem, e);
        progress(w, "poison", off + count, n);
    }
    fill_bits(w->stage[0], GS_GUARD_ELEMS * words, GS_GUARD_BITS);
    if (rc == GS_OK)
        rc = gs_dev_write(w->dev, w->dout, n * w->elem, w->stage[0], GS_GUARD_ELEMS * w->elem,
                          e);
    return rc;
}

/* Read `count` elements at `first` and check that every 32-bit word of
 * them holds `bits`. */
static int prove_span(struct gs_workspace *w, uint64_t first, uint64_t count, uint32_t bits,
                      struct gs_err *e)
{
    const char *tmp = w->stage[1];
    const unsigned words = w->elem / 4;
    int rc = gs_dev_read(w->dev, w->dout, first * w->elem, w->stage[1], count * w->elem, e);
    for (uint64_t i = 0; rc == GS_OK && i < count * words; ++i) {
        uint32_t got;
        memcpy(&got, tmp + 4 * i, sizeof got);
        if (got != bits)
            rc = gs_err_set(e, GS_API,
                            "%s: the API's fill reported success but element %llu reads "
                            "0x%08x, not 0x%08x: the output cannot be trusted",
                            w->dev->backend->name, (unsigned long long)(first + i / words), got,
                            bits);
    }
    return rc;
}

/* The head, the tail, five places between and the whole guard. */
static int prove_fill(struct gs_workspace *w, uint64_t n, uint32_t pattern, struct gs_err *e)
{
    const uint64_t span = n < GS_SAMPLE_ELEMS ? n : GS_SAMPLE_ELEMS;
    int rc = prove_span(w, 0, span, pattern, e);
    for (int k = 1; k <= 5 && rc == GS_OK && n > 2 * span; ++k)
        rc = prove_span(w, (n - span) / 6 * (uint64_t)k, span, pattern, e);
    if (rc == GS_OK)
        rc = prove_span(w, n - span, span, pattern, e);
    if (rc == GS_OK)
        rc = prove_span(w, n, GS_GUARD_ELEMS, GS_GUARD_BITS, e);
    return rc;
}

/* The guard before out[0]: written from a staging area (a few KiB, the
 * same on every backend) and read back whole. */
static int poison_front(struct gs_workspace *w, struct gs_err *e)
{
    const uint64_t words = GS_FRONT_ELEMS * (w->elem / 4);
    int rc = write_front_guard(w, w->dout, e);
    if (rc != GS_OK)
        return rc;
    rc = gs_dev_front_read(w->dev, w->dout, w->stage[1], e);
    for (uint64_t i = 0; rc == GS_OK && i < words; ++i) {
        uint32_t got;
        memcpy(&got, (const char *)w->stage[1] + 4 * i, sizeof got);
        if (got != GS_GUARD_BITS)
            rc = gs_err_set(e, GS_API,
                            "%s: the guard before the output was written but reads 0x%08x, "
                            "not 0x%08x: the output cannot be trusted",
                            w->dev->backend->name, got, GS_GUARD_BITS);
    }
    return rc;
}

/* out[0, n) = pattern, the guard after it = GS_GUARD_BITS, proved; the
 * guard before it likewise. */
static int poison_untimed(struct gs_workspace *w, uint64_t n, uint32_t pattern, struct gs_err *e)
{
    const int front = poison_front(w, e);
    if (front != GS_OK)
        return front;
    int rc = gs_dev_fill32(w->dev, w->dout, 0, n * w->elem, pattern, e);
    if (rc == GS_OK)
        rc = gs_dev_fill32(w->dev, w->dout, n * w->elem, GS_GUARD_ELEMS * w->elem, GS_GUARD_BITS,
                           e);
    if (rc == GS_UNSUPPORTED) {
        gs_err_clear(e);
        w->filled_on_device = 0;
        return upload_poison(w, n, pattern, e);
    }
    w->filled_on_device = 1;
    return rc == GS_OK ? prove_fill(w, n, pattern, e) : rc;
}

static int poison_with(struct gs_workspace *w, uint64_t n, uint32_t pattern, struct gs_err *e)
{
    const double t0 = now_s();
    const int rc = poison_untimed(w, n, pattern, e);
    w->copies.poison_s += now_s() - t0;
    return rc;
}

/* gs_dev_launch, timed into w->copies. */
static int timed_launch(struct gs_workspace *w, const struct gs_launch *l,
                        struct gs_launch_result *got, struct gs_err *e)
{
    const double t0 = now_s();
    const int rc = gs_dev_launch(w->dev, l, 0, got, e);
    w->copies.launch_s += now_s() - t0;
    return rc;
}

int gs_workspace_poison(struct gs_workspace *w, uint64_t n, struct gs_err *e)
{
    return poison_with(w, n, GS_POISON_BITS, e);
}

int gs_workspace_poison_finite(struct gs_workspace *w, uint64_t n, struct gs_err *e)
{
    if (w->type != GS_TYPE_FLOAT)
        return gs_err_set(e, GS_USAGE, "the finite poison is a float; run it in a float workspace");
    return poison_with(w, n, GS_FINITE_POISON_BITS, e);
}

/* ---- read back and compare --------------------------------------------- */

static void verify_part(void *ctx, unsigned k)
{
    struct verify_job *j = ctx;
    uint64_t lo, hi;
    slice(j->count, j->parts, k, &lo, &hi);
    if (j->want)
        gs_count_span((const uint32_t *)j->out + lo, j->first + lo, hi - lo, j->want, j->want_ctx,
                      &j->cpart[k]);
    else
        gs_verify_span_as(j->type, (const char *)j->out + lo * gs_type_size(j->type), NULL,
                          j->op, j->first + lo, hi - lo, &j->part[k]);
}

/* Where one stream's results go: a value verdict or a count verdict. */
struct sink {
    const struct gs_launch *l;
    struct gs_verdict *v;
    struct gs_count_verdict *cv;
};

static void merge_job(const struct sink *to, const struct verify_job *j)
{
    for (unsigned k = 0; k < j->parts; ++k) {
        if (to->cv)
            gs_count_merge(&j->cpart[k], to->cv);
        else
            gs_verify_merge(to->l, &j->part[k], to->v);
    }
}

/* Chunk k is read into staging area k % 2 while the pool compares chunk
 * k - 1 in the other; parts are merged in index order. The guard is read
 * last, into guard (GS_GUARD_ELEMS elements of the workspace's type). */
static int stream_out(struct gs_workspace *w, const struct verify_job *proto,
                      const struct sink *to, void *guard, struct gs_err *e)
{
    struct verify_job *jobs = w->jobs->job;
    const uint64_t n = to->l->n;
    int pending = -1, rc = GS_OK, s = 0;
    for (uint64_t off = 0; off < n; off += w->stage_elems, s ^= 1) {
        const uint64_t count = n - off < w->stage_elems ? n - off : w->stage_elems;
        rc = timed_read(w, w->dout, off * w->elem, w->stage[s], count * w->elem, e);
        if (pending >= 0) {
            const double t0 = now_s();
            gs_pool_wait(w->pool);
            w->copies.verify_wait_s += now_s() - t0;
            merge_job(to, &jobs[pending]);
            pending = -1;
        }
        if (rc != GS_OK)
            return rc;
        struct verify_job *j = &jobs[s];
        j->out = w->stage[s];
        j->type = w->type;
        j->first = off;
        j->count = count;
        j->op = proto->op;
        j->want = proto->want;
        j->want_ctx = proto->want_ctx;
        j->parts = parts_for(w, count);
        gs_pool_start(w->pool, verify_part, j, j->parts);
        pending = s;
        progress(w, "read+verify", off + count, n);
    }
    if (pending >= 0) {
        const double t0 = now_s();
        gs_pool_wait(w->pool);
        w->copies.verify_wait_s += now_s() - t0;
        merge_job(to, &jobs[pending]);
    }
    return gs_dev_read(w->dev, w->dout, n * w->elem, guard, GS_GUARD_ELEMS * w->elem, e);
}

/* The guard past n as read back: floats or doubles. */
union guard {
    float f[GS_GUARD_ELEMS];
    double d[GS_GUARD_ELEMS];
};

/* A launch in a workspace of another element type would read and write
 * past its buffers' elements. */
static int check_type(const struct gs_workspace *w, const struct gs_launch *l, struct gs_err *e)
{
    if (l->type == w->type)
        return GS_OK;
    return gs_err_set(e, GS_USAGE, "a %s launch in a workspace of %s elements; open the workspace "
                                   "with the launch's type",
                      gs_type_name(l->type), gs_type_name(w->type));
}

int gs_workspace_verify(struct gs_workspace *w, const struct gs_launch *l, struct gs_verdict *v,
                        struct gs_err *e)
{
    const struct gs_kernel_info *k = gs_kernel_info(l->kernel);
    struct verify_job proto = {0};
    const struct sink to = {l, v, NULL};
    union guard guard;
    int rc = check_type(w, l, e);
    if (rc != GS_OK)
        return rc;
    proto.op = k ? k->op : GS_OP_ADD;
    gs_verify_begin(l, v);
    rc = stream_out(w, &proto, &to, &guard, e);
    if (rc == GS_OK)
        gs_verify_end(l, &guard, v);
    if (rc == GS_OK)
        rc = gs_dev_front_read(w->dev, w->dout, &guard, e);
    if (rc == GS_OK)
        gs_verify_front(l, &guard, v);
    return rc;
}

int gs_checked_count(struct gs_workspace *w, const struct gs_launch *l, gs_count_fn want,
                     const void *want_ctx, struct gs_launch_result *got,
                     struct gs_count_verdict *cv, struct gs_err *e)
{
    struct gs_launch counted = *l;
    struct verify_job proto = {0};
    const struct sink to = {l, NULL, cv};
    union guard guard;
    if (l->n > w->n)
        return gs_err_set(e, GS_USAGE, "a launch over %llu elements in a workspace of %llu",
                          (unsigned long long)l->n, (unsigned long long)w->n);
    if (w->type != GS_TYPE_FLOAT || l->type != GS_TYPE_FLOAT)
        return gs_err_set(e, GS_USAGE, "the count build counts in 32-bit words; run it in a float "
                                       "workspace with a float launch");
    counted.count = 1;
    proto.want = want;
    proto.want_ctx = want_ctx;
    gs_count_begin(l->n, cv);
    int rc = poison_with(w, l->n, GS_COUNT_BASE, e);
    if (rc == GS_OK)
        rc = timed_launch(w, &counted, got, e);
    if (rc == GS_OK && got->accepted)
        rc = stream_out(w, &proto, &to, &guard, e);
    if (rc == GS_OK && got->accepted)
        gs_count_end(guard.f, cv);
    return rc;
}

int gs_checked_trace(struct gs_workspace *w, const struct gs_launch *l, uint32_t *words,
                     struct gs_launch_result *got, uint64_t *guard_hits, struct gs_err *e)
{
    struct gs_launch traced = *l;
    struct gs_count_verdict guard_check;
    float guard[GS_GUARD_ELEMS];
    const uint64_t nwords = GS_TRACE_WORDS * l->n;
    *guard_hits = 0;
    if (l->n > w->n / GS_TRACE_WORDS)
        return gs_err_set(e, GS_USAGE, "a trace over %llu elements in a workspace of %llu words",
                          (unsigned long long)l->n, (unsigned long long)w->n);
    if (w->type != GS_TYPE_FLOAT || l->type != GS_TYPE_FLOAT)
        return gs_err_set(e, GS_USAGE, "the trace build records 32-bit words; run it in a float "
                                       "workspace with a float launch");
    traced.count = 0;
    traced.trace = 1;
    int rc = poison_with(w, nwords, GS_TRACE_EMPTY, e);
    if (rc == GS_OK)
        rc = timed_launch(w, &traced, got, e);
    if (rc != GS_OK || !got->accepted)
        return rc;
    rc = gs_dev_read(w->dev, w->dout, 0, words, nwords * sizeof *words, e);
    if (rc == GS_OK)
        rc = gs_dev_read(w->dev, w->dout, nwords * sizeof *words, guard, sizeof guard, e);
    if (rc == GS_OK) {
        gs_count_begin(0, &guard_check);
        gs_count_end(guard, &guard_check);
        *guard_hits = guard_check.guard_hits;
    }
    return rc;
}

int gs_checked_launch(struct gs_workspace *w, const struct gs_launch *l,
                      struct gs_launch_result *got, struct gs_verdict *v, struct gs_err *e)
{
    if (l->n > w->n)
        return gs_err_set(e, GS_USAGE, "a launch over %llu elements in a workspace of %llu",
                          (unsigned long long)l->n, (unsigned long long)w->n);
    int rc = check_type(w, l, e);
    if (rc == GS_OK)
        rc = gs_workspace_poison(w, l->n, e);
    if (rc == GS_OK)
        rc = timed_launch(w, l, got, e);
    if (rc == GS_OK)
        rc = gs_workspace_verify(w, l, v, e);
    return rc;
}
