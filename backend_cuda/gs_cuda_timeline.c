/* SPDX-License-Identifier: MIT */
/* The CUDA backend's per-SM finish times (timeline()): the timeline build
 * of kernels/ (kernels/timeline_cuda.cuh) records each SM's first start,
 * last finish and block count from %globaltimer and %smid. */
#include "gs_cuda_private.h"

/* The timeline build's records (kernels/timeline_cuda.cuh), read back. */
struct cuda_timeline_records {
    unsigned long long *start, *end;
    unsigned *blocks;
    unsigned overflow;
};

/* Before the launch: every SM's start all ones (atomicMin lowers it), its
 * finish and block count zero, no overflow. */
static int cuda_timeline_reset(struct cuda_device *d, struct gs_err *e)
{
    const struct gs_cuda_timeline_vars *v = &gs_cuda_timeline_vars;
    void *start = NULL, *end = NULL, *blocks = NULL, *overflow = NULL;
    int s = CUDA_CHECK(e, cudaGetSymbolAddress(&start, v->start));
    if (s == GS_OK)
        s = CUDA_CHECK(e, cudaGetSymbolAddress(&end, v->end));
    if (s == GS_OK)
        s = CUDA_CHECK(e, cudaGetSymbolAddress(&blocks, v->blocks));
    if (s == GS_OK)
        s = CUDA_CHECK(e, cudaGetSymbolAddress(&overflow, v->overflow));
    if (s == GS_OK)
        s = CUDA_CHECK(e, cudaMemsetAsync(start, 0xff, v->slots * sizeof(unsigned long long),
                                          d->stream));
    if (s == GS_OK)
        s = CUDA_CHECK(e, cudaMemsetAsync(end, 0, v->slots * sizeof(unsigned long long),
                                          d->stream));
    if (s == GS_OK)
        s = CUDA_CHECK(e, cudaMemsetAsync(blocks, 0, v->slots * sizeof(unsigned), d->stream));
    if (s == GS_OK)
        s = CUDA_CHECK(e, cudaMemsetAsync(overflow, 0, sizeof(unsigned), d->stream));
    return s;
}

/* After the launch: the records, on the host. */
static int cuda_timeline_fetch(struct cuda_device *d, struct cuda_timeline_records *rec,
                               struct gs_err *e)
{
    const struct gs_cuda_timeline_vars *v = &gs_cuda_timeline_vars;
    int s = CUDA_CHECK(e, cudaMemcpyFromSymbolAsync(rec->start, v->start,
                                                    v->slots * sizeof *rec->start, 0,
                                                    cudaMemcpyDeviceToHost, d->stream));
    if (s == GS_OK)
        s = CUDA_CHECK(e, cudaMemcpyFromSymbolAsync(rec->end, v->end, v->slots * sizeof *rec->end,
                                                    0, cudaMemcpyDeviceToHost, d->stream));
    if (s == GS_OK)
        s = CUDA_CHECK(e, cudaMemcpyFromSymbolAsync(rec->blocks, v->blocks,
                                                    v->slots * sizeof *rec->blocks, 0,
                                                    cudaMemcpyDeviceToHost, d->stream));
    if (s == GS_OK)
        s = CUDA_CHECK(e, cudaMemcpyFromSymbolAsync(&rec->overflow, v->overflow,
                                                    sizeof rec->overflow, 0,
                                                    cudaMemcpyDeviceToHost, d->stream));
    if (s == GS_OK)
        s = CUDA_CHECK(e, cudaStreamSynchronize(d->stream));
    return s;
}

/* The records as the core's timeline: each SM that ran a block, its times
 * after the first start of any. */
static int cuda_timeline_convert(const struct cuda_timeline_records *rec,
                                 struct gs_timeline *t, struct gs_err *e)
{
    const unsigned slots = gs_cuda_timeline_vars.slots;
    unsigned long long first = ~0ull;
    if (rec->overflow)
        return gs_err_set(e, GS_API, "cuda: a block ran on an SM numbered %u or more (%%smid), "
                                     "beyond the timeline build's records", slots);
    for (unsigned sm = 0; sm < slots; ++sm)
        if (rec->blocks[sm] && rec->start[sm] < first)
            first = rec->start[sm];
    for (unsigned sm = 0; sm < slots; ++sm) {
        if (!rec->blocks[sm])
            continue;
        if (rec->end[sm] < rec->start[sm])
            return gs_err_set(e, GS_API, "cuda: SM %u ran %u blocks from %llu ns but recorded "
                                         "its finish at %llu ns (%%globaltimer)",
                              sm, rec->blocks[sm], rec->start[sm], rec->end[sm]);
        if (t->nunits == GS_TIMELINE_MAX_UNITS)
            return gs_err_set(e, GS_API, "cuda: more than %u SMs ran blocks",
                              GS_TIMELINE_MAX_UNITS);
        t->unit[t->nunits++] = (struct gs_timeline_unit){
            sm, rec->blocks[sm], rec->start[sm] - first, rec->end[sm] - first};
    }
    gs_strlcpy(t->clock, "%globaltimer (ns), read by each block's first thread and each "
                         "warp's lane 0", sizeof t->clock);
    return GS_OK;
}

/* The launch itself, between the two events; a refusal is a result in r. */
static int cuda_timeline_launch(struct cuda_device *d, const struct gs_launch *l,
                                const void *kernel, struct gs_launch_result *r, float *ms,
                                struct gs_err *e)
{
    void *a = view_of(l->a), *b = view_of(l->b), *out = view_of(l->out);
    unsigned long long n = l->n, param = l->param; /* the kernels' gs_size */
    void *args[] = {&a, &b, &out, &n, &param};
    const dim3 grid = {(unsigned)l->grid, 1u, 1u}, block = {(unsigned)l->block, 1u, 1u};
    int s = CUDA_CHECK(e, cudaEventRecord(d->start, d->stream));
    if (s != GS_OK)
        return s;
    const cudaError_t rc = cudaLaunchKernel(kernel, grid, block, args, 0, d->stream);
    if (rc != cudaSuccess)
        return cuda_refused(d, rc, r, e);
    if ((s = CUDA_CHECK(e, cudaEventRecord(d->stop, d->stream))) != GS_OK ||
        (s = CUDA_CHECK(e, cudaStreamSynchronize(d->stream))) != GS_OK ||
        (s = CUDA_CHECK(e, cudaEventElapsedTime(ms, d->start, d->stop))) != GS_OK)
        return s;
    r->accepted = 1;
    return GS_OK;
}

/* One launch of the timeline build, timed by events like launch(), with
 * the records reset before and read after. */
int cuda_timeline(struct gs_device *dev, const struct gs_launch *l,
                  struct gs_launch_result *r, struct gs_timeline *t, struct gs_err *e)
{
    struct cuda_device *d = (struct cuda_device *)dev;
    const unsigned slots = gs_cuda_timeline_vars.slots;
    const void *kernel = cuda_symbol(l->kernel, CUDA_BUILD_TIMELINE);
    struct cuda_timeline_records rec = {0};
    int s = GS_OK, resident = 0;
    float ms = 0.0f;
    memset(r, 0, sizeof *r);
    if (cuda_inexpressible(l, r))
        return GS_OK;
    rec.start = malloc(slots * sizeof *rec.start);
    rec.end = malloc(slots * sizeof *rec.end);
    rec.blocks = malloc(slots * sizeof *rec.blocks);
    if (!rec.start || !rec.end || !rec.blocks)
        s = gs_err_set(e, GS_NOMEM, "cuda: out of memory for the timeline's records");
    if (s == GS_OK)
        s = cuda_prepare(d, e);
    if (s == GS_OK)
        s = cuda_load_kernel(d, l->kernel, CUDA_BUILD_TIMELINE, e);
    /* The guard may cost the kernel registers: how many of its blocks an SM
     * holds at once is asked of the instrumented kernel itself. */
    if (s == GS_OK)
        s = CUDA_CHECK(e, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, kernel,
                                                                         (int)l->block, 0));
    if (s == GS_OK)
        s = cuda_timeline_reset(d, e);
    if (s == GS_OK)
        s = cuda_timeline_launch(d, l, kernel, r, &ms, e);
    if (s == GS_OK && r->accepted && (s = cuda_timeline_fetch(d, &rec, e)) == GS_OK &&
        (s = cuda_timeline_convert(&rec, t, e)) == GS_OK) {
        t->resident_per_unit = resident > 0 ? (unsigned)resident : 0u;
        t->ms = r->ms = (double)ms;
    }
    free(rec.start);
    free(rec.end);
    free(rec.blocks);
    return s;
}

