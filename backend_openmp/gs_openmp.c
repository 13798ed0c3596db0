/* SPDX-License-Identifier: MIT */
/* The OpenMP target offload backend: the kernels of kernels/ in an SPMD
 * target region (gs_openmp_kernels.c), offloaded by GCC to NVIDIA GPUs
 * (nvptx), with buffers from omp_target_alloc and omp_target_memcpy.
 *
 * The runtime chooses the launch. num_teams and thread_limit are upper
 * bounds, and GCC runs an OpenMP thread as a whole warp, as many a team as
 * the region's registers allow (a test program on the H200 got 28 threads a
 * team when it asked for 256).
 * So the shape asked for is not the shape that runs, and the monolithic
 * kernel, right only on the grid it was sized for, is wrong where the
 * grid-stride loop is right. The backend predicts like every other: before a
 * case, grant() measures what the runtime grants for its shape, by a launch
 * of the same region that reads the launch and runs no kernel (kept per
 * shape); the core predicts from that grant; launch() reads the grant
 * again inside the real launch and reports it, and the prediction fails if
 * the two differ.
 *
 * Devices. Every OpenMP offload device. OpenMP has no query for a device's
 * name or memory, so they are read from the CUDA driver that libgomp's
 * nvptx plugin itself loads (libcuda.so.1, opened at run time: the backend
 * does not link it). libgomp's device n is CUDA device n.
 *
 * One CUDA context a GPU. libgomp's nvptx plugin (GCC 12) makes a CUDA
 * context of its own for a device unless the thread has one current when it
 * first opens the device, and afterwards takes any context current on the
 * thread for the same GPU as its own (nvptx_attach_host_thread_to_device
 * compares devices, not contexts). The CUDA runtime makes the GPU's primary
 * context current on every cudaSetDevice. So beside the CUDA backend,
 * libgomp launched its kernel in the primary context, where its module does
 * not exist, and ended the process ("cuLaunchKernel error: invalid resource
 * handle", docs/results/h200-openmp.md). open() therefore has libgomp open
 * each device while that device's primary context is current: libgomp then
 * shares it (its ctx_shared) and both runtimes use one context. The primary
 * context stays retained for the life of the process, since libgomp keeps
 * using it. No OpenACC call is made: OpenACC's lazy start opens device 0 on
 * its own and refuses a device OpenMP has opened ("device already active"). With OMP_TARGET_OFFLOAD=DISABLED the target
 * regions run on the host: the one device is then "host fallback", a CPU,
 * never presented as a GPU (CI runs it; nothing else turns it on).
 *
 * Launch rules, shared by predicts_accept() and launch():
 *   - num_teams and thread_limit must be positive ints: a shape of zero
 *     blocks or threads, or beyond INT_MAX, cannot be asked of OpenMP;
 *   - a global size that is not grid x block cannot be expressed;
 *   - on the host fallback, more than 2^20 teams are never sent
 *     (GS_NOT_SENT): the teams run one after another on the CPU.
 * One dimension only (no GS_CAP_2D); the count and trace builds run
 * (GS_CAP_COUNT, GS_CAP_TRACE).
 * No device timer (no GS_CAP_TIMING, no copy): `gridstride bandwidth`
 * leaves the backend out, and says why.
 *
 * What this backend cannot report: libgomp ends the process (gomp_fatal)
 * when the device fails under a target region or a copy, so a fault is
 * never an error status here, unlike CUDA's sticky errors. */
#include <dlfcn.h>
#include <limits.h>
#include <omp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gs_backend.h"
#include "gs_common.h"
#include "gs_openmp_kernels.h"
#include "gs_sysmem.h"

#define OMP_GRANTS 64 /* shapes whose grant is kept: a run asks a dozen */

/* One shape's grant, as the probe launch measured it. */
struct omp_grant {
    uint64_t asked_grid, asked_block, grid, block;
};

struct omp_device {
    struct gs_device base;
    int num;      /* the OpenMP device number (the initial device on the host fallback) */
    int fallback; /* target regions run on the host */
    struct omp_grant grants[OMP_GRANTS];
    unsigned ngrants; /* kept so far; past OMP_GRANTS the oldest is replaced */
};
GS_DEVICE_STRUCT(struct omp_device);

struct omp_buf {
    struct gs_buf base;
    void *ptr;
};
GS_BUF_STRUCT(struct omp_buf);

static void *ptr_of(const struct gs_buf *b)
{
    return b ? ((const struct omp_buf *)b)->ptr : NULL;
}

/* What a launch passes: the device address of the view (gs_buf.front in). */
static void *view_of(const struct gs_buf *b)
{
    return b ? (char *)((const struct omp_buf *)b)->ptr + b->front : NULL;
}

/* omp_target_memcpy answers 0 or an error number, nothing more. */
static int omp_check(int rc, const char *call, const char *file, int line, struct gs_err *e)
{
    if (rc == 0)
        return GS_OK;
    return gs_api_error(e, GS_API, call, file, line, "omp_target_memcpy", rc,
                        "the OpenMP runtime refused the copy");
}
#define OMP_CHECK(e, call) omp_check((call), #call, __FILE__, __LINE__, (e))

/* ---- discovery ---------------------------------------------------------- */

static int offload_disabled(void)
{
    const char *v = getenv("OMP_TARGET_OFFLOAD");
    return v && strcasecmp(v, "DISABLED") == 0;
}

static void describe_common(struct omp_device *d, int num)
{
    struct gs_device *g = &d->base;
    d->num = num;
    snprintf(g->id, sizeof g->id, "%d", g->index);
    snprintf(g->api_version, sizeof g->api_version, "OpenMP %d, GCC %s libgomp", _OPENMP,
             __VERSION__);
    g->max_block = g->max_block_device = INT_MAX; /* thread_limit: any positive int */
    g->max_grid = INT_MAX;                       /* num_teams: likewise */
    gs_strlcpy(g->peak_rule, "unknown: OpenMP reports no memory clock", sizeof g->peak_rule);
    g->caps = GS_CAP_COUNT | GS_CAP_TRACE;
    gs_strlcpy(g->no_timeline,
               "OpenMP has no compute-unit id or device clock in a target region "
               "(omp_get_team_num numbers teams, not SMs; GCC's inline PTX could read %smid "
               "and %globaltimer, not done here)",
               sizeof g->no_timeline);
}

static void describe_fallback(struct omp_device *d)
{
    struct gs_device *g = &d->base;
    describe_common(d, omp_get_initial_device());
    d->fallback = 1;
    gs_strlcpy(g->name, "host fallback (OMP_TARGET_OFFLOAD=DISABLED): the CPU, not a GPU",
               sizeof g->name);
    gs_strlcpy(g->platform, "OpenMP initial device", sizeof g->platform);
    gs_strlcpy(g->arch, "target regions run on the host", sizeof g->arch);
    g->compute_units = (unsigned)omp_get_num_procs();
    g->global_mem = g->max_alloc = gs_host_total_memory();
    gs_strlcpy(g->no_bandwidth,
               "the host fallback runs the target regions on the CPU: not a GPU's bandwidth",
               sizeof g->no_bandwidth);
}

/* ---- the CUDA driver, for what OpenMP cannot say ------------------------ */

/* The few driver entry points used, declared here: the backend builds
 * without the CUDA toolkit. */
typedef int cu_result;
typedef void *cu_context;
struct cu_api {
    int loaded;
    cu_result (*init)(unsigned);
    cu_result (*driver_version)(int *);
    cu_result (*device_count)(int *);
    cu_result (*device_get)(int *, int);
    cu_result (*device_name)(char *, int, int);
    cu_result (*total_mem)(size_t *, int);
    cu_result (*primary_retain)(cu_context *, int);
    cu_result (*push)(cu_context);
    cu_result (*pop)(cu_context *);
    cu_result (*mem_info)(size_t *, size_t *);
    cu_result (*error_name)(cu_result, const char **);
};
static struct cu_api cu;

static int cu_fail(struct gs_err *e, const char *call, int line, cu_result rc)
{
    const char *name = NULL;
    if (!cu.error_name || cu.error_name(rc, &name) != 0 || !name)
        name = "CUDA_ERROR";
    return gs_api_error(e, GS_API, call, __FILE__, line, name, rc,
                        "the CUDA driver under libgomp failed");
}
#define CU(e, fn, ...)                                                                        \
    do {                                                                                      \
        const cu_result rc_ = cu.fn(__VA_ARGS__);                                             \
        if (rc_ != 0)                                                                         \
            return cu_fail((e), "cu." #fn, __LINE__, rc_);                                    \
    } while (0)

static int cu_load(struct gs_err *e)
{
    static const struct {
        const char *sym;
        size_t off;
    } table[] = {
#define CU_SYM(member, sym) {sym, offsetof(struct cu_api, member)}
        CU_SYM(init, "cuInit"),
        CU_SYM(driver_version, "cuDriverGetVersion"),
        CU_SYM(device_count, "cuDeviceGetCount"),
        CU_SYM(device_get, "cuDeviceGet"),
        CU_SYM(device_name, "cuDeviceGetName"),
        CU_SYM(total_mem, "cuDeviceTotalMem_v2"),
        CU_SYM(primary_retain, "cuDevicePrimaryCtxRetain"),
        CU_SYM(push, "cuCtxPushCurrent_v2"),
        CU_SYM(pop, "cuCtxPopCurrent_v2"),
        CU_SYM(mem_info, "cuMemGetInfo_v2"),
        CU_SYM(error_name, "cuGetErrorName"),
#undef CU_SYM
    };
    if (cu.loaded)
        return GS_OK;
    /* Never closed: libgomp's plugin holds the same library. */
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return gs_err_set(e, GS_NO_DEVICE,
                          "openmp: libgomp found a GPU but libcuda.so.1 does not load here (%s); "
                          "put the NVIDIA driver's libcuda.so.1 on the library path",
                          dlerror());
    for (size_t i = 0; i < sizeof table / sizeof table[0]; ++i) {
        void *f = dlsym(lib, table[i].sym);
        if (!f)
            return gs_err_set(e, GS_NO_DEVICE,
                              "openmp: the CUDA driver has no %s; update the NVIDIA driver",
                              table[i].sym);
        memcpy((char *)&cu + table[i].off, &f, sizeof f);
    }
    CU(e, init, 0);
    cu.loaded = 1;
    return GS_OK;
}

/* Make device num's primary context current (pushed: leave() pops it). */
static int enter(int num, struct gs_err *e)
{
    int dev;
    cu_context ctx;
    CU(e, device_get, &dev, num);
    CU(e, primary_retain, &ctx, dev); /* kept: see "One CUDA context a GPU" */
    CU(e, push, ctx);
    return GS_OK;
}

static void leave(void)
{
    cu_context popped;
    (void)cu.pop(&popped);
}

static int describe_nvidia(struct omp_device *d, int num, struct gs_err *e)
{
    struct gs_device *g = &d->base;
    int dev, version;
    size_t total;
    describe_common(d, num);
    CU(e, device_get, &dev, num);
    CU(e, device_name, g->name, (int)sizeof g->name, dev);
    CU(e, total_mem, &total, dev);
    CU(e, driver_version, &version);
    snprintf(g->driver_version, sizeof g->driver_version, "CUDA Driver %d.%d", version / 1000,
             version % 1000 / 10);
    gs_strlcpy(g->platform, "OpenMP target offload, libgomp nvptx plugin", sizeof g->platform);
    snprintf(g->arch, sizeof g->arch, "nvptx, PTX for %s, JIT by the driver", GS_OPENMP_ISA);
    g->is_gpu = 1;
    g->compute_units = 1; /* OpenMP reports none: G is the runtime's own team count */
    g->global_mem = g->max_alloc = total;
    gs_strlcpy(g->no_bandwidth,
               "GCC runs an OpenMP thread as a whole warp, so its bytes per second do not "
               "compare with CUDA's or OpenCL's (and OpenMP has no device timer)",
               sizeof g->no_bandwidth);
    return GS_OK;
}

/* libgomp opens device num (omp_target_alloc does) with the device's
 * primary context current, so it shares that context. */
static int open_shared(int num, struct gs_err *e)
{
    int s = enter(num, e);
    if (s != GS_OK)
        return s;
    void *p = omp_target_alloc(1, num);
    omp_target_free(p, num);
    leave();
    if (!p)
        return gs_err_set(e, GS_NO_DEVICE,
                          "openmp: omp_target_alloc on device %d failed when libgomp opened it; "
                          "run with GOMP_DEBUG=1 to see libgomp's reason", num);
    return GS_OK;
}

static int openmp_open(struct gs_device_list *list, char *notice, unsigned notice_size,
                       struct gs_err *e)
{
    if (notice_size)
        notice[0] = '\0';
    if (offload_disabled()) {
        struct gs_device *g = gs_device_list_add(list, e);
        if (!g)
            return e->status;
        describe_fallback((struct omp_device *)g);
        /* The conformance body on 2 cores (a VM), alone and beside a busy
         * core: libgomp's default 0.4 s and 4.7 s (idle threads spin and
         * slow the verification threads); OMP_WAIT_POLICY=PASSIVE 7.1 s and
         * 0.7 s (asleep, they are woken on the other core at each barrier
         * of a 256-thread team); PASSIVE with OMP_PROC_BIND=master (the
         * team on the initial thread's place) 0.6 s either way. The table
         * at n = 2^24 with PASSIVE: 9.9 s, with both 1.0 s. */
        const char *wait = getenv("OMP_WAIT_POLICY"), *bind = getenv("OMP_PROC_BIND");
        if (notice_size && !(wait && strcasecmp(wait, "PASSIVE") == 0 && bind && bind[0]))
            gs_strlcpy(notice,
                       "host fallback: set OMP_WAIT_POLICY=PASSIVE OMP_PROC_BIND=master: "
                       "libgomp's idle threads otherwise spin and slow gridstride's own "
                       "verification threads, or, asleep, are woken on other cores at every "
                       "barrier of a 256-thread team (on 2 cores both cost seconds a run)",
                       notice_size);
        return GS_OK;
    }
    const int n = omp_get_num_devices();
    if (n <= 0)
        return gs_err_set(e, GS_NO_DEVICE,
                          "no OpenMP offload device: omp_get_num_devices() = 0 (libgomp found "
                          "no GPU: check nvidia-smi, and that libgomp-plugin-nvptx.so.1 of the "
                          "same GCC as libgomp.so.1 is on the library path); set "
                          "OMP_TARGET_OFFLOAD=DISABLED to run the target regions on the host");
    int s = cu_load(e), cuda_count = 0;
    if (s != GS_OK)
        return s;
    CU(e, device_count, &cuda_count);
    if (cuda_count != n)
        return gs_err_set(e, GS_NO_DEVICE,
                          "libgomp counts %d OpenMP devices, the CUDA driver %d GPUs: this build "
                          "offloads to nvptx only (-foffload=nvptx-none); run it where the only "
                          "offload devices are NVIDIA GPUs", n, cuda_count);
    for (int i = 0; i < n; ++i) {
        struct gs_device *g = gs_device_list_add(list, e);
        if (!g)
            return e->status;
        if ((s = describe_nvidia((struct omp_device *)g, i, e)) != GS_OK ||
            (s = open_shared(i, e)) != GS_OK)
            return s;
    }
    return GS_OK;
}

/* ---- the launch the runtime chooses ------------------------------------ */

/* G: on a GPU, the teams the runtime launches when it is not told how many
 * (OpenMP has no occupancy query and reports no compute units); on the host
 * fallback, 4 teams per core, as the host backend does. */
static int openmp_blocks_per_unit(struct gs_device *dev, enum gs_kernel_id kernel,
                                  unsigned block, unsigned *blocks, char *rule,
                                  unsigned rule_size, struct gs_err *e)
{
    struct omp_device *d = (struct omp_device *)dev;
    struct gs_omp_seen seen;
    (void)kernel;
    if (block == 0 || block > INT_MAX)
        return gs_err_set(e, GS_USAGE, "openmp: thread_limit(%u) is not a positive int", block);
    if (d->fallback) {
        *blocks = GS_CPU_BLOCKS_PER_UNIT;
        gs_strlcpy(rule, "no occupancy on a CPU: 4 teams per core, as the host backend",
                   rule_size);
        return GS_OK;
    }
    gs_omp_default_launch(d->num, (int)block, &seen);
    if (seen.teams == 0 || seen.teams > UINT_MAX)
        return gs_err_set(e, GS_API, "openmp: the runtime's own launch reported %llu teams",
                          (unsigned long long)seen.teams);
    *blocks = (unsigned)seen.teams;
    snprintf(rule, rule_size,
             "the runtime's own launch: target teams thread_limit(%u) without num_teams ran "
             "%llu teams of %llu threads",
             block, (unsigned long long)seen.teams, (unsigned long long)seen.threads);
    return GS_OK;
}

static int openmp_predicts_accept(const struct gs_device *dev, const struct gs_launch *l,
                                  char *why, unsigned why_size)
{
    const struct omp_device *d = (const struct omp_device *)dev;
    const uint64_t grid = l->asked_grid ? l->asked_grid : l->grid;
    const uint64_t block = l->asked_grid ? l->asked_block : l->block;
    const char *rule = NULL;
    int answer = GS_REFUSES;
    if (grid == 0 || block == 0)
        rule = "num_teams and thread_limit need a positive value: a program that passes 0 is "
               "not conforming OpenMP";
    else if (grid > INT_MAX || block > INT_MAX)
        rule = "num_teams and thread_limit take an int: the shape does not fit";
    else if (!l->asked_grid && l->global != grid * block)
        rule = "a global size other than teams x threads cannot be asked of OpenMP";
    else if (d->fallback && grid > GS_CPU_MAX_GRID)
        rule = "more than 2^20 teams on the host fallback: its teams run one after another, so "
               "the suite caps the grid to keep a launch to seconds",
        answer = GS_NOT_SENT;
    if (rule)
        gs_strlcpy(why, rule, why_size);
    return rule ? answer : GS_ACCEPTS;
}

static void run_region(const struct omp_device *d, const struct gs_launch *l, int probe,
                       struct gs_omp_seen *seen)
{
    const struct gs_omp_call c = {
        .device = d->num,
        .kernel = (int)l->kernel,
        .build = (int)gs_launch_build(l),
        .probe = probe,
        .teams = (int)(l->asked_grid ? l->asked_grid : l->grid),
        .threads = (int)(l->asked_grid ? l->asked_block : l->block),
        .a = view_of(l->a),
        .b = view_of(l->b),
        .out = view_of(l->out),
        .n = l->n,
        .param = l->param,
    };
    gs_omp_region(&c, seen);
}

/* Teams all of one size: otherwise the launch is no grid of blocks. */
static int uniform(const struct gs_omp_seen *s)
{
    return s->teams_ran == s->teams && s->threads_ran == s->teams * s->threads;
}

static int openmp_grant(struct gs_device *dev, const struct gs_launch *l, uint64_t *grid,
                        uint64_t *block, struct gs_err *e)
{
    struct omp_device *d = (struct omp_device *)dev;
    const unsigned kept = d->ngrants < OMP_GRANTS ? d->ngrants : OMP_GRANTS;
    for (unsigned i = 0; i < kept; ++i) {
        const struct omp_grant *k = &d->grants[i];
        if (k->asked_grid == l->grid && k->asked_block == l->block) {
            *grid = k->grid;
            *block = k->block;
            return GS_OK;
        }
    }
    struct gs_omp_seen seen;
    run_region(d, l, 1, &seen);
    if (!uniform(&seen) || seen.teams == 0 || seen.threads == 0)
        return gs_err_set(e, GS_API,
                          "openmp: asked <<<%llu, %llu>>>, the runtime ran %llu teams of %llu "
                          "threads in all (team 0: %llu of %llu threads): no grid to predict from",
                          (unsigned long long)l->grid, (unsigned long long)l->block,
                          (unsigned long long)seen.teams_ran,
                          (unsigned long long)seen.threads_ran, (unsigned long long)seen.teams,
                          (unsigned long long)seen.threads);
    d->grants[d->ngrants++ % OMP_GRANTS] =
        (struct omp_grant){l->grid, l->block, seen.teams, seen.threads};
    *grid = seen.teams;
    *block = seen.threads;
    return GS_OK;
}

static int openmp_launch(struct gs_device *dev, const struct gs_launch *l, int timed,
                         struct gs_launch_result *r, struct gs_err *e)
{
    char why[160];
    struct gs_omp_seen seen;
    (void)timed; /* never asked: no GS_CAP_TIMING */
    (void)e;
    if (openmp_predicts_accept(dev, l, why, sizeof why) != GS_ACCEPTS) {
        gs_refusal(r, -1, "not expressible in OpenMP", "%s", why);
        return GS_OK;
    }
    run_region((const struct omp_device *)dev, l, 0, &seen);
    r->accepted = 1;
    r->granted_grid = seen.teams;
    r->granted_block = uniform(&seen) ? seen.threads : 0;
    return GS_OK;
}

/* ---- buffers ------------------------------------------------------------ */

static int openmp_alloc(struct gs_device *dev, struct gs_buf *buf, struct gs_err *e)
{
    const struct omp_device *d = (const struct omp_device *)dev;
    struct omp_buf *b = (struct omp_buf *)buf;
    b->ptr = omp_target_alloc(buf->bytes ? (size_t)buf->bytes : 1, d->num);
    if (!b->ptr)
        return gs_err_set(e, GS_NOMEM, "omp_target_alloc(%llu bytes, device %d) returned NULL",
                          (unsigned long long)buf->bytes, d->num);
    return GS_OK;
}

static int openmp_write(struct gs_device *dev, struct gs_buf *buf, uint64_t offset,
                        const void *src, uint64_t bytes, struct gs_err *e)
{
    const int num = ((const struct omp_device *)dev)->num;
    return OMP_CHECK(e, omp_target_memcpy(ptr_of(buf), src, (size_t)bytes, (size_t)offset, 0,
                                          num, omp_get_initial_device()));
}

static int openmp_read(struct gs_device *dev, struct gs_buf *buf, uint64_t offset, void *dst,
                       uint64_t bytes, struct gs_err *e)
{
    const int num = ((const struct omp_device *)dev)->num;
    return OMP_CHECK(e, omp_target_memcpy(dst, ptr_of(buf), (size_t)bytes, 0, (size_t)offset,
                                          omp_get_initial_device(), num));
}

static void openmp_free(struct gs_device *dev, struct gs_buf *buf)
{
    omp_target_free(ptr_of(buf), ((const struct omp_device *)dev)->num);
}

static int openmp_mem_available(struct gs_device *dev, uint64_t *bytes, struct gs_err *e)
{
    const struct omp_device *d = (const struct omp_device *)dev;
    size_t free_bytes = 0, total = 0;
    if (d->fallback) {
        *bytes = gs_host_available_memory();
        return *bytes ? GS_OK : gs_err_set(e, GS_UNSUPPORTED, "openmp: free memory unknown");
    }
    int s = enter(d->num, e);
    if (s != GS_OK)
        return s;
    const cu_result rc = cu.mem_info(&free_bytes, &total);
    leave();
    if (rc != 0)
        return cu_fail(e, "cu.mem_info", __LINE__, rc);
    *bytes = free_bytes;
    return GS_OK;
}

const struct gs_backend gs_backend_openmp = {
    .name = "openmp",
    .description = "OpenMP target offload (GCC, nvptx): kernels/ in a target teams + parallel "
                   "region; the runtime grants the launch, read inside it",
    .device_size = sizeof(struct omp_device),
    .buffer_size = sizeof(struct omp_buf),
    .open = openmp_open,
    .blocks_per_unit = openmp_blocks_per_unit,
    .predicts_accept = openmp_predicts_accept,
    .alloc = openmp_alloc,
    .write = openmp_write,
    .read = openmp_read,
    .free = openmp_free,
    .launch = openmp_launch,
    .mem_available = openmp_mem_available,
    .grant = openmp_grant,
};
