/* SPDX-License-Identifier: MIT */
/* The CUDA backend's hardware counters (counters(), `gridstride check`'s
 * counters pass): CUPTI's range profiler (CUDA 12.6 and later), loaded at
 * run time with dlopen, so that the build needs no profiler and a machine
 * without CUPTI only loses the counters. Auto range, kernel replay: every
 * kernel launched between start and stop is one range, replayed by CUPTI
 * as many passes as the metrics need. The parameter structs below are
 * CUPTI's own (cupti_profiler_target.h, cupti_profiler_host.h,
 * cupti_range_profiler.h, cupti_target.h), declared here field for field so
 * that no CUPTI header is needed either; each carries its size, which is
 * how CUPTI keeps old callers working. */
#include <dlfcn.h>
#include <stddef.h>

#include "gs_cuda_private.h"

typedef int cupti_result; /* CUptiResult: CUPTI_SUCCESS is 0 */

#define CUPTI_SIZE(type, last) (offsetof(type, last) + sizeof(((type *)0)->last))
enum { CUPTI_PROFILER_TYPE_RANGE_PROFILER = 0, CUPTI_AUTO_RANGE = 1, CUPTI_KERNEL_REPLAY = 2 };

struct cupti_init { size_t structSize; void *pPriv; };
struct cupti_chip { size_t structSize; void *pPriv; size_t deviceIndex; const char *pChipName; };
struct cupti_avail {
    size_t structSize; void *pPriv; void *ctx;
    size_t counterAvailabilityImageSize; uint8_t *pCounterAvailabilityImage;
};
struct cupti_host_init {
    size_t structSize; void *pPriv; int profilerType; const char *pChipName;
    const uint8_t *pCounterAvailabilityImage; void *pHostObject;
};
struct cupti_host_obj { size_t structSize; void *pPriv; void *pHostObject; };
struct cupti_add_metrics {
    size_t structSize; void *pPriv; void *pHostObject; const char **ppMetricNames;
    size_t numMetrics;
};
struct cupti_image_size { size_t structSize; void *pPriv; void *pHostObject; size_t configImageSize; };
struct cupti_image {
    size_t structSize; void *pPriv; void *pHostObject; size_t configImageSize;
    uint8_t *pConfigImage;
};
struct cupti_evaluate {
    size_t structSize; void *pPriv; void *pHostObject; const uint8_t *pCounterDataImage;
    size_t counterDataImageSize; size_t rangeIndex; const char **ppMetricNames;
    size_t numMetrics; double *pMetricValues;
};
struct cupti_enable { size_t structSize; void *pPriv; void *ctx; void *pRangeProfilerObject; };
struct cupti_rp { size_t structSize; void *pPriv; void *pRangeProfilerObject; };
struct cupti_data_size {
    size_t structSize; void *pPriv; void *pRangeProfilerObject; const char **pMetricNames;
    size_t numMetrics; size_t maxNumOfRanges; uint32_t maxNumRangeTreeNodes;
    size_t counterDataSize;
};
struct cupti_data_init {
    size_t structSize; void *pPriv; void *pRangeProfilerObject; size_t counterDataSize;
    uint8_t *pCounterData;
};
struct cupti_set_config {
    size_t structSize; void *pPriv; void *pRangeProfilerObject; size_t configSize;
    const uint8_t *pConfig; size_t counterDataImageSize; uint8_t *pCounterDataImage;
    int range; int replayMode; size_t maxRangesPerPass; uint16_t numNestingLevels;
    uint16_t minNestingLevel; size_t passIndex; uint16_t targetNestingLevel;
};
struct cupti_stop {
    size_t structSize; void *pPriv; void *pRangeProfilerObject; size_t passIndex;
    size_t targetNestingLevel; uint8_t isAllPassSubmitted;
};
struct cupti_decode { size_t structSize; void *pPriv; void *pRangeProfilerObject; size_t numOfRangeDropped; };
struct cupti_data_info {
    size_t structSize; void *pPriv; const uint8_t *pCounterDataImage; size_t counterDataImageSize;
    size_t numTotalRanges;
};

/* The functions, by name, from the loaded library. */
#define CUPTI_FUNCTIONS(X)                                                                    \
    X(cuptiGetVersion, uint32_t *)                                                            \
    X(cuptiGetResultString, cupti_result, const char **)                                      \
    X(cuptiProfilerInitialize, struct cupti_init *)                                           \
    X(cuptiProfilerDeInitialize, struct cupti_init *)                                         \
    X(cuptiDeviceGetChipName, struct cupti_chip *)                                            \
    X(cuptiProfilerGetCounterAvailability, struct cupti_avail *)                              \
    X(cuptiProfilerHostInitialize, struct cupti_host_init *)                                  \
    X(cuptiProfilerHostDeinitialize, struct cupti_host_obj *)                                 \
    X(cuptiProfilerHostConfigAddMetrics, struct cupti_add_metrics *)                          \
    X(cuptiProfilerHostGetConfigImageSize, struct cupti_image_size *)                         \
    X(cuptiProfilerHostGetConfigImage, struct cupti_image *)                                  \
    X(cuptiProfilerHostEvaluateToGpuValues, struct cupti_evaluate *)                          \
    X(cuptiRangeProfilerEnable, struct cupti_enable *)                                        \
    X(cuptiRangeProfilerDisable, struct cupti_rp *)                                           \
    X(cuptiRangeProfilerGetCounterDataSize, struct cupti_data_size *)                         \
    X(cuptiRangeProfilerCounterDataImageInitialize, struct cupti_data_init *)                 \
    X(cuptiRangeProfilerSetConfig, struct cupti_set_config *)                                 \
    X(cuptiRangeProfilerStart, struct cupti_rp *)                                             \
    X(cuptiRangeProfilerStop, struct cupti_stop *)                                            \
    X(cuptiRangeProfilerDecodeData, struct cupti_decode *)                                    \
    X(cuptiRangeProfilerGetCounterDataInfo, struct cupti_data_info *)

struct cupti {
#define CUPTI_MEMBER(name, ...) cupti_result (*name)(__VA_ARGS__);
    CUPTI_FUNCTIONS(CUPTI_MEMBER)
#undef CUPTI_MEMBER
    char path[512];
};

static int cupti_check(const struct cupti *c, cupti_result rc, const char *call, struct gs_err *e)
{
    if (rc == 0)
        return GS_OK;
    const char *words = NULL;
    if (!c->cuptiGetResultString || c->cuptiGetResultString(rc, &words) != 0 || !words)
        words = "unknown error";
    return gs_err_set(e, GS_API, "CUPTI: %s returned %d (%s)", call, rc, words);
}

#define CUPTI_CALL(c, e, fn, p) cupti_check((c), (c)->fn(p), #fn, (e))

/* libcupti of this build's CUDA major version: `library` when given; else
 * by the loader's search (LD_LIBRARY_PATH, the system's cache), then where
 * the CUDA toolkit puts it. */
static int cupti_load(struct cupti *c, const char *library, struct gs_err *e)
{
    char soname[32];
    snprintf(soname, sizeof soname, "libcupti.so.%d", CUDART_VERSION / 1000);
    char where[4][96];
    const char *tries[6];
    int ntries = 0;
    if (library) {
        tries[ntries++] = library;
    } else {
        static const char *const dirs[] = {"/usr/local/cuda/lib64",
                                           "/usr/local/cuda/extras/CUPTI/lib64",
                                           "/usr/local/cuda/targets/x86_64-linux/lib",
                                           "/usr/local/cuda/targets/sbsa-linux/lib"};
        tries[ntries++] = soname;
        for (int i = 0; i < 4; ++i) {
            snprintf(where[i], sizeof where[i], "%s/%s", dirs[i], soname);
            tries[ntries++] = where[i];
        }
    }
    void *h = NULL;
    char first_error[300] = "";
    for (int i = 0; i < ntries && !h; ++i) {
        h = dlopen(tries[i], RTLD_NOW | RTLD_LOCAL);
        if (h)
            gs_strlcpy(c->path, tries[i], sizeof c->path);
        else if (!first_error[0])
            gs_strlcpy(first_error, dlerror(), sizeof first_error);
    }
    if (!h)
        return gs_err_set(e, GS_UNSUPPORTED, "CUPTI (%s) not found: %s; put the CUDA "
                          "toolkit's CUPTI (or the nvidia-cuda-cupti wheel's lib folder) on "
                          "LD_LIBRARY_PATH", library ? library : soname, first_error);
#define CUPTI_SYM(name, ...)                                                                 \
    *(void **)&c->name = dlsym(h, #name);                                                    \
    if (!c->name)                                                                            \
        return gs_err_set(e, GS_UNSUPPORTED, "CUPTI at %s has no %s (the range profiler "     \
                          "needs CUDA 12.6 or later)", c->path, #name);
    CUPTI_FUNCTIONS(CUPTI_SYM)
#undef CUPTI_SYM
    return GS_OK; /* never closed: CUPTI may leave threads behind it */
}

/* The profiler's host half: the metrics' configuration for dev's chip. */
static int cupti_configure(const struct cupti *c, int ordinal, const char *const *metrics,
                           int nmetrics, int *initialized, void **host, uint8_t **config,
                           size_t *config_size, struct gs_err *e)
{
    struct cupti_init init = {CUPTI_SIZE(struct cupti_init, pPriv), NULL};
    int s = CUPTI_CALL(c, e, cuptiProfilerInitialize, &init);
    *initialized = s == GS_OK;
    struct cupti_chip chip = {CUPTI_SIZE(struct cupti_chip, pChipName), NULL, (size_t)ordinal,
                              NULL};
    if (s == GS_OK)
        s = CUPTI_CALL(c, e, cuptiDeviceGetChipName, &chip);
    struct cupti_avail av = {CUPTI_SIZE(struct cupti_avail, pCounterAvailabilityImage), NULL,
                             NULL, 0, NULL};
    if (s == GS_OK)
        s = CUPTI_CALL(c, e, cuptiProfilerGetCounterAvailability, &av);
    uint8_t *image = NULL;
    if (s == GS_OK && !(image = malloc(av.counterAvailabilityImageSize ? av.counterAvailabilityImageSize : 1)))
        s = gs_err_set(e, GS_NOMEM, "out of memory");
    av.pCounterAvailabilityImage = image;
    if (s == GS_OK)
        s = CUPTI_CALL(c, e, cuptiProfilerGetCounterAvailability, &av);
    struct cupti_host_init hi = {CUPTI_SIZE(struct cupti_host_init, pHostObject), NULL,
                                 CUPTI_PROFILER_TYPE_RANGE_PROFILER, chip.pChipName, image, NULL};
    if (s == GS_OK)
        s = CUPTI_CALL(c, e, cuptiProfilerHostInitialize, &hi);
    *host = hi.pHostObject;
    struct cupti_add_metrics am = {CUPTI_SIZE(struct cupti_add_metrics, numMetrics), NULL,
                                   *host, (const char **)metrics, (size_t)nmetrics};
    if (s == GS_OK)
        s = CUPTI_CALL(c, e, cuptiProfilerHostConfigAddMetrics, &am);
    struct cupti_image_size is = {CUPTI_SIZE(struct cupti_image_size, configImageSize), NULL,
                                  *host, 0};
    if (s == GS_OK)
        s = CUPTI_CALL(c, e, cuptiProfilerHostGetConfigImageSize, &is);
    if (s == GS_OK && !(*config = malloc(is.configImageSize ? is.configImageSize : 1)))
        s = gs_err_set(e, GS_NOMEM, "out of memory");
    struct cupti_image im = {CUPTI_SIZE(struct cupti_image, pConfigImage), NULL, *host,
                             is.configImageSize, *config};
    if (s == GS_OK)
        s = CUPTI_CALL(c, e, cuptiProfilerHostGetConfigImage, &im);
    *config_size = im.configImageSize;
    free(image);
    return s;
}

int cuda_counters(struct gs_device *dev, const char *library, const char *const *metrics,
                  int nmetrics, int (*run)(void *ctx, struct gs_err *e), void *ctx,
                  double *values, int max_ranges, int *nranges, char *source,
                  size_t source_size, struct gs_err *e)
{
    struct cuda_device *d = (struct cuda_device *)dev;
    struct cupti c;
    memset(&c, 0, sizeof c);
    *nranges = 0;
    int s = cuda_prepare(d, e); /* the context CUPTI profiles is the current one */
    if (s == GS_OK)
        s = cupti_load(&c, library, e);
    uint32_t version = 0;
    if (s == GS_OK && c.cuptiGetVersion(&version) == 0)
        snprintf(source, source_size, "CUPTI %u.%u range profiler", version / 10000,
                 version / 100 % 100);
    else if (s == GS_OK)
        snprintf(source, source_size, "CUPTI range profiler");
    void *host = NULL, *rp = NULL;
    uint8_t *config = NULL, *data = NULL;
    size_t config_size = 0;
    int initialized = 0;
    if (s == GS_OK)
        s = cupti_configure(&c, d->ordinal, metrics, nmetrics, &initialized, &host, &config,
                            &config_size, e);
    struct cupti_enable en = {CUPTI_SIZE(struct cupti_enable, pRangeProfilerObject), NULL, NULL,
                              NULL};
    if (s == GS_OK)
        s = CUPTI_CALL(&c, e, cuptiRangeProfilerEnable, &en);
    rp = en.pRangeProfilerObject;
    struct cupti_data_size ds = {CUPTI_SIZE(struct cupti_data_size, counterDataSize), NULL, rp,
                                 (const char **)metrics, (size_t)nmetrics, (size_t)max_ranges,
                                 (uint32_t)max_ranges, 0};
    if (s == GS_OK)
        s = CUPTI_CALL(&c, e, cuptiRangeProfilerGetCounterDataSize, &ds);
    if (s == GS_OK && !(data = calloc(1, ds.counterDataSize ? ds.counterDataSize : 1)))
        s = gs_err_set(e, GS_NOMEM, "out of memory");
    struct cupti_data_init di = {CUPTI_SIZE(struct cupti_data_init, pCounterData), NULL, rp,
                                 ds.counterDataSize, data};
    if (s == GS_OK)
        s = CUPTI_CALL(&c, e, cuptiRangeProfilerCounterDataImageInitialize, &di);
    struct cupti_set_config sc = {CUPTI_SIZE(struct cupti_set_config, targetNestingLevel),
                                  NULL, rp, config_size, config, ds.counterDataSize, data,
                                  CUPTI_AUTO_RANGE, CUPTI_KERNEL_REPLAY, (size_t)max_ranges,
                                  1, 1, 0, 1};
    if (s == GS_OK)
        s = CUPTI_CALL(&c, e, cuptiRangeProfilerSetConfig, &sc);
    /* Started before run: the start's own cost (0.16 s on an H200) is paid
     * while run waits, and nothing of this context runs until it launches. */
    struct cupti_rp rps = {CUPTI_SIZE(struct cupti_rp, pRangeProfilerObject), NULL, rp};
    if (s == GS_OK)
        s = CUPTI_CALL(&c, e, cuptiRangeProfilerStart, &rps);
    if (s == GS_OK) {
        /* Kernel replay: each launch is replayed within it, so one round. */
        s = run(ctx, e);
        struct cupti_stop st = {CUPTI_SIZE(struct cupti_stop, isAllPassSubmitted), NULL, rp, 0,
                                0, 0};
        struct gs_err stop_e = {0};
        const int stopped = CUPTI_CALL(&c, &stop_e, cuptiRangeProfilerStop, &st);
        if (s == GS_OK && stopped != GS_OK) {
            *e = stop_e;
            s = stopped;
        }
        if (s == GS_OK && !st.isAllPassSubmitted)
            s = gs_err_set(e, GS_API, "CUPTI: the kernel replay left passes unsubmitted");
    }
    struct cupti_decode dec = {CUPTI_SIZE(struct cupti_decode, numOfRangeDropped), NULL, rp, 0};
    if (s == GS_OK)
        s = CUPTI_CALL(&c, e, cuptiRangeProfilerDecodeData, &dec);
    struct cupti_data_info info = {CUPTI_SIZE(struct cupti_data_info, numTotalRanges), NULL, data,
                                   ds.counterDataSize, 0};
    if (s == GS_OK)
        s = CUPTI_CALL(&c, e, cuptiRangeProfilerGetCounterDataInfo, &info);
    if (s == GS_OK && dec.numOfRangeDropped)
        s = gs_err_set(e, GS_API, "CUPTI dropped %zu of the launches' ranges",
                       dec.numOfRangeDropped);
    for (size_t r = 0; s == GS_OK && r < info.numTotalRanges && (int)r < max_ranges; ++r) {
        struct cupti_evaluate ev = {CUPTI_SIZE(struct cupti_evaluate, pMetricValues), NULL, host,
                                    data, ds.counterDataSize, r, (const char **)metrics,
                                    (size_t)nmetrics, values + r * (size_t)nmetrics};
        s = CUPTI_CALL(&c, e, cuptiProfilerHostEvaluateToGpuValues, &ev);
        if (s == GS_OK)
            *nranges = (int)r + 1;
    }
    if (rp) {
        struct cupti_rp dis = {CUPTI_SIZE(struct cupti_rp, pRangeProfilerObject), NULL, rp};
        c.cuptiRangeProfilerDisable(&dis);
    }
    if (host) {
        struct cupti_host_obj hd = {CUPTI_SIZE(struct cupti_host_obj, pHostObject), NULL, host};
        c.cuptiProfilerHostDeinitialize(&hd);
    }
    if (initialized) {
        struct cupti_init fin = {CUPTI_SIZE(struct cupti_init, pPriv), NULL};
        c.cuptiProfilerDeInitialize(&fin);
    }
    free(config);
    free(data);
    return s;
}
