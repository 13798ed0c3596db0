/* SPDX-License-Identifier: MIT */
/* The pretend API of gs_stub_api.h: plain C, the suite's kernels as the host
 * backend compiles them, and the misbehaviour the tests ask for. */
#define _POSIX_C_SOURCE 200809L
#include "gs_stub_api.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gs_host_kernels.h"

#define STUB_MAX_BLOCK 1024u
#define STUB_MAX_GRID (1ull << 16)
#define STUB_UNITS 2u
#define STUB_RESIDENT 4u

/* GRIDSTRIDE_STUB: how the pretend API misbehaves, or what it pretends to have. */
static int stub_mode(const char *how)
{
    const char *mode = getenv("GRIDSTRIDE_STUB");
    return mode && strcmp(mode, how) == 0;
}

const char *stubGetErrorName(stubError e)
{
    static const char *const names[] = {"stubSuccess", "stubErrorInvalidValue",
                                        "stubErrorOutOfMemory", "stubErrorLaunchRefused",
                                        "stubErrorNoUnitClock"};
    return (unsigned)e < 5 ? names[e] : "stubErrorUnknown";
}

const char *stubGetErrorString(stubError e)
{
    static const char *const text[] = {"no error", "invalid argument", "out of memory",
                                       "the API refused the launch (GRIDSTRIDE_STUB=refuse)",
                                       "the device has no per-unit clock"};
    return (unsigned)e < 5 ? text[e] : "unknown error";
}

stubError stubGetDeviceCount(int *count)
{
    *count = 1;
    return stubSuccess;
}

stubError stubGetDeviceProps(int device, struct stubDeviceProps *p)
{
    if (device != 0)
        return stubErrorInvalidValue;
    memset(p, 0, sizeof *p);
    strcpy(p->name, "stub device (kernels run on the CPU)");
    p->units = STUB_UNITS;
    p->resident_blocks = STUB_RESIDENT;
    p->unit_clock = stub_mode("timeline");
    p->max_block = STUB_MAX_BLOCK;
    p->max_grid = STUB_MAX_GRID;
    p->memory = 1ull << 30;
    return stubSuccess;
}

stubError stubMalloc(void **p, size_t bytes)
{
    if (stub_mode("alloc-fails"))
        return stubErrorOutOfMemory;
    *p = aligned_alloc(64, (bytes + 63) / 64 * 64);
    return *p ? stubSuccess : stubErrorOutOfMemory;
}

stubError stubFree(void *p)
{
    free(p);
    return stubSuccess;
}

stubError stubMemcpy(void *dst, const void *src, size_t bytes)
{
    memcpy(dst, src, bytes);
    return stubSuccess;
}

stubError stubMemset32(void *dst, uint32_t value, size_t count)
{
    uint32_t *w = dst;
    for (size_t i = 0; i < count; ++i)
        w[i] = value;
    return stubSuccess;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

stubError stubLaunch(int kernel, int build, uint64_t gx, uint64_t gy, uint64_t block,
                     const float *a, const float *b, float *out, uint64_t n, uint64_t param,
                     double *ms)
{
    if (stub_mode("refuse"))
        return stubErrorLaunchRefused;
    /* No double build here (gs_host_builds has no float table for it): the
     * backend leaves GS_CAP_F64 off, and the API refuses it all the same. */
    if (gx == 0 || gy == 0 || block == 0 || block > STUB_MAX_BLOCK || gx > STUB_MAX_GRID ||
        gy > STUB_MAX_GRID || kernel < 0 || kernel >= GS_KERNEL_COUNT || build < 0 ||
        build >= GS_BUILDS || !gs_host_builds[build])
        return stubErrorInvalidValue;
    const gs_host_kernel_fn fn = gs_host_builds[build][kernel];
    struct gs_host_thread t = {0, (unsigned)block, (unsigned)gx, 0, 0};
    const double t0 = now_ms();
    for (uint64_t y = 0; y < gy; ++y)
        for (uint64_t x = 0; x < gx * block; ++x) {
            t.block_idx_y = (unsigned)y;
            t.block_idx = (unsigned)(x / block);
            t.thread_idx = (unsigned)(x % block);
            fn(&t, a, b, out, n, param);
        }
    *ms = now_ms() - t0;
    return stubSuccess;
}

/* The pretend clock of stubLaunchTimeline (gs_stub_api.h): each unit keeps
 * the finish times of the blocks it holds, oldest first, in a ring; a block
 * that frees a slot hands it to the next block of the launch. */
static void pretend_timeline(uint64_t gx, uint64_t n, struct stubUnitTimes *units,
                             unsigned nunits)
{
    uint64_t ring[STUB_UNITS][STUB_RESIDENT], last[STUB_UNITS] = {0};
    unsigned head[STUB_UNITS] = {0};
    const uint64_t work = n / gx + (n % gx != 0), dealt = (uint64_t)nunits * STUB_RESIDENT;
    for (uint64_t blk = 0; blk < gx; ++blk) {
        unsigned u = blk < dealt ? (unsigned)(blk % nunits) : 0;
        for (unsigned k = 1; blk >= dealt && k < nunits; ++k)
            if (ring[k][head[k]] < ring[u][head[u]])
                u = k;
        /* One block at a time: it ends its unit's work so far plus its own. */
        last[u] += work * (nunits + u) / nunits;
        ring[u][head[u]] = last[u];
        head[u] = (head[u] + 1) % STUB_RESIDENT;
        units[u].blocks++;
        units[u].end_ns = last[u];
    }
}

stubError stubLaunchTimeline(int kernel, uint64_t gx, uint64_t block, const float *a,
                             const float *b, float *out, uint64_t n, uint64_t param,
                             struct stubUnitTimes *units, unsigned nunits, double *ms)
{
    double real_ms;
    if (!stub_mode("timeline"))
        return stubErrorNoUnitClock;
    if (nunits != STUB_UNITS)
        return stubErrorInvalidValue;
    const stubError rc = stubLaunch(kernel, GS_BUILD_PLAIN, gx, 1, block, a, b, out, n, param,
                                    &real_ms);
    if (rc != stubSuccess)
        return rc;
    memset(units, 0, nunits * sizeof *units);
    pretend_timeline(gx, n, units, nunits);
    uint64_t end = 0;
    for (unsigned u = 0; u < nunits; ++u)
        end = units[u].end_ns > end ? units[u].end_ns : end;
    *ms = (double)end / 1e6;
    return stubSuccess;
}
