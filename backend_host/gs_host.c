/* The host backend: the reference implementation of the backend interface,
 * and the template to copy for a new one (README.md, "Adding a backend").
 *
 * It runs the kernels of kernels/gs_kernels.h as plain C, with CUDA's launch
 * semantics: a launch is grid x block threads, thread (b, t) sees
 * blockIdx.x = b and threadIdx.x = t, and threads run one after another
 * (legal because no kernel of the suite has a barrier).
 *
 * Its launch rules, which predicts_accept() and launch() share:
 *   - a grid of zero blocks is refused, as CUDA refuses it; an empty grid is
 *     not a launch;
 *   - a block of 0 or more than 1024 threads is refused (CUDA's limit);
 *   - a grid of more than 2^20 blocks is never sent (GS_NOT_SENT): every
 *     thread runs in turn on one core, and the cap keeps any launch to a few
 *     seconds;
 *   - a global size that is not grid x block cannot be expressed;
 *   - more than 65535 blocks along y are refused (CUDA's maxGridSize[1]).
 * It runs 2D launches and the count build (kernels/gs_kernels.h). */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gs_backend.h"
#include "gs_host_kernels.h"
#include "gs_sysmem.h"

#define HOST_MAX_BLOCK 1024u
#define HOST_MAX_GRID (1ull << 20)    /* blocks in all, x times y */
#define HOST_MAX_GRID_Y 65535ull       /* CUDA's maxGridSize[1] */
#define HOST_BLOCKS_PER_CORE 4u

struct gs_buf {
    uint64_t bytes;
    float *data;
};

struct host_device {
    struct gs_device base; /* first member: the core holds a struct gs_device * */
};

extern const struct gs_backend gs_backend_host;

static int host_open(struct gs_device ***devs, int *count, char *notice, unsigned notice_size,
                     struct gs_err *e)
{
    struct host_device *d = calloc(1, sizeof *d);
    struct gs_device **list = calloc(1, sizeof *list);
    if (!d || !list) {
        free(d);
        free(list);
        return gs_err_set(e, GS_NOMEM, "host backend: out of memory");
    }
    struct gs_device *g = &d->base;
    g->backend = &gs_backend_host;
    g->index = 0;
    gs_strlcpy(g->id, "0", sizeof g->id);
    gs_strlcpy(g->name, "host reference (sequential C)", sizeof g->name);
    gs_strlcpy(g->platform, "host", sizeof g->platform);
    gs_strlcpy(g->api_version, "C11, CUDA launch semantics", sizeof g->api_version);
    gs_strlcpy(g->arch, "one thread at a time", sizeof g->arch);
    g->is_gpu = 0;
    g->compute_units = gs_host_cpus();
    g->max_block = HOST_MAX_BLOCK;
    g->max_block_device = HOST_MAX_BLOCK;
    g->max_grid = HOST_MAX_GRID;
    g->global_mem = gs_host_total_memory();
    g->max_alloc = g->global_mem; /* malloc has no cap of its own; the preflight checks what is free */
    g->caps = GS_CAP_TIMING | GS_CAP_COPY | GS_CAP_2D | GS_CAP_COUNT;
    list[0] = g;
    *devs = list;
    *count = 1;
    if (notice_size)
        notice[0] = '\0';
    return GS_OK;
}

static void host_release(struct gs_device **devs, int count)
{
    for (int i = 0; i < count; ++i)
        free(devs[i]);
    free(devs);
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
    *blocks = HOST_BLOCKS_PER_CORE;
    gs_strlcpy(rule, "no occupancy on a CPU: 4 blocks per core, as the T4 ran 4 per SM", rule_size);
    return GS_OK;
}

static int host_predicts_accept(const struct gs_device *dev, const struct gs_launch *l, char *why,
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
    else if (l->grid > HOST_MAX_GRID || rows > HOST_MAX_GRID / l->grid)
        rule = "more than 2^20 blocks: the host runs one thread at a time, so the suite caps "
               "its grid to keep a launch to seconds",
        answer = GS_NOT_SENT;
    if (rule)
        gs_strlcpy(why, rule, why_size);
    return rule ? answer : GS_ACCEPTS;
}

static int host_alloc(struct gs_device *dev, uint64_t bytes, struct gs_buf **buf,
                      struct gs_err *e)
{
    (void)dev;
    struct gs_buf *b = calloc(1, sizeof *b);
    /* 64-byte alignment, like a GPU allocator, so float4 access is legal. */
    uint64_t rounded = (bytes + 63) / 64 * 64;
    if (b)
        b->data = aligned_alloc(64, rounded ? rounded : 64);
    if (!b || !b->data) {
        free(b);
        return gs_err_set(e, GS_NOMEM, "host: cannot allocate %llu bytes",
                          (unsigned long long)bytes);
    }
    b->bytes = bytes;
    *buf = b;
    return GS_OK;
}

static int host_range(const struct gs_buf *buf, uint64_t offset, uint64_t bytes,
                      const char *what, struct gs_err *e)
{
    if (offset > buf->bytes || bytes > buf->bytes - offset)
        return gs_err_set(e, GS_USAGE, "host: %s of %llu bytes at %llu outside a %llu-byte buffer",
                          what, (unsigned long long)bytes, (unsigned long long)offset,
                          (unsigned long long)buf->bytes);
    return GS_OK;
}

static int host_write(struct gs_device *dev, struct gs_buf *buf, uint64_t offset,
                      const void *src, uint64_t bytes, struct gs_err *e)
{
    (void)dev;
    int rc = host_range(buf, offset, bytes, "write", e);
    if (rc == GS_OK)
        memcpy((char *)buf->data + offset, src, bytes);
    return rc;
}

static int host_read(struct gs_device *dev, struct gs_buf *buf, uint64_t offset, void *dst,
                     uint64_t bytes, struct gs_err *e)
{
    (void)dev;
    int rc = host_range(buf, offset, bytes, "read", e);
    if (rc == GS_OK)
        memcpy(dst, (const char *)buf->data + offset, bytes);
    return rc;
}

static int host_fill32(struct gs_device *dev, struct gs_buf *buf, uint64_t offset,
                       uint64_t bytes, uint32_t pattern, struct gs_err *e)
{
    (void)dev;
    int rc = host_range(buf, offset, bytes, "fill", e);
    if (rc != GS_OK)
        return rc;
    uint32_t *p = (uint32_t *)((char *)buf->data + offset);
    for (uint64_t i = 0; i < bytes / 4; ++i)
        p[i] = pattern;
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
    if (buf) {
        free(buf->data);
        free(buf);
    }
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int host_launch(struct gs_device *dev, const struct gs_launch *l, int timed,
                       struct gs_launch_result *r, struct gs_err *e)
{
    if (l->kernel < 0 || l->kernel >= GS_KERNEL_COUNT)
        return gs_err_set(e, GS_USAGE, "host: unknown kernel %d", (int)l->kernel);
    char why[160];
    if (host_predicts_accept(dev, l, why, sizeof why) != GS_ACCEPTS) {
        r->accepted = 0;
        r->api_code = -1;
        gs_strlcpy(r->api_error, "host: invalid launch", sizeof r->api_error);
        gs_strlcpy(r->api_message, why, sizeof r->api_message);
        return GS_OK;
    }
    const gs_host_kernel_fn fn = (l->count ? gs_host_count_kernels : gs_host_kernels)[l->kernel];
    const uint64_t rows = l->grid_y ? l->grid_y : 1;
    struct gs_host_thread t = {0, (unsigned)l->block, (unsigned)l->grid, 0, 0};
    const double t0 = timed ? now_ms() : 0.0;
    for (uint64_t y = 0; y < rows; ++y) {
        t.block_idx_y = (unsigned)y;
        for (uint64_t b = 0; b < l->grid; ++b) {
            t.block_idx = (unsigned)b;
            for (uint64_t x = 0; x < l->block; ++x) {
                t.thread_idx = (unsigned)x;
                fn(&t, l->a->data, l->b->data, l->out->data, l->n, l->param);
            }
        }
    }
    r->accepted = 1;
    r->ms = timed ? now_ms() - t0 : 0.0;
    return GS_OK;
}

static int host_copy(struct gs_device *dev, struct gs_buf *dst, struct gs_buf *src,
                     uint64_t bytes, double *ms, struct gs_err *e)
{
    (void)dev;
    if (bytes > dst->bytes || bytes > src->bytes)
        return gs_err_set(e, GS_USAGE, "host: copy of %llu bytes exceeds a buffer",
                          (unsigned long long)bytes);
    const double t0 = now_ms();
    memcpy(dst->data, src->data, bytes);
    *ms = now_ms() - t0;
    return GS_OK;
}

const struct gs_backend gs_backend_host = {
    .abi = GS_BACKEND_ABI,
    .name = "host",
    .description = "plain C reference: runs kernels/ on the CPU, one thread at a time",
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
};
