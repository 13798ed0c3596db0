/* SPDX-License-Identifier: MIT */
/* What the CUDA backend's files share, and nothing outside the folder
 * includes: the device and buffer structs, the error check, and the
 * functions one file defines for another.
 *   gs_cuda.c           discovery, occupancy and launch rules, buffers, the
 *                       launch and the copy, and the backend's table
 *   gs_cuda_timeline.c  per-SM finish times (timeline())
 *   gs_cuda_user.c      user kernels through NVRTC (`gridstride check`)
 *   gs_cuda_counters.c  hardware counters through CUPTI, loaded at run time
 *   gs_cuda_kernels.cu  the kernels of kernels/, compiled by nvcc */
#ifndef GS_CUDA_PRIVATE_H
#define GS_CUDA_PRIVATE_H

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "gs_backend.h"
#include "gs_cuda_kernels.h"
#include "gs_user.h"

_Static_assert(GS_KERNEL_COUNT <= 32, "cuda_device.loaded holds one bit per kernel");


/* The builds of kernels/: those of enum gs_build, which launch() runs, and
 * the timeline build, which only timeline() runs. */
#define CUDA_BUILD_TIMELINE GS_BUILDS
#define CUDA_BUILDS (GS_BUILDS + 1)

/* The kernel a launch runs: the normal, count, trace or double build (enum
 * gs_build), or the timeline build. */
const void *cuda_symbol(enum gs_kernel_id k, int build);

/* The backend's buffer: the core's record first (size, list), then ours. */
struct cuda_buf {
    struct gs_buf base;
    void *ptr;
};
GS_BUF_STRUCT(struct cuda_buf);

static inline void *ptr_of(const struct gs_buf *b)
{
    return b ? ((const struct cuda_buf *)b)->ptr : NULL;
}

/* What a launch passes: the address of the view (gs_buf.front bytes in). */
static inline void *view_of(const struct gs_buf *b)
{
    return b ? (char *)((const struct cuda_buf *)b)->ptr + b->front : NULL;
}

struct cuda_device {
    struct gs_device base; /* first member: the core holds a struct gs_device * */
    int ordinal;           /* the runtime's device number */
    int ready;             /* stream and events exist */
    unsigned loaded[CUDA_BUILDS]; /* bit k: kernel k of that build is loaded on this device */
    uint64_t max_grid_y;   /* maxGridSize[1] */
    cudaStream_t stream;
    cudaEvent_t start, stop;
};
GS_DEVICE_STRUCT(struct cuda_device);

/* ---- errors and per-device state (gs_cuda.c) ------------------------------ */

/* 1 for an error after which the context is lost (a kernel fault). */
int cuda_is_sticky(cudaError_t rc);
int cuda_check(cudaError_t rc, const char *call, const char *file, int line, struct gs_err *e);

/* Every CUDA call goes through this: GS_OK, or the call's text, file:line and
 * the runtime's error name and description in e (which may be NULL). */
#define CUDA_CHECK(e, call) cuda_check((call), #call, __FILE__, __LINE__, (e))

/* Make d the calling thread's current device, with its stream and events. */
int cuda_prepare(struct cuda_device *d, struct gs_err *e);
/* Load kernel k of `build` now, so that no timed interval pays for it. */
int cuda_load_kernel(struct cuda_device *d, enum gs_kernel_id k, int build, struct gs_err *e);
/* A shape that cudaLaunchKernel cannot be asked for, as a refusal: 1. */
int cuda_inexpressible(const struct gs_launch *l, struct gs_launch_result *r);
/* cudaLaunchKernel refused the shape: a result, unless the context is lost. */
int cuda_refused(struct cuda_device *d, cudaError_t rc, struct gs_launch_result *r,
                 struct gs_err *e);

/* ---- gs_cuda_timeline.c -------------------------------------------------- */

int cuda_timeline(struct gs_device *dev, const struct gs_launch *l, struct gs_launch_result *r,
                  struct gs_timeline *t, struct gs_err *e);

/* ---- gs_cuda_counters.c -------------------------------------------------- */

int cuda_counters(struct gs_device *dev, const char *library, const char *const *metrics,
                  int nmetrics, int (*run)(void *ctx, struct gs_err *e), void *ctx,
                  double *values, int max_ranges, int *nranges, char *source,
                  size_t source_size, struct gs_err *e);

/* ---- gs_cuda_user.c ------------------------------------------------------ */

int cuda_user_compile(const struct gs_user_source *src, const char *target,
                      struct gs_build_info *info, struct gs_err *e);
int cuda_user_build(struct gs_device *dev, const struct gs_user_source *src,
                    struct gs_user_kernel **k, struct gs_build_info *info, struct gs_err *e);
int cuda_user_launch(struct gs_device *dev, const struct gs_launch *l, int timed,
                     struct gs_launch_result *r, struct gs_err *e);
void cuda_user_free(struct gs_device *dev, struct gs_user_kernel *k);

#endif
