/* SPDX-License-Identifier: MIT */
/* The OpenCL backend's buffers, launch, copy and grid probe. */
#include "gs_opencl_private.h"

/* ---- Buffers ------------------------------------------------------------- */

int ocl_alloc(struct gs_device *dev, struct gs_buf *buf, struct gs_err *e)
{
    struct ocl_device *d = (struct ocl_device *)dev;
    const size_t size = buf->bytes < 4 ? 4 : (size_t)buf->bytes;
    cl_int rc = CL_SUCCESS;
    struct ocl_buf *b = (struct ocl_buf *)buf;
    int st = OCL(e, (b->mem = clCreateBuffer(d->context, CL_MEM_READ_WRITE, size, NULL, &rc), rc));
    if (st != GS_OK || buf->front == 0)
        return st;
    /* The view the launches get: a sub-buffer whose origin must be a
     * multiple of the device's base address alignment (bits). */
    cl_uint align_bits = 0;
    st = OCL(e, clGetDeviceInfo(d->id, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits,
                                &align_bits, NULL));
    if (st == GS_OK && align_bits && buf->front % (align_bits / 8 ? align_bits / 8 : 1))
        st = gs_err_set(e, GS_UNSUPPORTED,
                        "opencl: a guard of %llu bytes before a buffer is not a multiple of the "
                        "device's base address alignment (%u bits)",
                        (unsigned long long)buf->front, align_bits);
    const cl_buffer_region region = {(size_t)buf->front, size - (size_t)buf->front};
    if (st == GS_OK)
        st = OCL(e, (b->view = clCreateSubBuffer(b->mem, CL_MEM_READ_WRITE,
                                                 CL_BUFFER_CREATE_TYPE_REGION, &region, &rc),
                     rc));
    if (st != GS_OK) {
        clReleaseMemObject(b->mem);
        b->mem = NULL;
    }
    return st;
}

int ocl_write(struct gs_device *dev, struct gs_buf *buf, uint64_t offset,
              const void *src, uint64_t bytes, struct gs_err *e)
{
    struct ocl_device *d = (struct ocl_device *)dev;
    return OCL(e, clEnqueueWriteBuffer(d->queue, mem_of(buf), CL_TRUE, (size_t)offset,
                                       (size_t)bytes, src, 0, NULL, NULL));
}

int ocl_read(struct gs_device *dev, struct gs_buf *buf, uint64_t offset, void *dst,
             uint64_t bytes, struct gs_err *e)
{
    struct ocl_device *d = (struct ocl_device *)dev;
    return OCL(e, clEnqueueReadBuffer(d->queue, mem_of(buf), CL_TRUE, (size_t)offset,
                                      (size_t)bytes, dst, 0, NULL, NULL));
}

/* The helper kernel `name` of kernels/opencl_only.cl, created once. */
static int helper_kernel(struct ocl_device *d, cl_kernel *k, const char *name, struct gs_err *e)
{
    cl_int rc = CL_SUCCESS;
    if (*k)
        return GS_OK;
    return OCL(e, (*k = clCreateKernel(d->program, name, &rc), rc));
}

/* Not clEnqueueFillBuffer: see gs_fill_u32 in kernels/opencl_only.cl. */
int ocl_fill32(struct gs_device *dev, struct gs_buf *buf, uint64_t offset,
               uint64_t bytes, uint32_t pattern, struct gs_err *e)
{
    struct ocl_device *d = (struct ocl_device *)dev;
    const cl_ulong first = offset / 4, count = bytes / 4;
    const cl_uint value = pattern;
    int st = helper_kernel(d, &d->fill, "gs_fill_u32", e);
    if (st != GS_OK || count == 0)
        return st;
    /* Whole work-groups; enough of them to fill the device, no more. */
    const size_t local = dev->max_block < 256 ? dev->max_block : 256;
    size_t groups = (size_t)((count + local - 1) / local);
    const size_t most = (size_t)dev->compute_units * (dev->is_gpu ? 8 : 4);
    if (groups > most)
        groups = most;
    const size_t global = groups * local;
    /* A GPU strides; a CPU device's work-items each fill a run of their own. */
    const cl_ulong chunk = dev->is_gpu ? 0 : (count + global - 1) / global;
    const cl_mem mem = mem_of(buf);
    if ((st = OCL(e, clSetKernelArg(d->fill, 0, sizeof mem, &mem))) != GS_OK ||
        (st = OCL(e, clSetKernelArg(d->fill, 1, sizeof first, &first))) != GS_OK ||
        (st = OCL(e, clSetKernelArg(d->fill, 2, sizeof count, &count))) != GS_OK ||
        (st = OCL(e, clSetKernelArg(d->fill, 3, sizeof value, &value))) != GS_OK ||
        (st = OCL(e, clSetKernelArg(d->fill, 4, sizeof chunk, &chunk))) != GS_OK ||
        (st = OCL(e, clEnqueueNDRangeKernel(d->queue, d->fill, 1, NULL, &global, &local, 0,
                                            NULL, NULL))) != GS_OK)
        return st;
    return OCL(e, clFinish(d->queue));
}

/* Page-locked staging, the way OpenCL offers it: a buffer the driver
 * allocates in host memory (CL_MEM_ALLOC_HOST_PTR), mapped once and kept
 * mapped; NVIDIA's driver moves data from such memory at full PCIe speed. */
int ocl_staging_alloc(struct gs_device *dev, uint64_t bytes, void **ptr, void **handle,
                      struct gs_err *e)
{
    struct ocl_device *d = (struct ocl_device *)dev;
    cl_int rc = CL_SUCCESS;
    cl_mem mem = NULL;
    int st = OCL(e, (mem = clCreateBuffer(d->context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
                                          (size_t)bytes, NULL, &rc),
                     rc));
    if (st != GS_OK)
        return st;
    void *p = NULL;
    st = OCL(e, (p = clEnqueueMapBuffer(d->queue, mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                        (size_t)bytes, 0, NULL, NULL, &rc),
                 rc));
    if (st != GS_OK) {
        clReleaseMemObject(mem);
        return st;
    }
    *ptr = p;
    *handle = mem;
    return GS_OK;
}

void ocl_staging_free(struct gs_device *dev, void *ptr, void *handle)
{
    struct ocl_device *d = (struct ocl_device *)dev;
    cl_mem mem = handle;
    if (OCL(NULL, clEnqueueUnmapMemObject(d->queue, mem, ptr, 0, NULL, NULL)) == GS_OK)
        (void)OCL(NULL, clFinish(d->queue));
    clReleaseMemObject(mem);
}

/* OpenCL has no free-memory query (CL_DEVICE_GLOBAL_FREE_MEMORY_AMD is one
 * vendor's); a CPU device's buffers are this machine's memory. */
int ocl_mem_available(struct gs_device *dev, uint64_t *bytes, struct gs_err *e)
{
    *bytes = 0;
    if (dev->is_gpu)
        return gs_err_set(e, GS_UNSUPPORTED, "opencl: no free-memory query for %s", dev->name);
    *bytes = gs_host_available_memory();
    return *bytes ? GS_OK : gs_err_set(e, GS_UNSUPPORTED, "opencl: available memory unknown");
}

void ocl_free(struct gs_device *dev, struct gs_buf *buf)
{
    (void)dev;
    if (((struct ocl_buf *)buf)->view)
        clReleaseMemObject(((struct ocl_buf *)buf)->view);
    clReleaseMemObject(mem_of(buf));
}

/* ---- Launch and copy ----------------------------------------------------- */

/* The command's duration by the device's clock. */
int ocl_event_ms(cl_event ev, double *ms, struct gs_err *e)
{
    cl_ulong start = 0, end = 0;
    int st;
    if ((st = OCL(e, clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start,
                                             &start, NULL))) != GS_OK ||
        (st = OCL(e, clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end,
                                             NULL))) != GS_OK)
        return st;
    *ms = end > start ? (double)(end - start) / 1e6 : 0.0;
    return GS_OK;
}

static int set_args(cl_kernel k, const struct gs_launch *l, struct gs_err *e)
{
    /* A NULL buffer (b of a copy kernel) is passed as a NULL __global pointer. */
    const cl_mem a = view_of(l->a), b = view_of(l->b), out = view_of(l->out);
    const cl_ulong n = l->n, param = l->param;
    int st;
    if ((st = OCL(e, clSetKernelArg(k, 0, sizeof a, &a))) != GS_OK ||
        (st = OCL(e, clSetKernelArg(k, 1, sizeof b, &b))) != GS_OK ||
        (st = OCL(e, clSetKernelArg(k, 2, sizeof out, &out))) != GS_OK ||
        (st = OCL(e, clSetKernelArg(k, 3, sizeof n, &n))) != GS_OK ||
        (st = OCL(e, clSetKernelArg(k, 4, sizeof param, &param))) != GS_OK)
        return st;
    return GS_OK;
}

/* Another build of the same source (kernels/gs_kernels.h), compiled with
 * -D`define`, whose kernels are named <name>`suffix`: built on its first
 * launch, since most runs never need it. */
static int variant_kernel(struct ocl_device *d, cl_program *program, cl_kernel *kernels,
                          const char *define, const char *suffix, enum gs_kernel_id k,
                          cl_kernel *out, struct gs_err *e)
{
    cl_int rc = CL_SUCCESS;
    int st;
    if (!*program) {
        char options[160];
        const char *src = gs_opencl_source;
        snprintf(options, sizeof options, "%s%s-D%s", d->build_options,
                 d->build_options[0] ? " " : "", define);
        if ((st = ocl_build(d, src, options, program, e)) != GS_OK)
            return st;
    }
    if (!kernels[k]) {
        char name[96];
        snprintf(name, sizeof name, "%s%s", ocl_kernel_names[k], suffix);
        if ((st = OCL(e, (kernels[k] = clCreateKernel(*program, name, &rc), rc))) != GS_OK)
            return st;
    }
    *out = kernels[k];
    return GS_OK;
}

/* The kernel of the build that launch l asks for. */
static int launch_kernel(struct ocl_device *d, const struct gs_launch *l, cl_kernel *out,
                         struct gs_err *e)
{
    switch (gs_launch_build(l)) {
    case GS_BUILD_COUNT:
        return variant_kernel(d, &d->count_program, d->count_kernels, "GS_COUNT_BUILD", "_count",
                              l->kernel, out, e);
    case GS_BUILD_TRACE:
        return variant_kernel(d, &d->trace_program, d->trace_kernels, "GS_TRACE_BUILD", "_trace",
                              l->kernel, out, e);
    case GS_BUILD_F64:
        return variant_kernel(d, &d->f64_program, d->f64_kernels, "GS_F64_BUILD", "_f64",
                              l->kernel, out, e);
    default:
        *out = d->kernels[l->kernel];
        return GS_OK;
    }
}

int ocl_launch(struct gs_device *dev, const struct gs_launch *l, int timed,
               struct gs_launch_result *r, struct gs_err *e)
{
    struct ocl_device *d = (struct ocl_device *)dev;
    const size_t global = (size_t)l->global, local = (size_t)l->block;
    if (global != l->global || local != l->block)
        return gs_err_set(e, GS_USAGE, "opencl: launch shape exceeds the host's size_t");
    cl_kernel k = NULL;
    int st = launch_kernel(d, l, &k, e);
    if (st == GS_OK)
        st = set_args(k, l, e);
    if (st != GS_OK)
        return st;
    cl_event ev = NULL;
    /* A 2D launch: global (x, rows), local (x, 1). */
    const size_t global2[2] = {global, l->grid_y ? (size_t)l->grid_y : 1};
    const size_t local2[2] = {local, 1};
    const cl_uint dims = l->grid_y > 1 ? 2 : 1;
    /* Not through OCL(): a refused shape is the result being measured. */
    const cl_int rc = clEnqueueNDRangeKernel(d->queue, k, dims, NULL, global2, local2, 0, NULL,
                                             timed ? &ev : NULL);
    if (rc != CL_SUCCESS && is_refusal(rc)) {
        record_refusal(rc, global, local, r);
        return GS_OK;
    }
    st = OCL(e, rc);
    if (st == GS_OK)
        st = OCL(e, clFinish(d->queue));
    if (st == GS_OK && timed)
        st = ocl_event_ms(ev, &r->ms, e);
    if (ev)
        clReleaseEvent(ev);
    if (st == GS_OK)
        r->accepted = 1;
    return st;
}

/* ---- Grid probe ---------------------------------------------------------- */

#define OCL_PROBE_ITEM ((1ull << 32) + 5) /* a work-item past 2^32, as measured */

static int probe_skip(struct gs_grid_probe *p, const char *why)
{
    p->status = GS_UNSUPPORTED;
    gs_strlcpy(p->why, why, sizeof p->why);
    return GS_OK;
}

/* One launch of 2^32 + local work-items of kernels/probe_opencl.cl, whose
 * work-item OCL_PROBE_ITEM reports what the work-item functions return. */
static int probe_launch(struct ocl_device *d, cl_mem mem, struct gs_grid_probe *p,
                        struct gs_err *e)
{
    const cl_ulong item = OCL_PROBE_ITEM;
    const size_t global = (size_t)p->global, local = (size_t)p->local;
    int st;
    if ((st = OCL(e, clSetKernelArg(d->probe, 0, sizeof mem, &mem))) != GS_OK ||
        (st = OCL(e, clSetKernelArg(d->probe, 1, sizeof item, &item))) != GS_OK)
        return st;
    const cl_int rc =
        clEnqueueNDRangeKernel(d->queue, d->probe, 1, NULL, &global, &local, 0, NULL, NULL);
    if (rc != CL_SUCCESS && is_refusal(rc)) {
        char why[160];
        snprintf(why, sizeof why, "the driver refused the probe's %zu work-items: %s", global,
                 ocl_error(rc)->name);
        return probe_skip(p, why);
    }
    cl_ulong out[4];
    if ((st = OCL(e, rc)) != GS_OK || (st = OCL(e, clFinish(d->queue))) != GS_OK ||
        (st = OCL(e, clEnqueueReadBuffer(d->queue, mem, CL_TRUE, 0, sizeof out, out, 0, NULL,
                                         NULL))) != GS_OK)
        return st;
    p->status = GS_OK;
    p->global_size = out[0];
    p->global_id = out[1];
    p->groups_x_local = out[2];
    p->prelude_T = out[3];
    return GS_OK;
}

/* 2^32 work-items take milliseconds on a GPU and hours on a simulator that
 * reports a GPU (oclgrind): launch only what can finish. Launches of 2^16,
 * then 2^20 and 2^24 work-items (none of them the probe's item, so nothing
 * is written), each only while the last took under a second, are timed on
 * the host; the largest says how long 2^32 would take. */
#define OCL_PROBE_BUDGET_S 10.0

static int probe_affordable(struct ocl_device *d, cl_mem mem, struct gs_grid_probe *p,
                            int *ok, struct gs_err *e)
{
    const cl_ulong item = OCL_PROBE_ITEM;
    const size_t local = (size_t)p->local;
    double s = 0.0, whole = 0.0;
    int bits = 0, st;
    *ok = 0;
    if ((st = OCL(e, clSetKernelArg(d->probe, 0, sizeof mem, &mem))) != GS_OK ||
        (st = OCL(e, clSetKernelArg(d->probe, 1, sizeof item, &item))) != GS_OK)
        return st;
    /* One group first, untimed: the first launch also pays for setting up. */
    for (int b = 0; b <= 24; b += b ? 4 : 16) {
        const size_t global = b ? (size_t)1 << b : local;
        const double t0 = gs_common_clock_ms();
        const cl_int rc =
            clEnqueueNDRangeKernel(d->queue, d->probe, 1, NULL, &global, &local, 0, NULL, NULL);
        if (rc != CL_SUCCESS && is_refusal(rc))
            return probe_skip(p, "the driver refused the probe's timing launch");
        if ((st = OCL(e, rc)) != GS_OK || (st = OCL(e, clFinish(d->queue))) != GS_OK)
            return st;
        s = (gs_common_clock_ms() - t0) / 1e3;
        if (!b)
            continue;
        bits = b;
        whole = s * (double)(1ull << (32 - b));
        if (whole <= OCL_PROBE_BUDGET_S || s * 16 > 1.0)
            break;
    }
    if (whole <= OCL_PROBE_BUDGET_S) {
        *ok = 1;
        return GS_OK;
    }
    char why[160];
    snprintf(why, sizeof why, "2^%d work-items took %.2f s here: 2^32 would take about %.0f s",
             bits, s, whole);
    return probe_skip(p, why);
}

int ocl_probe_grid(struct gs_device *dev, struct gs_grid_probe *p, struct gs_err *e)
{
    struct ocl_device *d = (struct ocl_device *)dev;
    cl_int rc = CL_SUCCESS;
    int st;
    if (!dev->is_gpu)
        return probe_skip(p, "a CPU device: 2^32 work-items would run for minutes there");
    if (d->address_bits < 64)
        return probe_skip(p, "the device's size_t is narrower than 64 bits");
    if ((st = helper_kernel(d, &d->probe, "gs_probe_grid", e)) != GS_OK)
        return st;
    size_t wg = 0;
    if ((st = OCL(e, clGetKernelWorkGroupInfo(d->probe, d->id, CL_KERNEL_WORK_GROUP_SIZE,
                                              sizeof wg, &wg, NULL))) != GS_OK)
        return st;
    p->local = 256;
    while (p->local > 1 && p->local > wg)
        p->local /= 2;
    p->global = (1ull << 32) + p->local; /* a whole number of groups, past 2^32 */
    p->item = OCL_PROBE_ITEM;
    if (p->global / p->local > dev->max_grid)
        return probe_skip(p, "2^32 work-items is more work-groups than the suite sends here");
    const cl_ulong unset[4] = {~0ull, ~0ull, ~0ull, ~0ull};
    cl_mem mem = NULL;
    if ((st = OCL(e, (mem = clCreateBuffer(d->context, CL_MEM_READ_WRITE, sizeof unset, NULL,
                                           &rc),
                      rc))) != GS_OK)
        return st;
    st = OCL(e, clEnqueueWriteBuffer(d->queue, mem, CL_TRUE, 0, sizeof unset, unset, 0, NULL,
                                     NULL));
    int affordable = 0;
    if (st == GS_OK)
        st = probe_affordable(d, mem, p, &affordable, e);
    if (st == GS_OK && affordable)
        st = probe_launch(d, mem, p, e);
    clReleaseMemObject(mem);
    return st;
}

int ocl_copy(struct gs_device *dev, struct gs_buf *dst, struct gs_buf *src,
             uint64_t bytes, double *ms, struct gs_err *e)
{
    struct ocl_device *d = (struct ocl_device *)dev;
    cl_event ev = NULL;
    int st = OCL(e, clEnqueueCopyBuffer(d->queue, mem_of(src), mem_of(dst), 0, 0, (size_t)bytes,
                                        0, NULL, &ev));
    if (st == GS_OK)
        st = OCL(e, clWaitForEvents(1, &ev));
    if (st == GS_OK)
        st = ocl_event_ms(ev, ms, e);
    if (ev)
        clReleaseEvent(ev);
    return st;
}

