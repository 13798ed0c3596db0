/* SPDX-License-Identifier: MIT */
/* The CUDA backend's user kernels (`gridstride check`): a user's CUDA C++ (or the portable dialect after
 * prelude_cuda.cuh) compiled at run time by NVRTC for the device's own
 * architecture, loaded with the runtime's library API (cudaLibraryLoadData,
 * cudaLibraryGetKernel) and launched with cudaLaunchKernel: no link against
 * the driver library. user_compile() runs NVRTC alone, for any target, so
 * that a machine without a GPU still proves the compile path. */
#include <dlfcn.h>
#include <nvrtc.h>
#include <pthread.h>

#include "gs_cuda_private.h"

/* NVRTC, loaded at its first use (dlopen), as CUPTI is: linked, its 100 MB
 * library cost every gridstride process its relocations at start (8 ms of
 * CPU and 1,700 page faults on a 2-core machine, against 1 ms for the whole
 * start without it), whether the process compiled anything or not, and
 * nearly none does. The library of the build's CUDA major version
 * (libnvrtc.so.13) by the loader's search (LD_LIBRARY_PATH, the system's
 * cache), then in the build's toolkit, then /usr/local/cuda's. Never
 * closed. */
#define NVRTC_FUNCTIONS(X)                                                                     \
    X(nvrtcGetErrorString)                                                                     \
    X(nvrtcVersion)                                                                            \
    X(nvrtcGetNumSupportedArchs)                                                               \
    X(nvrtcGetSupportedArchs)                                                                  \
    X(nvrtcCreateProgram)                                                                      \
    X(nvrtcDestroyProgram)                                                                     \
    X(nvrtcAddNameExpression)                                                                  \
    X(nvrtcCompileProgram)                                                                     \
    X(nvrtcGetProgramLogSize)                                                                  \
    X(nvrtcGetProgramLog)                                                                      \
    X(nvrtcGetLoweredName)                                                                     \
    X(nvrtcGetCUBINSize)                                                                       \
    X(nvrtcGetCUBIN)                                                                           \
    X(nvrtcGetPTXSize)                                                                         \
    X(nvrtcGetPTX)

static struct {
#define NVRTC_POINTER(name) __typeof__(&name) name;
    NVRTC_FUNCTIONS(NVRTC_POINTER)
#undef NVRTC_POINTER
    int loaded;
    char error[480];
} nv;
static pthread_once_t nv_once = PTHREAD_ONCE_INIT;

static void nvrtc_load_once(void)
{
    char soname[32], where[3][300];
    snprintf(soname, sizeof soname, "libnvrtc.so.%d", CUDART_VERSION / 1000);
    snprintf(where[0], sizeof where[0], "%s/%s", GS_NVRTC_DIR, soname);
    snprintf(where[1], sizeof where[1], "/usr/local/cuda/lib64/%s", soname);
    snprintf(where[2], sizeof where[2], "/usr/local/cuda/targets/%s-linux/lib/%s",
#if defined(__aarch64__)
             "sbsa",
#else
             "x86_64",
#endif
             soname);
    const char *tries[] = {soname, where[0], where[1], where[2]};
    void *h = NULL;
    char first_error[300] = "";
    for (size_t i = 0; i < sizeof tries / sizeof tries[0] && !h; ++i) {
        h = dlopen(tries[i], RTLD_NOW | RTLD_LOCAL);
        if (!h && !first_error[0])
            gs_strlcpy(first_error, dlerror(), sizeof first_error);
    }
    if (!h) {
        snprintf(nv.error, sizeof nv.error, "NVRTC (%s) not found: %s; put the CUDA toolkit's "
                 "lib64 (or the nvidia-cuda-nvrtc wheel's lib folder) on LD_LIBRARY_PATH",
                 soname, first_error);
        return;
    }
#define NVRTC_SYM(name)                                                                        \
    if (!(*(void **)&nv.name = dlsym(h, #name))) {                                             \
        snprintf(nv.error, sizeof nv.error, "NVRTC (%s) has no %s", soname, #name);            \
        return;                                                                                \
    }
    NVRTC_FUNCTIONS(NVRTC_SYM)
#undef NVRTC_SYM
    nv.loaded = 1;
}

/* GS_OK once NVRTC's functions are at hand. */
static int nvrtc_load(struct gs_err *e)
{
    pthread_once(&nv_once, nvrtc_load_once);
    return nv.loaded ? GS_OK : gs_err_set(e, GS_UNSUPPORTED, "%s", nv.error);
}

extern const char gs_cuda_prelude[]; /* kernels/prelude_cuda.cuh, embedded */

struct gs_user_kernel {
    cudaLibrary_t lib;
    cudaKernel_t kernel;
};

/* What one NVRTC compilation produced. */
struct nvrtc_result {
    int ptx;           /* asked for: the PTX (a compute_XX target), not a cubin */
    int refused;       /* NVRTC_ERROR_COMPILATION: the log says why */
    char *log;         /* malloc'd, or NULL */
    char *cubin;       /* malloc'd, or NULL: the cubin, or for a virtual target
                          (compute_XX) the PTX text */
    char lowered[512]; /* the entry's name in the cubin (mangled unless extern "C") */
};

static int nvrtc_check(nvrtcResult rc, const char *call, struct gs_err *e)
{
    if (rc == NVRTC_SUCCESS)
        return GS_OK;
    if (strncmp(call, "nv.", 3) == 0)
        call += 3; /* the function's own name */
    return gs_err_set(e, rc == NVRTC_ERROR_OUT_OF_MEMORY ? GS_NOMEM : GS_API, "%s: %s", call,
                      nv.nvrtcGetErrorString(rc));
}

#define NVRTC_CHECK(e, call) nvrtc_check((call), #call, (e))

static char *nvrtc_log(nvrtcProgram p)
{
    size_t len = 0;
    char *log = NULL;
    if (nv.nvrtcGetProgramLogSize(p, &len) == NVRTC_SUCCESS && (log = calloc(1, len + 1)))
        nv.nvrtcGetProgramLog(p, log);
    return log;
}

/* The cubin and the entry's lowered name, after a successful compilation. */
static int nvrtc_take(nvrtcProgram p, const char *entry, struct nvrtc_result *out,
                      struct gs_err *e)
{
    const char *lowered = NULL;
    size_t size = 0;
    const int ptx = out->ptx;
    int st = NVRTC_CHECK(e, nv.nvrtcGetLoweredName(p, entry, &lowered));
    if (st == GS_OK)
        st = ptx ? NVRTC_CHECK(e, nv.nvrtcGetPTXSize(p, &size))
                 : NVRTC_CHECK(e, nv.nvrtcGetCUBINSize(p, &size));
    if (st == GS_OK && !(out->cubin = malloc(size ? size : 1)))
        st = gs_err_set(e, GS_NOMEM, "cuda: out of memory for a cubin of %zu bytes", size);
    if (st == GS_OK)
        st = ptx ? NVRTC_CHECK(e, nv.nvrtcGetPTX(p, out->cubin))
                 : NVRTC_CHECK(e, nv.nvrtcGetCUBIN(p, out->cubin));
    if (st == GS_OK)
        gs_strlcpy(out->lowered, lowered, sizeof out->lowered);
    return st;
}

/* One compilation for target ("sm_90"). With the entry as a name
 * expression, NVRTC also refuses an entry that is missing or not __global__. */
static int nvrtc_compile(const char *text, const struct gs_user_source *src, const char *target,
                         int with_entry, struct nvrtc_result *out, struct gs_err *e)
{
    char arch[64];
    snprintf(arch, sizeof arch, "--gpu-architecture=%s", target);
    const char *opts[] = {arch, "-std=c++17"};
    nvrtcProgram p;
    int st = NVRTC_CHECK(e, nv.nvrtcCreateProgram(&p, text, src->path, 0, NULL, NULL));
    if (st != GS_OK)
        return st;
    if (with_entry)
        st = NVRTC_CHECK(e, nv.nvrtcAddNameExpression(p, src->entry));
    const nvrtcResult rc = st == GS_OK ? nv.nvrtcCompileProgram(p, 2, opts) : NVRTC_SUCCESS;
    out->log = nvrtc_log(p);
    out->refused = rc == NVRTC_ERROR_COMPILATION;
    if (st == GS_OK && !out->refused)
        st = NVRTC_CHECK(e, rc);
    if (st == GS_OK && !out->refused && with_entry)
        st = nvrtc_take(p, src->entry, out, e);
    nv.nvrtcDestroyProgram(&p);
    return st;
}

static void nvrtc_result_free(struct nvrtc_result *r)
{
    free(r->log);
    free(r->cubin);
    r->log = r->cubin = NULL;
}

/* GS_USAGE unless NVRTC compiles for target ("sm_75"). */
static int nvrtc_target(const char *target, struct gs_err *e)
{
    int count = 0, archs[64], major = 0, minor = 0;
    char list[400] = "";
    unsigned sm = 0;
    char tail = 0;
    nv.nvrtcVersion(&major, &minor);
    if (nv.nvrtcGetNumSupportedArchs(&count) != NVRTC_SUCCESS || count > 64 ||
        nv.nvrtcGetSupportedArchs(archs) != NVRTC_SUCCESS)
        count = 0;
    const int parsed = sscanf(target, "sm_%u%c", &sm, &tail) == 1;
    for (int i = 0; i < count; ++i) {
        if (parsed && archs[i] == (int)sm)
            return GS_OK;
        const size_t len = strlen(list);
        snprintf(list + len, sizeof list - len, "%ssm_%d", i ? ", " : "", archs[i]);
    }
    return gs_err_set(e, GS_USAGE, "--arch: NVRTC %d.%d does not compile for '%s'; choose one of %s",
                      major, minor, target, list);
}

/* Compile src for target: the cubin and the entry's name in out->cubin and
 * out->lowered, or GS_BUILD with the user's own errors in info->log. */
static int nvrtc_build(const struct gs_user_source *src, const char *target,
                       struct nvrtc_result *out, struct gs_build_info *info, struct gs_err *e)
{
    int major = 0, minor = 0;
    if (src->dialect == GS_DIALECT_OPENCL)
        return gs_err_set(e, GS_UNSUPPORTED, "cuda cannot build OpenCL C (%s)", src->path);
    int st = nvrtc_load(e);
    if (st == GS_OK)
        st = nvrtc_target(target, e);
    if (st != GS_OK)
        return st;
    char *text = gs_user_text(src, src->dialect == GS_DIALECT_PORTABLE ? gs_cuda_prelude : NULL);
    if (!text)
        return gs_err_set(e, GS_NOMEM, "cuda: out of memory");
    nv.nvrtcVersion(&major, &minor);
    snprintf(info->compiler, sizeof info->compiler, "NVRTC %d.%d for %s, -std=c++17", major, minor,
             target);
    st = nvrtc_compile(text, src, target, 1, out, e);
    if (st == GS_OK && out->refused) {
        /* Again without the entry: the log then holds the file's own errors
         * only, and a clean build means that the entry was the problem. */
        nvrtc_result_free(out);
        st = nvrtc_compile(text, src, target, 0, out, e);
        if (st == GS_OK)
            st = out->refused ? gs_err_set(e, GS_BUILD, "%s does not compile as CUDA C++ for %s",
                                           src->path, target)
                              : gs_user_no_entry(src, NULL, e);
    }
    free(text);
    info->log = out->log;
    out->log = NULL;
    return st;
}

/* The contract without a GPU: the entry's parameters as the PTX of the
 * same source lists them (compute_XX for target sm_XX), each with its
 * size, held to four of 8 bytes, as the runtime's answer is at a launch. */
static int ptx_contract(const struct gs_user_source *src, const char *target, struct gs_err *e)
{
    char virt[40];
    unsigned sizes[8];
    struct nvrtc_result out = {.ptx = 1};
    snprintf(virt, sizeof virt, "compute_%s", target + 3);
    char *text = gs_user_text(src, src->dialect == GS_DIALECT_PORTABLE ? gs_cuda_prelude : NULL);
    if (!text)
        return gs_err_set(e, GS_NOMEM, "cuda: out of memory");
    int st = nvrtc_compile(text, src, virt, 1, &out, e);
    free(text);
    if (st == GS_OK && out.refused)
        st = gs_err_set(e, GS_BUILD, "%s compiles for %s but not as PTX for %s", src->path,
                        target, virt);
    if (st == GS_OK)
        st = gs_user_check_params(src, sizes, gs_ptx_params(out.cubin, out.lowered, sizes, 8), e);
    nvrtc_result_free(&out);
    return st;
}

int cuda_user_compile(const struct gs_user_source *src, const char *target,
                      struct gs_build_info *info, struct gs_err *e)
{
    struct nvrtc_result out = {0};
    int st = nvrtc_build(src, target, &out, info, e);
    nvrtc_result_free(&out);
    if (st == GS_OK)
        st = ptx_contract(src, target, e);
    return st;
}

/* The parameters the loaded kernel takes: 4, of 8 bytes each. The runtime
 * reports them (cudaFuncGetParamInfo, CUDA 12.4 and later); where it cannot,
 * the check is skipped rather than guessed. */
static int cuda_user_params(const struct gs_user_kernel *k, const struct gs_user_source *src,
                            struct gs_err *e)
{
    int count = 0, bad = -1;
    for (; count < 32; ++count) {
        size_t offset = 0, size = 0;
        const cudaError_t rc = cudaFuncGetParamInfo((const void *)k->kernel, (size_t)count,
                                                    &offset, &size);
        (void)cudaGetLastError();
        if (rc == cudaErrorInvalidValue)
            break;
        if (rc != cudaSuccess)
            return GS_OK;
        if (size != 8 && bad < 0 && count < 4)
            bad = count;
    }
    /* No parameter at all is what a runtime that cannot tell would say too. */
    if (count > 0 && (count != 4 || bad >= 0))
        return gs_user_bad_params(src, count, bad, e);
    return GS_OK;
}

void cuda_user_free(struct gs_device *dev, struct gs_user_kernel *k)
{
    struct cuda_device *d = (struct cuda_device *)dev;
    if (!k)
        return;
    if (k->lib && CUDA_CHECK(NULL, cudaSetDevice(d->ordinal)) == GS_OK)
        (void)CUDA_CHECK(NULL, cudaLibraryUnload(k->lib));
    free(k);
}

static int cuda_user_load(const struct nvrtc_result *out, struct gs_user_kernel *k,
                          struct gs_err *e)
{
    int s = CUDA_CHECK(e, cudaLibraryLoadData(&k->lib, out->cubin, NULL, NULL, 0, NULL, NULL, 0));
    if (s == GS_OK)
        s = CUDA_CHECK(e, cudaLibraryGetKernel(&k->kernel, k->lib, out->lowered));
    return s;
}

int cuda_user_build(struct gs_device *dev, const struct gs_user_source *src,
                    struct gs_user_kernel **kernel, struct gs_build_info *info,
                    struct gs_err *e)
{
    struct cuda_device *d = (struct cuda_device *)dev;
    struct nvrtc_result out = {0};
    int major = 0, minor = 0;
    char target[32];
    int s = cuda_prepare(d, e);
    if (s == GS_OK)
        s = CUDA_CHECK(e, cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor,
                                                 d->ordinal));
    if (s == GS_OK)
        s = CUDA_CHECK(e, cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor,
                                                 d->ordinal));
    snprintf(target, sizeof target, "sm_%d%d", major, minor);
    if (s == GS_OK)
        s = nvrtc_build(src, target, &out, info, e);
    struct gs_user_kernel *k = s == GS_OK ? calloc(1, sizeof *k) : NULL;
    if (s == GS_OK && !k)
        s = gs_err_set(e, GS_NOMEM, "cuda: out of memory");
    if (s == GS_OK && (s = cuda_user_load(&out, k, e)) == GS_OK)
        s = cuda_user_params(k, src, e);
    nvrtc_result_free(&out);
    if (s != GS_OK) {
        cuda_user_free(dev, k);
        return s;
    }
    *kernel = k;
    return GS_OK;
}

/* launch() for a user kernel, with one difference: a kernel that faults is
 * GS_FAULT, the runtime's error in e (the context is then lost). */
int cuda_user_launch(struct gs_device *dev, const struct gs_launch *l, int timed,
                     struct gs_launch_result *r, struct gs_err *e)
{
    struct cuda_device *d = (struct cuda_device *)dev;
    if (cuda_inexpressible(l, r))
        return GS_OK;
    int s = cuda_prepare(d, e);
    if (s != GS_OK)
        return s;
    void *a = view_of(l->a), *b = view_of(l->b), *out = view_of(l->out);
    unsigned long long n = l->n; /* size_t on every 64-bit CUDA platform */
    void *args[] = {&a, &b, &out, &n};
    const dim3 grid = {(unsigned)l->grid, 1u, 1u}, block = {(unsigned)l->block, 1u, 1u};
    /* Timed by the events of launch() (cuda_launch): the same device timer. */
    if (timed && (s = CUDA_CHECK(e, cudaEventRecord(d->start, d->stream))) != GS_OK)
        return s;
    cudaError_t rc = cudaLaunchKernel((const void *)l->user->kernel, grid, block, args, 0,
                                      d->stream);
    if (rc != cudaSuccess)
        return cuda_refused(d, rc, r, e);
    if (timed && (s = CUDA_CHECK(e, cudaEventRecord(d->stop, d->stream))) != GS_OK)
        return s;
    rc = cudaStreamSynchronize(d->stream);
    s = cuda_check(rc, "cudaStreamSynchronize(stream) after the kernel", __FILE__, __LINE__, e);
    if (s != GS_OK && cuda_is_sticky(rc)) {
        s = GS_FAULT; /* e keeps the runtime's words */
        if (e)
            e->status = GS_FAULT;
    }
    if (s == GS_OK && timed) {
        float ms = 0.0f;
        s = CUDA_CHECK(e, cudaEventElapsedTime(&ms, d->start, d->stop));
        r->ms = (double)ms;
    }
    r->accepted = s == GS_OK;
    return s;
}
