/* SPDX-License-Identifier: MIT */
/* A pretend GPU API, small enough to read in one sitting, with what a real
 * one has and the host backend lacks: error codes with names, allocations
 * that can fail, launches that the API refuses, a 32-bit fill, and timing
 * events. It runs the suite's kernels on the CPU (kernels/ compiled as C).
 *
 * It exists so that gs_stub.c, the template for a new backend, shows every
 * duty of a backend against an API, and so that the tests can make that API
 * misbehave on purpose: GRIDSTRIDE_STUB="refuse" refuses every launch,
 * "alloc-fails" fails every allocation. Replace each stubXxx call with your
 * API's (hipMalloc, clCreateBuffer, vkAllocateMemory...). */
#ifndef GS_STUB_API_H
#define GS_STUB_API_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    stubSuccess = 0,
    stubErrorInvalidValue = 1,       /* a launch shape the API does not take */
    stubErrorOutOfMemory = 2,
    stubErrorLaunchRefused = 3       /* GRIDSTRIDE_STUB=refuse */
} stubError;

struct stubDeviceProps {
    char name[64];
    unsigned units, max_block;
    uint64_t max_grid, memory;
};

const char *stubGetErrorName(stubError e);
const char *stubGetErrorString(stubError e);

stubError stubGetDeviceCount(int *count);
stubError stubGetDeviceProps(int device, struct stubDeviceProps *p);
stubError stubMalloc(void **p, size_t bytes);
stubError stubFree(void *p);
stubError stubMemcpy(void *dst, const void *src, size_t bytes);
stubError stubMemset32(void *dst, uint32_t value, size_t count);

/* Run kernel `kernel` (an index into the catalogue) of the normal or the
 * count build on grid (gx, gy) x block, timed: *ms is the kernel's time. */
stubError stubLaunch(int kernel, int count_build, uint64_t gx, uint64_t gy, uint64_t block,
                     const float *a, const float *b, float *out, uint64_t n, uint64_t param,
                     double *ms);

#endif
