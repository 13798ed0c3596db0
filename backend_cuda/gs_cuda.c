/* SPDX-License-Identifier: MIT */
/* The CUDA backend: the backend interface on the CUDA runtime API.
 *
 * This file is C. The runtime API (cuda_runtime_api.h) is a C interface, and
 * the only thing C cannot do, name a __global__ function, is done once in
 * gs_cuda_kernels.cu, which hands over the kernels' handles in a table. So
 * every launch goes through cudaLaunchKernel here, and every CUDA call is
 * checked in one place, by CUDA_CHECK.
 *
 * Launch rules, shared by predicts_accept() and what CUDA itself enforces
 * (CUDA 13.0 with driver 580 on an H200 answers cudaErrorInvalidValue to
 * each of the first three, through cudaLaunchKernel):
 *   - a grid of zero blocks is refused;
 *   - a block of 0 or more than maxThreadsPerBlock threads is refused;
 *   - a grid of more than maxGridSize[0] blocks is refused, and more than
 *     maxGridSize[1] along y (65535: measured refused on an H200 at 65536);
 *   - a global size that is not grid x block cannot be expressed at all:
 *     CUDA launches whole blocks, so launch() refuses it without a call.
 *
 * Contexts are created lazily, on the first call that needs a device
 * (alloc, launch, occupancy), so that opening the backend creates none:
 * a device that is never used (another --device was chosen) never gets one.
 *
 * The timeline and the user kernels are in files of their own
 * (gs_cuda_private.h lists them). */
#include "gs_cuda_private.h"

/* cudaMalloc of 0 bytes succeeds with a NULL pointer. An empty buffer still
 * gets a real allocation, so that every buffer is a distinct valid address;
 * gs_buf.bytes keeps the size that was asked for. */
#define CUDA_MIN_ALLOC 256u

const void *cuda_symbol(enum gs_kernel_id k, int build)
{
    static const void *const *const tables[CUDA_BUILDS] = {
        [GS_BUILD_PLAIN] = gs_cuda_kernel_symbols,
        [GS_BUILD_COUNT] = gs_cuda_count_symbols,
        [GS_BUILD_TRACE] = gs_cuda_trace_symbols,
        [GS_BUILD_F64] = gs_cuda_f64_symbols,
        [CUDA_BUILD_TIMELINE] = gs_cuda_timeline_symbols,
    };
    return tables[build][k];
}

/* ---- error handling ---------------------------------------------------- */

/* Errors after which the context is unusable: the runtime returns the same
 * error from every later call, and only a new process recovers (the list is
 * the one driver_types.h documents as "the process must be terminated and
 * relaunched"). Kernel faults are of this kind; launch-configuration errors
 * are not. */
int cuda_is_sticky(cudaError_t rc)
{
    switch (rc) {
    case cudaErrorContained:
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchTimeout:
    case cudaErrorContextIsDestroyed:
    case cudaErrorAssert:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorLaunchFailure:
    case cudaErrorTensorMemoryLeak:
    case cudaErrorMpsClientTerminated:
    case cudaErrorExternalDevice:
        return 1;
    default:
        return 0;
    }
}

static int cuda_status(cudaError_t rc)
{
    switch (rc) {
    case cudaErrorMemoryAllocation:
        return GS_NOMEM;
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorInvalidDevice:
    case cudaErrorDevicesUnavailable:
        return GS_NO_DEVICE;
    default:
        return GS_API;
    }
}

int cuda_check(cudaError_t rc, const char *call, const char *file, int line,
               struct gs_err *e)
{
    if (rc == cudaSuccess)
        return GS_OK;
    /* Reset the runtime's last-error slot, so that a non-sticky error is
     * reported here once and not again by whoever calls cudaGetLastError
     * next. A sticky error survives the reset, which is the point of it. */
    (void)cudaGetLastError();
    char message[320];
    snprintf(message, sizeof message, "%s%s", cudaGetErrorString(rc),
             cuda_is_sticky(rc) ? " (sticky: the CUDA context is lost; every later CUDA call "
                                  "fails until the process restarts)"
                                : "");
    return gs_api_error(e, cuda_status(rc), call, file, line, cudaGetErrorName(rc), (long)rc,
                        message);
}

/* ---- discovery --------------------------------------------------------- */

static const char *cuda_no_device_hint(cudaError_t rc)
{
    switch (rc) {
    case cudaErrorInsufficientDriver:
        return "the NVIDIA driver (libcuda.so) is missing or older than this CUDA runtime "
               "needs: check nvidia-smi, or use another backend";
    case cudaErrorNoDevice:
        return "the driver sees no CUDA GPU: check nvidia-smi and CUDA_VISIBLE_DEVICES";
    case cudaErrorStubLibrary:
        return "the toolkit's libcuda.so stub was loaded instead of the driver's: "
               "check LD_LIBRARY_PATH";
    case cudaErrorSystemDriverMismatch:
    case cudaErrorCompatNotSupportedOnDevice:
        return "the driver's kernel module and user-space library disagree: "
               "reinstall the driver or reboot";
    default:
        return "check nvidia-smi";
    }
}

/* The NVIDIA driver's own version (580.xx) is not in the runtime API; the
 * kernel module prints it, e.g. "NVRM version: NVIDIA UNIX Open Kernel Module
 * for x86_64  580.65.06  Release Build ...". Take the first token that starts
 * with a digit and holds a dot. Leaves out empty when the file is absent. */
static void cuda_nvidia_driver_version(char *out, size_t size)
{
    char line[512];
    FILE *f = fopen("/proc/driver/nvidia/version", "r");
    out[0] = '\0';
    if (!f)
        return;
    if (fgets(line, sizeof line, f)) {
        char *save = NULL;
        for (char *t = strtok_r(line, " \t\n", &save); t; t = strtok_r(NULL, " \t\n", &save)) {
            if (isdigit((unsigned char)t[0]) && strchr(t, '.')) {
                gs_strlcpy(out, t, size);
                break;
            }
        }
    }
    fclose(f);
}

/* Theoretical bandwidth: two transfers per memory clock (DDR) across the
 * bus. CUDA 13 dropped memoryClockRate from cudaDeviceProp; the attribute
 * remains. A device that does not report it gets 0, as the interface asks. */
static void cuda_peak(struct gs_device *g, int ordinal, int bus_bits)
{
    int khz = 0;
    if (CUDA_CHECK(NULL, cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, ordinal)) !=
            GS_OK ||
        khz <= 0 || bus_bits <= 0) {
        g->peak_bytes_per_s = 0;
        gs_strlcpy(g->peak_rule, "unknown: cudaDevAttrMemoryClockRate or bus width not reported",
                   sizeof g->peak_rule);
        return;
    }
    g->peak_bytes_per_s = 2ull * (uint64_t)khz * 1000ull * (uint64_t)bus_bits / 8ull;
    snprintf(g->peak_rule, sizeof g->peak_rule,
             "2 (DDR) x %d MHz memory clock x %d-bit bus / 8 (cudaDevAttrMemoryClockRate)",
             khz / 1000, bus_bits);
}

static int cuda_describe(struct cuda_device *d, int ordinal, const char *api_version,
                         const char *driver_version, struct gs_err *e)
{
    struct cudaDeviceProp p;
    int s = CUDA_CHECK(e, cudaGetDeviceProperties(&p, ordinal));
    if (s != GS_OK)
        return s;
    struct gs_device *g = &d->base;
    d->ordinal = ordinal;
    snprintf(g->id, sizeof g->id, "%d", ordinal);
    gs_strlcpy(g->name, p.name, sizeof g->name);
    gs_strlcpy(g->platform, "CUDA", sizeof g->platform);
    gs_strlcpy(g->api_version, api_version, sizeof g->api_version);
    gs_strlcpy(g->driver_version, driver_version, sizeof g->driver_version);
    snprintf(g->arch, sizeof g->arch, "compute capability %d.%d", p.major, p.minor);
    g->is_gpu = 1;
    /* The PCI function is always 0 for a CUDA device. */
    snprintf(g->pci, sizeof g->pci, "%04x:%02x:%02x.0", (unsigned)p.pciDomainID,
             (unsigned)p.pciBusID, (unsigned)p.pciDeviceID);
    g->compute_units = p.multiProcessorCount > 0 ? (unsigned)p.multiProcessorCount : 0u;
    /* A 1-D block is bounded by both limits; they are equal on every GPU
     * so far (1024), but the smaller one is the rule. */
    int block = p.maxThreadsPerBlock < p.maxThreadsDim[0] ? p.maxThreadsPerBlock
                                                          : p.maxThreadsDim[0];
    g->max_block = block > 0 ? (unsigned)block : 0u;
    g->max_block_device = g->max_block;
    g->max_grid = p.maxGridSize[0] > 0 ? (uint64_t)p.maxGridSize[0] : 0u;
    d->max_grid_y = p.maxGridSize[1] > 0 ? (uint64_t)p.maxGridSize[1] : 0u;
    g->global_mem = (uint64_t)p.totalGlobalMem;
    /* CUDA has no per-allocation cap below device memory (unlike OpenCL's
     * CL_DEVICE_MAX_MEM_ALLOC_SIZE), and the free amount is only known once
     * a context exists, which open() avoids creating. */
    g->max_alloc = (uint64_t)p.totalGlobalMem;
    cuda_peak(g, ordinal, p.memoryBusWidth);
    /* Every GPU the toolkit targets (compute capability 1.3 on) has doubles. */
    g->caps = GS_CAP_TIMING | GS_CAP_COPY | GS_CAP_2D | GS_CAP_COUNT | GS_CAP_TRACE | GS_CAP_F64;
    if (g->compute_units > gs_cuda_timeline_vars.slots ||
        g->compute_units > GS_TIMELINE_MAX_UNITS)
        snprintf(g->no_timeline, sizeof g->no_timeline,
                 "the device has %u SMs, more than the timeline build's %u per-SM records",
                 g->compute_units, gs_cuda_timeline_vars.slots);
    return GS_OK;
}

static void cuda_version_text(int v, char *out, size_t size)
{
    snprintf(out, size, "%d.%d", v / 1000, (v % 1000) / 10);
}

/* "CUDA runtime 13.0, driver API 13.0" for api_version; the driver version is
 * the NVIDIA one (580.65.06) when the kernel module says it, else the
 * driver API's. */
static void cuda_versions(char *api, size_t api_size, char *driver, size_t driver_size)
{
    int rt = 0, drv = 0;
    char rts[16], drvs[16];
    (void)CUDA_CHECK(NULL, cudaRuntimeGetVersion(&rt));
    (void)CUDA_CHECK(NULL, cudaDriverGetVersion(&drv));
    cuda_version_text(rt, rts, sizeof rts);
    cuda_version_text(drv, drvs, sizeof drvs);
    snprintf(api, api_size, "CUDA runtime %s, driver API %s", rts, drvs);
    cuda_nvidia_driver_version(driver, driver_size);
    if (!driver[0])
        snprintf(driver, driver_size, "CUDA driver API %s", drvs);
}


static int cuda_open(struct gs_device_list *list, char *notice, unsigned notice_size,
                     struct gs_err *e)
{
    if (notice_size)
        notice[0] = '\0';
    /* The one call not made through CUDA_CHECK: here a failure is not an
     * error but the answer (no driver, no GPU), reported as GS_NO_DEVICE in
     * the form the CLI shows. */
    int n = 0;
    cudaError_t rc = cudaGetDeviceCount(&n);
    if (rc != cudaSuccess) {
        (void)cudaGetLastError();
        return gs_err_set(e, GS_NO_DEVICE, "no CUDA device: cudaGetDeviceCount returned %s: %s; %s",
                          cudaGetErrorName(rc), cudaGetErrorString(rc), cuda_no_device_hint(rc));
    }
    if (n <= 0)
        return gs_err_set(e, GS_NO_DEVICE, "no CUDA device: cudaGetDeviceCount found 0 devices; %s",
                          cuda_no_device_hint(cudaErrorNoDevice));

    char api[128], driver[64];
    cuda_versions(api, sizeof api, driver, sizeof driver);
    for (int ordinal = 0; ordinal < n; ++ordinal) {
        struct cuda_device *d = (struct cuda_device *)gs_device_list_add(list, e);
        int st = d ? cuda_describe(d, ordinal, api, driver, e) : e->status;
        if (st != GS_OK)
            return st;
    }
    return GS_OK;
}

static void cuda_release(struct gs_device *dev)
{
    struct cuda_device *d = (struct cuda_device *)dev;
    if (d->ready && CUDA_CHECK(NULL, cudaSetDevice(d->ordinal)) == GS_OK) {
        (void)CUDA_CHECK(NULL, cudaEventDestroy(d->stop));
        (void)CUDA_CHECK(NULL, cudaEventDestroy(d->start));
        (void)CUDA_CHECK(NULL, cudaStreamDestroy(d->stream));
    }
}

/* ---- per-device state -------------------------------------------------- */

/* Make d the calling thread's current device (several may exist, and the
 * current device is per thread), creating its stream and timing events on
 * first use. */
int cuda_prepare(struct cuda_device *d, struct gs_err *e)
{
    int s = CUDA_CHECK(e, cudaSetDevice(d->ordinal));
    if (s != GS_OK || d->ready)
        return s;
    /* Non-blocking: our stream never waits on the legacy default stream,
     * so nothing outside this backend can stretch a timed interval. */
    s = CUDA_CHECK(e, cudaStreamCreateWithFlags(&d->stream, cudaStreamNonBlocking));
    if (s != GS_OK)
        goto out;
    s = CUDA_CHECK(e, cudaEventCreate(&d->start));
    if (s != GS_OK)
        goto out_stream;
    s = CUDA_CHECK(e, cudaEventCreate(&d->stop));
    if (s != GS_OK)
        goto out_start;
    d->ready = 1;
    return GS_OK;
out_start:
    (void)CUDA_CHECK(NULL, cudaEventDestroy(d->start));
out_stream:
    (void)CUDA_CHECK(NULL, cudaStreamDestroy(d->stream));
out:
    return s;
}

/* With lazy loading (CUDA_MODULE_LOADING=LAZY, the default since CUDA 12.2)
 * a kernel's module is loaded by its first launch, inside the first timed
 * interval. Querying its attributes loads it now instead. */
int cuda_load_kernel(struct cuda_device *d, enum gs_kernel_id k, int build,
                     struct gs_err *e)
{
    unsigned *loaded = &d->loaded[build];
    if (*loaded & (1u << k))
        return GS_OK;
    struct cudaFuncAttributes fa;
    int s = CUDA_CHECK(e, cudaFuncGetAttributes(&fa, cuda_symbol(k, build)));
    if (s == GS_OK)
        *loaded |= 1u << k;
    return s;
}

/* ---- occupancy and launch rules ---------------------------------------- */

static int cuda_blocks_per_unit(struct gs_device *dev, enum gs_kernel_id kernel, unsigned block,
                                unsigned *blocks, char *rule, unsigned rule_size,
                                struct gs_err *e)
{
    struct cuda_device *d = (struct cuda_device *)dev;
    int s;
    if (block == 0 || block > dev->max_block)
        return gs_err_set(e, GS_USAGE, "cuda: block of %u threads is outside 1..%u", block,
                          dev->max_block);
    s = cuda_prepare(d, e);
    if (s == GS_OK)
        s = cuda_load_kernel(d, kernel, 0, e);
    int b = 0;
    if (s == GS_OK)
        s = CUDA_CHECK(e, cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                              &b, gs_cuda_kernel_symbols[kernel], (int)block, 0));
    if (s != GS_OK)
        return s;
    *blocks = b > 0 ? (unsigned)b : 0u;
    if (rule_size)
        snprintf(rule, rule_size, "cudaOccupancyMaxActiveBlocksPerMultiprocessor(%s, %u) = %d",
                 gs_kernel_info(kernel)->symbol, block, b);
    return GS_OK;
}

/* CUDA launches whole blocks: a global size other than grid x block has
 * no CUDA launch. Writes the rule and returns 1 for such a launch. */
static int cuda_ragged(const struct gs_launch *l, char *rule, size_t size)
{
    if (l->global == l->grid * l->block)
        return 0;
    snprintf(rule, size, "global size %llu is not grid x block: CUDA launches whole blocks only",
             (unsigned long long)l->global);
    return 1;
}

static int cuda_predicts_accept(const struct gs_device *dev, const struct gs_launch *l, char *why,
                                unsigned why_size)
{
    char rule[160];
    rule[0] = '\0';
    if (l->grid == 0)
        snprintf(rule, sizeof rule, "a grid of zero blocks is not a launch");
    else if (l->block == 0 || l->block > dev->max_block)
        snprintf(rule, sizeof rule, "block of %llu threads is outside 1..%u (maxThreadsPerBlock)",
                 (unsigned long long)l->block, dev->max_block);
    else if (l->grid > dev->max_grid)
        snprintf(rule, sizeof rule, "grid of %llu blocks exceeds maxGridSize[0] = %llu",
                 (unsigned long long)l->grid, (unsigned long long)dev->max_grid);
    else if (l->grid_y > ((const struct cuda_device *)dev)->max_grid_y)
        snprintf(rule, sizeof rule, "grid of %llu blocks along y exceeds maxGridSize[1] = %llu",
                 (unsigned long long)l->grid_y,
                 (unsigned long long)((const struct cuda_device *)dev)->max_grid_y);
    else
        cuda_ragged(l, rule, sizeof rule);
    if (rule[0] && why_size)
        gs_strlcpy(why, rule, why_size);
    return rule[0] == '\0';
}

/* ---- buffers ----------------------------------------------------------- */

static int cuda_alloc(struct gs_device *dev, struct gs_buf *buf, struct gs_err *e)
{
    struct cuda_device *d = (struct cuda_device *)dev;
    int s = cuda_prepare(d, e);
    if (s != GS_OK)
        return s;
    /* cudaMalloc of 0 bytes succeeds with a NULL pointer: an empty buffer
     * still gets a real allocation. */
    return CUDA_CHECK(e, cudaMalloc(&((struct cuda_buf *)buf)->ptr,
                                    buf->bytes ? (size_t)buf->bytes : CUDA_MIN_ALLOC));
}

/* write and read go through our stream and wait for it, so they are ordered
 * with launches without relying on the legacy default stream. */
static int cuda_transfer(struct cuda_device *d, void *dst, const void *src, uint64_t bytes,
                         enum cudaMemcpyKind kind, struct gs_err *e)
{
    int s = cuda_prepare(d, e);
    if (s == GS_OK)
        s = CUDA_CHECK(e, cudaMemcpyAsync(dst, src, (size_t)bytes, kind, d->stream));
    if (s == GS_OK)
        s = CUDA_CHECK(e, cudaStreamSynchronize(d->stream));
    return s;
}

static int cuda_write(struct gs_device *dev, struct gs_buf *buf, uint64_t offset,
                      const void *src, uint64_t bytes, struct gs_err *e)
{
    return cuda_transfer((struct cuda_device *)dev, (char *)ptr_of(buf) + offset, src, bytes,
                         cudaMemcpyHostToDevice, e);
}

static int cuda_read(struct gs_device *dev, struct gs_buf *buf, uint64_t offset, void *dst,
                     uint64_t bytes, struct gs_err *e)
{
    return cuda_transfer((struct cuda_device *)dev, dst, (const char *)ptr_of(buf) + offset,
                         bytes, cudaMemcpyDeviceToHost, e);
}

/* The runtime API sets bytes only (cudaMemset); a 32-bit pattern needs the
 * driver API's cuMemsetD32Async, reached through the runtime's entry-point
 * query so that the program does not link libcuda (it must start, and
 * skip CUDA, on machines without the driver). */
typedef int (*cuda_memset_d32_fn)(unsigned long long dst, unsigned int value, size_t count,
                                  cudaStream_t stream);

static int cuda_memset_d32(cuda_memset_d32_fn *fn, struct gs_err *e)
{
    enum cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
    void *p = NULL;
    int s = CUDA_CHECK(e, cudaGetDriverEntryPointByVersion("cuMemsetD32Async", &p, 12000,
                                                           cudaEnableDefault, &found));
    if (s != GS_OK)
        return s;
    if (found != cudaDriverEntryPointSuccess || !p)
        return gs_err_set(e, GS_UNSUPPORTED,
                          "cuda: the driver has no cuMemsetD32Async (entry-point query "
                          "result %d)", (int)found);
    *fn = (cuda_memset_d32_fn)p;
    return GS_OK;
}

static int cuda_fill32(struct gs_device *dev, struct gs_buf *buf, uint64_t offset,
                       uint64_t bytes, uint32_t pattern, struct gs_err *e)
{
    struct cuda_device *d = (struct cuda_device *)dev;
    cuda_memset_d32_fn fn = NULL;
    int s = cuda_prepare(d, e);
    if (s == GS_OK)
        s = cuda_memset_d32(&fn, e);
    if (s != GS_OK)
        return s;
    const int rc = fn((unsigned long long)(uintptr_t)ptr_of(buf) + offset, pattern,
                      (size_t)(bytes / 4), d->stream);
    if (rc != 0)
        return gs_api_error(e, GS_API, "cuMemsetD32Async(dst, pattern, count, stream)", __FILE__,
                            __LINE__, "CUresult", rc, "the driver's 32-bit fill failed");
    return CUDA_CHECK(e, cudaStreamSynchronize(d->stream));
}

static int cuda_staging_alloc(struct gs_device *dev, uint64_t bytes, void **ptr, void **handle,
                              struct gs_err *e)
{
    int s = cuda_prepare((struct cuda_device *)dev, e);
    *handle = NULL;
    if (s == GS_OK)
        s = CUDA_CHECK(e, cudaHostAlloc(ptr, (size_t)bytes, cudaHostAllocDefault));
    return s;
}

static void cuda_staging_free(struct gs_device *dev, void *ptr, void *handle)
{
    (void)dev;
    (void)handle;
    (void)CUDA_CHECK(NULL, cudaFreeHost(ptr));
}

/* From any thread: the device made current there, without the stream and
 * events cuda_prepare makes (the thread that opened the device makes them). */
static int cuda_pin(struct gs_device *dev, void *ptr, uint64_t bytes, struct gs_err *e)
{
    int s = CUDA_CHECK(e, cudaSetDevice(((struct cuda_device *)dev)->ordinal));
    if (s == GS_OK)
        s = CUDA_CHECK(e, cudaHostRegister(ptr, (size_t)bytes, cudaHostRegisterDefault));
    return s;
}

static void cuda_unpin(struct gs_device *dev, void *ptr)
{
    (void)dev;
    (void)CUDA_CHECK(NULL, cudaHostUnregister(ptr));
}

static int cuda_mem_available(struct gs_device *dev, uint64_t *bytes, struct gs_err *e)
{
    size_t free_b = 0, total = 0;
    int s = cuda_prepare((struct cuda_device *)dev, e);
    if (s == GS_OK)
        s = CUDA_CHECK(e, cudaMemGetInfo(&free_b, &total));
    *bytes = s == GS_OK ? (uint64_t)free_b : 0;
    return s;
}

static void cuda_free(struct gs_device *dev, struct gs_buf *buf)
{
    struct cuda_device *d = (struct cuda_device *)dev;
    /* Nowhere to report a failure; after a sticky error this fails and the
     * memory goes with the context. */
    if (CUDA_CHECK(NULL, cudaSetDevice(d->ordinal)) == GS_OK)
        (void)CUDA_CHECK(NULL, cudaFree(ptr_of(buf)));
}

/* ---- launch and copy --------------------------------------------------- */

/* Shapes that cudaLaunchKernel cannot even be asked for: a ragged global
 * size, or a count that does not fit dim3's unsigned int (it would be
 * truncated into a different, valid launch). Returns 1 when refused. */
int cuda_inexpressible(const struct gs_launch *l, struct gs_launch_result *r)
{
    char msg[160];
    if (l->grid > 0xffffffffull || l->block > 0xffffffffull || l->grid_y > 0xffffffffull)
        snprintf(msg, sizeof msg, "grid %llu x block %llu does not fit dim3 (unsigned int)",
                 (unsigned long long)l->grid, (unsigned long long)l->block);
    else if (!cuda_ragged(l, msg, sizeof msg))
        return 0;
    gs_refusal(r, -1, "not expressible in CUDA", "%s", msg);
    return 1;
}

/* cudaLaunchKernel refused the shape. Launch-configuration errors
 * (cudaErrorInvalidValue, cudaErrorInvalidConfiguration,
 * cudaErrorLaunchOutOfResources...) are found on the host before anything
 * reaches the GPU, so they do not corrupt the context: they are not sticky,
 * and only sit in the runtime's last-error slot, which cudaGetLastError()
 * resets, so that the next row starts clean. A kernel fault is different:
 * it happens on the device, poisons the context, and every later call
 * returns it. An earlier fault can also surface at this launch, so after the
 * reset we probe the stream: a sticky error fails the probe, and the launch
 * is then an error (context lost), not a refusal. */
int cuda_refused(struct cuda_device *d, cudaError_t rc, struct gs_launch_result *r,
                 struct gs_err *e)
{
    gs_refusal(r, (long)rc, cudaGetErrorName(rc), "%s", cudaGetErrorString(rc));
    if (cuda_is_sticky(rc))
        return cuda_check(rc, "cudaLaunchKernel(kernel, grid, block, args, 0, stream)", __FILE__,
                          __LINE__, e);
    (void)cudaGetLastError();
    return CUDA_CHECK(e, cudaStreamSynchronize(d->stream));
}

static int cuda_launch(struct gs_device *dev, const struct gs_launch *l, int timed,
                       struct gs_launch_result *r, struct gs_err *e)
{
    struct cuda_device *d = (struct cuda_device *)dev;
    int s;
    memset(r, 0, sizeof *r);
    if (cuda_inexpressible(l, r))
        return GS_OK;
    s = cuda_prepare(d, e);
    if (s == GS_OK)
        s = cuda_load_kernel(d, l->kernel, gs_launch_build(l), e);
    if (s != GS_OK)
        return s;

    void *a = view_of(l->a), *b = view_of(l->b), *out = view_of(l->out);
    unsigned long long n = l->n, param = l->param; /* the kernels' gs_size */
    void *args[] = {&a, &b, &out, &n, &param};
    dim3 grid = {(unsigned)l->grid, l->grid_y ? (unsigned)l->grid_y : 1u, 1u};
    dim3 block = {(unsigned)l->block, 1u, 1u};

    if (timed && (s = CUDA_CHECK(e, cudaEventRecord(d->start, d->stream))) != GS_OK)
        return s;
    cudaError_t rc = cudaLaunchKernel(cuda_symbol(l->kernel, gs_launch_build(l)), grid, block,
                                      args, 0, d->stream);
    if (rc != cudaSuccess)
        return cuda_refused(d, rc, r, e);
    if (timed && (s = CUDA_CHECK(e, cudaEventRecord(d->stop, d->stream))) != GS_OK)
        return s;
    /* A kernel fault surfaces here, sticky: GS_API with "context is lost". */
    if ((s = CUDA_CHECK(e, cudaStreamSynchronize(d->stream))) != GS_OK)
        return s;
    r->accepted = 1;
    if (timed) {
        float ms = 0.0f;
        if ((s = CUDA_CHECK(e, cudaEventElapsedTime(&ms, d->start, d->stop))) != GS_OK)
            return s;
        r->ms = (double)ms;
    }
    return GS_OK;
}

static int cuda_copy(struct gs_device *dev, struct gs_buf *dst, struct gs_buf *src,
                     uint64_t bytes, double *ms, struct gs_err *e)
{
    struct cuda_device *d = (struct cuda_device *)dev;
    float t = 0.0f;
    int s = cuda_prepare(d, e);
    if (s == GS_OK)
        s = CUDA_CHECK(e, cudaEventRecord(d->start, d->stream));
    if (s == GS_OK)
        s = CUDA_CHECK(e, cudaMemcpyAsync(ptr_of(dst), ptr_of(src), (size_t)bytes,
                                          cudaMemcpyDeviceToDevice, d->stream));
    if (s == GS_OK)
        s = CUDA_CHECK(e, cudaEventRecord(d->stop, d->stream));
    if (s == GS_OK)
        s = CUDA_CHECK(e, cudaEventSynchronize(d->stop));
    if (s == GS_OK)
        s = CUDA_CHECK(e, cudaEventElapsedTime(&t, d->start, d->stop));
    if (s == GS_OK)
        *ms = (double)t;
    return s;
}


const struct gs_backend gs_backend_cuda = {
    .name = "cuda",
    .description = "CUDA runtime: kernels/ compiled by nvcc, launched with cudaLaunchKernel",
    .open_any_thread = 1, /* cuda_prepare makes the device current per thread */
    .device_size = sizeof(struct cuda_device),
    .buffer_size = sizeof(struct cuda_buf),
    .open = cuda_open,
    .release = cuda_release,
    .blocks_per_unit = cuda_blocks_per_unit,
    .predicts_accept = cuda_predicts_accept,
    .alloc = cuda_alloc,
    .write = cuda_write,
    .read = cuda_read,
    .free = cuda_free,
    .launch = cuda_launch,
    .copy = cuda_copy,
    .fill32 = cuda_fill32,
    .staging_alloc = cuda_staging_alloc,
    .pin = cuda_pin,
    .unpin = cuda_unpin,
    .staging_free = cuda_staging_free,
    .mem_available = cuda_mem_available,
    .timeline = cuda_timeline,
    .user_dialects = (1u << GS_DIALECT_CUDA) | (1u << GS_DIALECT_PORTABLE),
    .user_build = cuda_user_build,
    .user_launch = cuda_user_launch,
    .user_free = cuda_user_free,
    .user_compile = cuda_user_compile,
    .counters = cuda_counters,
};
