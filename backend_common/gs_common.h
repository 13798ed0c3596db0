/* SPDX-License-Identifier: MIT */
/* What several backends share, so that each writes it once (PoCL's
 * lib/CL/devices/common_driver.c is the model): the suite's caps for a
 * device that runs the kernels on the CPU, and a host clock for an API that
 * has no timer of its own. A backend links gs_backend_common; this folder
 * includes only headers of core/base and core/device, never a GPU API's nor
 * another backend's. */
#ifndef GS_COMMON_H
#define GS_COMMON_H

#include <stdint.h>

/* Blocks in all (x times y) that the suite sends to a device that runs
 * them on the CPU (the host backend, a CPU OpenCL device such as PoCL,
 * OpenMP's host fallback): its threads run a few at a time, and the cap
 * keeps any launch to seconds, not hours. A larger grid is GS_NOT_SENT:
 * a cap of the suite's, not a rule of the API. */
#define GS_CPU_MAX_GRID (1ull << 20)

/* Blocks per core that make the grid G on a CPU, which has no occupancy:
 * enough to keep every core busy (a T4 ran 4 per SM). */
#define GS_CPU_BLOCKS_PER_UNIT 4u

/* Milliseconds on the host's monotonic clock, for timing a call of an API
 * that has no device timer. */
double gs_common_clock_ms(void);

#endif
