/* SPDX-License-Identifier: MIT */
/* A pretend GPU API, small enough to read in one sitting, with what a real
 * one has and the host backend lacks: error codes with names, allocations
 * that can fail, launches that the API refuses, a 32-bit fill, and timing
 * events. It runs the suite's kernels on the CPU (kernels/ compiled as C).
 *
 * It exists so that gs_stub.c, the template for a new backend, shows every
 * duty of a backend against an API, and so that the tests can make that API
 * misbehave on purpose: GRIDSTRIDE_STUB="refuse" refuses every launch,
 * "alloc-fails" fails every allocation; "timeline" gives the device a
 * per-unit clock (stubLaunchTimeline), which it otherwise lacks. Replace each
 * stubXxx call with your API's (hipMalloc, clCreateBuffer, vkAllocateMemory...). */
#ifndef GS_STUB_API_H
#define GS_STUB_API_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    stubSuccess = 0,
    stubErrorInvalidValue = 1,       /* a launch shape the API does not take */
    stubErrorOutOfMemory = 2,
    stubErrorLaunchRefused = 3,      /* GRIDSTRIDE_STUB=refuse */
    stubErrorNoUnitClock = 4         /* stubLaunchTimeline on a device without the clock */
} stubError;

struct stubDeviceProps {
    char name[64];
    unsigned units, max_block;
    unsigned resident_blocks; /* blocks one unit holds at once */
    int unit_clock;           /* 1: stubLaunchTimeline works (GRIDSTRIDE_STUB=timeline) */
    uint64_t max_grid, memory;
};

/* What stubLaunchTimeline says about one unit. */
struct stubUnitTimes {
    unsigned blocks;           /* blocks it ran */
    uint64_t start_ns, end_ns; /* its first start and last finish, pretend ns after the launch */
};

const char *stubGetErrorName(stubError e);
const char *stubGetErrorString(stubError e);

stubError stubGetDeviceCount(int *count);
stubError stubGetDeviceProps(int device, struct stubDeviceProps *p);
stubError stubMalloc(void **p, size_t bytes);
stubError stubFree(void *p);
stubError stubMemcpy(void *dst, const void *src, size_t bytes);
stubError stubMemset32(void *dst, uint32_t value, size_t count);

/* Run kernel `kernel` (an index into the catalogue) of the normal, the count
 * or the trace build (enum gs_build) on grid (gx, gy) x block, timed: *ms is
 * the kernel's time. */
stubError stubLaunch(int kernel, int build, uint64_t gx, uint64_t gy, uint64_t block,
                     const float *a, const float *b, float *out, uint64_t n, uint64_t param,
                     double *ms);

/* stubLaunch of the normal build (grid gx x block, 1D) on a device with a
 * per-unit clock, and when each of its `nunits` units ran, in pretend
 * nanoseconds: made up, but by a fixed rule that a GPU's block scheduler
 * follows too. Each unit holds resident_blocks blocks and runs them one
 * after another; the first blocks are dealt out in turn, and each later
 * block goes to the unit that frees a slot first (the lower unit on a tie).
 * A block takes ceil(n / gx) ns on unit 0, and (units + u) / units times as
 * long on unit u: the units do not move data equally fast. *ms is the
 * launch's pretend duration (the last finish). */
stubError stubLaunchTimeline(int kernel, uint64_t gx, uint64_t block, const float *a,
                             const float *b, float *out, uint64_t n, uint64_t param,
                             struct stubUnitTimes *units, unsigned nunits, double *ms);

#endif
