/* SPDX-License-Identifier: MIT */
/* The target regions of the OpenMP backend, compiled with the offload
 * compiler in one translation unit (gs_openmp_kernels.c); the backend's
 * host side (gs_openmp.c) reaches them only through this header. */
#ifndef GS_OPENMP_KERNELS_H
#define GS_OPENMP_KERNELS_H

#include <stdint.h>

/* What a region saw of its own launch, read inside it: team 0's
 * omp_get_num_teams() and omp_get_num_threads(), and how many teams and
 * threads in all ran (each team's thread 0 adds its team's size), so that
 * teams of unequal size show. */
struct gs_omp_seen {
    uint64_t teams, threads;
    uint64_t teams_ran, threads_ran;
};

/* One launch: kernel (an enum gs_kernel_id) of build (an enum gs_build:
 * the normal, count or trace build of kernels/).
 * With probe, the region runs and reads its launch but calls no kernel:
 * the same region with the same clauses, so the runtime grants it what it
 * grants the kernel (num_teams and thread_limit are upper bounds). */
struct gs_omp_call {
    int device; /* the OpenMP device number */
    int kernel, build, probe;
    int teams, threads; /* num_teams, thread_limit: both > 0 */
    const float *a, *b;
    float *out;
    uint64_t n, param;
};

/* Run c in `target teams num_teams(teams) thread_limit(threads)` +
 * `parallel` on c->device, blocking; *seen gets what the region saw. */
void gs_omp_region(const struct gs_omp_call *c, struct gs_omp_seen *seen);

/* The runtime's own launch: `target teams thread_limit(threads)` with no
 * num_teams, + `parallel`, on device; what it chose, in *seen. */
void gs_omp_default_launch(int device, int threads, struct gs_omp_seen *seen);

#endif
