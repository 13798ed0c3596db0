/* SPDX-License-Identifier: MIT */
/* The host backend: the reference implementation of the backend interface,
 * against which every other backend's results are compared. (The template
 * to copy for a new backend is tests/stub_backend/: CONTRIBUTING.md,
 * "Adding a backend".)
 *
 * It runs the kernels of kernels/gs_kernels.h as plain C, with CUDA's launch
 * semantics: a launch is grid x block threads, thread (b, t) sees
 * blockIdx.x = b and threadIdx.x = t, and the threads of a block run one
 * after another (legal because no kernel of the suite has a barrier). A
 * large launch spreads its blocks over the cores (the core's worker pool,
 * host_run()), and so do large copies and fills (host_bytes()); the results are the same bit for bit as one core's, so the
 * reference stays the reference. User kernels (`check`): gs_host_user.c.
 *
 * Its launch rules, which predicts_accept() and launch() share:
 *   - a grid of zero blocks is refused, as CUDA refuses it; an empty grid is
 *     not a launch;
 *   - a block of 0 or more than 1024 threads is refused (CUDA's limit);
 *   - a grid of more than 2^20 blocks is never sent (GS_NOT_SENT): the
 *     threads run in turn on the host's few cores, and the cap keeps any
 *     launch to a few seconds;
 *   - a global size that is not grid x block cannot be expressed;
 *   - more than 65535 blocks along y are refused (CUDA's maxGridSize[1]).
 * It runs 2D launches, the count and trace builds and the double build
 * (kernels/gs_kernels.h). */
/* MAP_ANONYMOUS (user kernels' shared output) is not POSIX. */
#define _DEFAULT_SOURCE

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gs_backend.h"
#include "gs_common.h"
#include "gs_host_kernels.h"
#include "gs_parallel.h"
#include "gs_proc.h"
#include "gs_host_private.h"
#include "gs_sysmem.h"

#define HOST_MAX_BLOCK 1024u
#define HOST_MAX_GRID_Y 65535ull       /* CUDA's maxGridSize[1] */

/* The backend's device: the core's record first, then the worker pool that
 * runs a launch's blocks on the cores, opened at the first launch big
 * enough to need it and closed by release(). */
struct host_device {
    struct gs_device base;
    struct gs_pool *pool;
    int pool_failed; /* no worker thread could be started: run on this one */
};
GS_DEVICE_STRUCT(struct host_device);


static int host_open(struct gs_device_list *list, char *notice, unsigned notice_size,
                     struct gs_err *e)
{
    struct gs_device *g = gs_device_list_add(list, e);
    if (!g)
        return e->status;
    gs_strlcpy(g->id, "0", sizeof g->id);
    gs_strlcpy(g->name, "host reference (plain C)", sizeof g->name);
    gs_strlcpy(g->platform, "host", sizeof g->platform);
    gs_strlcpy(g->api_version, "C11, CUDA launch semantics", sizeof g->api_version);
    gs_strlcpy(g->arch, "blocks over the cores, a block's threads in turn", sizeof g->arch);
    g->is_gpu = 0;
    g->compute_units = gs_host_cpus();
    g->max_block = HOST_MAX_BLOCK;
    g->max_block_device = HOST_MAX_BLOCK;
    g->max_grid = GS_CPU_MAX_GRID;
    g->global_mem = gs_host_total_memory();
    g->max_alloc = g->global_mem; /* malloc has no cap of its own; the preflight checks what is free */
    g->caps = GS_CAP_TIMING | GS_CAP_COPY | GS_CAP_2D | GS_CAP_COUNT | GS_CAP_TRACE | GS_CAP_F64;
    gs_strlcpy(g->no_timeline,
               "the host backend runs a block's threads in turn, its blocks spread over the "
               "cores: C has no unit id or device clock to record when each unit finishes",
               sizeof g->no_timeline);
    if (notice_size)
        notice[0] = '\0';
    return GS_OK;
}

static int host_blocks_per_unit(struct gs_device *dev, enum gs_kernel_id kernel, unsigned block,
                                unsigned *blocks, char *rule, unsigned rule_size,
                                struct gs_err *e)
{
    (void)dev;
    (void)kernel;
    if (block == 0 || block > HOST_MAX_BLOCK)
        return gs_err_set(e, GS_USAGE, "host: block of %u threads is outside 1..%u", block,
                          HOST_MAX_BLOCK);
    *blocks = GS_CPU_BLOCKS_PER_UNIT;
    gs_strlcpy(rule, "no occupancy on a CPU: 4 blocks per core, as the T4 ran 4 per SM", rule_size);
    return GS_OK;
}

int host_predicts_accept(const struct gs_device *dev, const struct gs_launch *l, char *why,
                         unsigned why_size)
{
    (void)dev;
    const char *rule = NULL;
    const uint64_t rows = l->grid_y ? l->grid_y : 1;
    int answer = GS_REFUSES;
    if (l->grid == 0 || l->grid_y > HOST_MAX_GRID_Y)
        rule = l->grid == 0 ? "a grid of zero blocks is not a launch (host follows CUDA)"
                            : "more than 65535 blocks along y (host follows CUDA's "
                              "maxGridSize[1])";
    else if (l->block == 0 || l->block > HOST_MAX_BLOCK)
        rule = "block size outside 1..1024 (host follows CUDA)";
    else if (l->global != l->grid * l->block)
        rule = "global size must be grid x block on this backend";
    else if (l->grid > GS_CPU_MAX_GRID || rows > GS_CPU_MAX_GRID / l->grid)
        rule = "more than 2^20 blocks: the host runs a block's threads in turn on a few cores, "
               "so the suite caps its grid to keep a launch to seconds",
        answer = GS_NOT_SENT;
    if (rule)
        gs_strlcpy(why, rule, why_size);
    return rule ? answer : GS_ACCEPTS;
}

static int host_alloc(struct gs_device *dev, struct gs_buf *buf, struct gs_err *e)
{
    (void)dev;
    /* 64-byte alignment, like a GPU allocator, so float4 access is legal. */
    const uint64_t rounded = (buf->bytes + 63) / 64 * 64;
    struct host_buf *b = (struct host_buf *)buf;
    b->data = aligned_alloc(64, rounded ? rounded : 64);
    if (!b->data)
        return gs_err_set(e, GS_NOMEM, "host: cannot allocate %llu bytes",
                          (unsigned long long)buf->bytes);
    return GS_OK;
}

/* Launches below this many threads or elements, and copies and fills below
 * HOST_PARALLEL_MIN_BYTES, run on the calling thread: the pool's hand-over
 * would cost more than it saves. */
#define HOST_PARALLEL_MIN (1ull << 16)
#define HOST_PARALLEL_MIN_BYTES (16ull << 20)

/* The device's pool, opened at the first use that is worth it; NULL when
 * this machine has one processor or no worker could be started (then the
 * work runs on the calling thread: the same result, only slower). */
/* In check's sandboxed worker every launch runs in the calling thread: the
 * system-call filter starts no thread, and the suite's loop that check
 * times beside a user kernel (which runs in that one thread) runs as it does. */
static struct gs_pool *host_pool(struct host_device *d)
{
    if (gs_proc_sandboxed())
        return NULL;
    if (!d->pool && !d->pool_failed && gs_host_cpus() > 1) {
        struct gs_err ignored = {0};
        if (gs_pool_open(&d->pool, 0, &ignored) != GS_OK)
            d->pool_failed = 1;
    }
    return d->pool && gs_pool_threads(d->pool) > 1 ? d->pool : NULL;
}

/* A copy or a 32-bit fill of `bytes`, in parts of whole 4 KiB pages. */
struct host_bytes_job {
    char *dst;
    const char *src; /* NULL: fill with pattern */
    uint32_t pattern;
    uint64_t bytes, per_part;
};

static void host_bytes_span(const struct host_bytes_job *j, uint64_t lo, uint64_t hi)
{
    if (j->src) {
        memcpy(j->dst + lo, j->src + lo, hi - lo);
        return;
    }
    uint32_t *p = (uint32_t *)(j->dst + lo);
    for (uint64_t i = 0; i < (hi - lo) / 4; ++i)
        p[i] = j->pattern;
}

static void host_bytes_part(void *ctx, unsigned part)
{
    const struct host_bytes_job *j = ctx;
    const uint64_t lo = (uint64_t)part * j->per_part;
    host_bytes_span(j, lo, j->bytes - lo > j->per_part ? lo + j->per_part : j->bytes);
}

static void host_bytes(struct gs_device *dev, struct host_bytes_job *j)
{
    struct gs_pool *pool = j->bytes >= HOST_PARALLEL_MIN_BYTES
                               ? host_pool((struct host_device *)dev) : NULL;
    if (!pool) {
        host_bytes_span(j, 0, j->bytes);
        return;
    }
    const uint64_t parts = 4ull * gs_pool_threads(pool);
    j->per_part = (j->bytes / parts + 4095) / 4096 * 4096;
    gs_pool_run(pool, host_bytes_part, j, (unsigned)((j->bytes + j->per_part - 1) / j->per_part));
}

static int host_write(struct gs_device *dev, struct gs_buf *buf, uint64_t offset,
                      const void *src, uint64_t bytes, struct gs_err *e)
{
    (void)e;
    struct host_bytes_job j = {(char *)data_of(buf) + offset, src, 0, bytes, 0};
    host_bytes(dev, &j);
    return GS_OK;
}

static int host_read(struct gs_device *dev, struct gs_buf *buf, uint64_t offset, void *dst,
                     uint64_t bytes, struct gs_err *e)
{
    (void)e;
    struct host_bytes_job j = {dst, (const char *)data_of(buf) + offset, 0, bytes, 0};
    host_bytes(dev, &j);
    return GS_OK;
}

static int host_fill32(struct gs_device *dev, struct gs_buf *buf, uint64_t offset,
                       uint64_t bytes, uint32_t pattern, struct gs_err *e)
{
    (void)e;
    struct host_bytes_job j = {(char *)data_of(buf) + offset, NULL, pattern, bytes / 4 * 4, 0};
    host_bytes(dev, &j);
    return GS_OK;
}

static int host_mem_available(struct gs_device *dev, uint64_t *bytes, struct gs_err *e)
{
    (void)dev;
    *bytes = gs_host_available_memory();
    if (*bytes == 0)
        return gs_err_set(e, GS_UNSUPPORTED, "host: available memory unknown");
    return GS_OK;
}

static void host_free(struct gs_device *dev, struct gs_buf *buf)
{
    (void)dev;
    free(data_of(buf));
}

static void host_release(struct gs_device *dev)
{
    struct host_device *d = (struct host_device *)dev;
    gs_pool_close(d->pool);
    d->pool = NULL;
}

/* One launch, split into parts of consecutive blocks (row-major over y
 * then x) that the pool's workers take in turn. */
struct host_job {
    const struct gs_launch *l;
    gs_host_kernel_fn fn;
    gs_host_kernel_f64_fn fn64;
    uint64_t blocks;   /* grid x rows */
    uint64_t per_part; /* blocks a part runs */
};

static void host_run_blocks(const struct host_job *j, uint64_t first, uint64_t end)
{
    const struct gs_launch *l = j->l;
    struct gs_host_thread t = {0, (unsigned)l->block, (unsigned)l->grid, 0, 0};
    for (uint64_t g = first; g < end; ++g) {
        t.block_idx_y = (unsigned)(g / l->grid);
        t.block_idx = (unsigned)(g % l->grid);
        for (uint64_t x = 0; x < l->block; ++x) {
            t.thread_idx = (unsigned)x;
            if (j->fn64)
                j->fn64(&t, view_of(l->a), view_of(l->b), view_of(l->out), l->n, l->param);
            else
                j->fn(&t, view_of(l->a), view_of(l->b), view_of(l->out), l->n, l->param);
        }
    }
}

static void host_part(void *ctx, unsigned part)
{
    const struct host_job *j = ctx;
    const uint64_t first = (uint64_t)part * j->per_part;
    const uint64_t end = j->blocks - first > j->per_part ? first + j->per_part : j->blocks;
    host_run_blocks(j, first, end);
}

/* Parts per worker: the blocks' work is uneven (a block-stride block b
 * walks n - b x B elements), so many small parts keep every core busy. */
#define HOST_PARTS_PER_WORKER 16u

/* Every block of the launch, on the pool's workers when the launch is big
 * enough and there is more than one core. The blocks may run in any order
 * and at once: no kernel of the suite has a barrier or reads what another
 * thread writes, every store to an element stores the same value, and the
 * count and trace builds record with atomics whose end state does not
 * depend on the order (a count, and the minimum writer key), so the buffers
 * end bit for bit as in a sequential run. */
static void host_run(struct host_device *d, const struct host_job *j)
{
    const struct gs_launch *l = j->l;
    const uint64_t threads = j->blocks * l->block;
    struct gs_pool *pool = j->blocks > 1 && (threads >= HOST_PARALLEL_MIN ||
                                             l->n >= HOST_PARALLEL_MIN)
                               ? host_pool(d) : NULL;
    if (!pool) {
        host_run_blocks(j, 0, j->blocks);
        return;
    }
    uint64_t parts = (uint64_t)gs_pool_threads(pool) * HOST_PARTS_PER_WORKER;
    if (parts > j->blocks)
        parts = j->blocks;
    struct host_job job = *j;
    job.per_part = (j->blocks + parts - 1) / parts;
    parts = (j->blocks + job.per_part - 1) / job.per_part;
    gs_pool_run(pool, host_part, &job, (unsigned)parts);
}

static int host_launch(struct gs_device *dev, const struct gs_launch *l, int timed,
                       struct gs_launch_result *r, struct gs_err *e)
{
    char why[160];
    (void)e;
    if (host_predicts_accept(dev, l, why, sizeof why) != GS_ACCEPTS) {
        gs_refusal(r, -1, "host: invalid launch", "%s", why);
        return GS_OK;
    }
    /* The double build's kernels take double buffers: a table of their own. */
    const enum gs_build build = gs_launch_build(l);
    const struct host_job job = {
        .l = l,
        .fn = build == GS_BUILD_F64 ? NULL : gs_host_builds[build][l->kernel],
        .fn64 = build == GS_BUILD_F64 ? gs_host_f64_kernels[l->kernel] : NULL,
        .blocks = l->grid * (l->grid_y ? l->grid_y : 1),
    };
    const double t0 = timed ? gs_common_clock_ms() : 0.0;
    host_run((struct host_device *)dev, &job);
    r->accepted = 1;
    r->ms = timed ? gs_common_clock_ms() - t0 : 0.0;
    return GS_OK;
}

static int host_copy(struct gs_device *dev, struct gs_buf *dst, struct gs_buf *src,
                     uint64_t bytes, double *ms, struct gs_err *e)
{
    (void)e;
    struct host_bytes_job j = {data_of(dst), data_of(src), 0, bytes, 0};
    const double t0 = gs_common_clock_ms();
    host_bytes(dev, &j); /* on the cores, as the kernels it is the ceiling of */
    *ms = gs_common_clock_ms() - t0;
    return GS_OK;
}

const struct gs_backend gs_backend_host = {
    .name = "host",
    .description = "plain C reference: runs kernels/ on the CPU, its blocks spread over the cores",
    .device_size = sizeof(struct host_device),
    .buffer_size = sizeof(struct host_buf),
    .open = host_open,
    .release = host_release,
    .blocks_per_unit = host_blocks_per_unit,
    .predicts_accept = host_predicts_accept,
    .alloc = host_alloc,
    .write = host_write,
    .read = host_read,
    .free = host_free,
    .launch = host_launch,
    .copy = host_copy,
    .fill32 = host_fill32,
    .mem_available = host_mem_available,
    .user_dialects = 1u << GS_DIALECT_PORTABLE,
    .user_build = host_user_build,
    .user_launch = host_user_launch,
    .user_count = host_user_count,
    .user_free = host_user_free,
};
