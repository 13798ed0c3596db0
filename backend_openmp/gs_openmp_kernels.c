/* SPDX-License-Identifier: MIT */
/* The kernels of kernels/gs_kernels.h and kernels/gs_pitfalls.h, built
 * three times (as they are, the count build and the trace build), as device
 * code, and the one
 * target region that runs them. One region for every kernel, entered with
 * the kernel's id: the runtime sizes a launch by the region's code (GCC's
 * nvptx plugin limits the warps per team by its registers), so a single
 * region gets one grant per shape for every kernel, and the probe launch
 * that measures the grant is that very region. */
#include "gs_openmp_kernels.h"

#include "gs_backend.h" /* enum gs_build */
#include "gs_catalog.h"

#pragma omp declare target
#include "prelude_openmp.h"

#include "gs_kernels.h"
#include "gs_pitfalls.h"

#define GS_COUNT_BUILD
#include "gs_kernels.h"
#include "gs_pitfalls.h"
#undef GS_COUNT_BUILD

#define GS_TRACE_BUILD
#include "gs_kernels.h"
#include "gs_pitfalls.h"
#undef GS_TRACE_BUILD

/* Direct calls from a switch: the device cannot call through a table of
 * host function addresses. */
static void omp_run_kernel(int kernel, int build, const float *a, const float *b, float *out,
                           uint64_t n, uint64_t param)
{
    switch (kernel) {
#define GS_OMP_KERNEL_CASE(id, sym, name, op, bytes, rule, prm)                                \
    case GS_K_##id:                                                                            \
        if (build == GS_BUILD_COUNT)                                                           \
            sym##_count(a, b, out, n, param);                                                  \
        else if (build == GS_BUILD_TRACE)                                                      \
            sym##_trace(a, b, out, n, param);                                                  \
        else                                                                                   \
            sym(a, b, out, n, param);                                                          \
        break;
        GS_KERNEL_LIST(GS_OMP_KERNEL_CASE)
#undef GS_OMP_KERNEL_CASE
    default:
        break;
    }
}

/* Inside the parallel region: team 0's view of the launch, and every
 * team's size. */
static void omp_record(uint64_t *seen)
{
    if (omp_get_thread_num() != 0)
        return;
    if (omp_get_team_num() == 0) {
        seen[0] = (uint64_t)omp_get_num_teams();
        seen[1] = (uint64_t)omp_get_num_threads();
    }
    const uint64_t size = (uint64_t)omp_get_num_threads();
#pragma omp atomic update
    seen[2] += 1;
#pragma omp atomic update
    seen[3] += size;
}
#pragma omp end declare target

static void omp_seen_out(const uint64_t *seen, struct gs_omp_seen *out)
{
    out->teams = seen[0];
    out->threads = seen[1];
    out->teams_ran = seen[2];
    out->threads_ran = seen[3];
}

void gs_omp_region(const struct gs_omp_call *c, struct gs_omp_seen *out)
{
    uint64_t seen[4] = {0, 0, 0, 0};
    const int kernel = c->kernel, build = c->build, probe = c->probe;
    const float *a = c->a, *b = c->b;
    float *dst = c->out;
    const uint64_t n = c->n, param = c->param;
#pragma omp target teams device(c->device) num_teams(c->teams) thread_limit(c->threads)        \
    map(tofrom : seen[0 : 4]) is_device_ptr(a, b, dst)
#pragma omp parallel
    {
        omp_record(seen);
        if (!probe)
            omp_run_kernel(kernel, build, a, b, dst, n, param);
    }
    omp_seen_out(seen, out);
}

void gs_omp_default_launch(int device, int threads, struct gs_omp_seen *out)
{
    uint64_t seen[4] = {0, 0, 0, 0};
#pragma omp target teams device(device) thread_limit(threads) map(tofrom : seen[0 : 4])
#pragma omp parallel
    omp_record(seen);
    omp_seen_out(seen, out);
}
