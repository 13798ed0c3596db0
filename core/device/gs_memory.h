/* SPDX-License-Identifier: MIT */
/* Memory preflight: before anything is allocated, whether a run's buffers
 * fit each device, and, for a CPU device, whose buffers are this machine's
 * memory, this machine. A size that does not fit is refused with one line
 * that gives the bytes needed and the bytes available, rather than ending in
 * an allocation failure halfway, an OOM kill or a swap storm. */
#ifndef GS_MEMORY_H
#define GS_MEMORY_H

#include "gs_backend.h"

/* Device bytes of a run over n elements: a, b and out, with their guards. */
uint64_t gs_run_device_bytes(uint64_t n);
/* This machine's bytes beside a CPU device's buffers: the staging areas and
 * a margin for the program itself. */
uint64_t gs_run_host_bytes(void);

/* The bytes dev can give a run now, and where the figure comes from. */
uint64_t gs_memory_available(struct gs_device *dev, char *source, unsigned source_size);

/* GS_OK when a run over n elements fits dev; else GS_USAGE and one line:
 * the bytes needed, the bytes available, and the fix. */
int gs_memory_preflight(struct gs_device *dev, uint64_t n, struct gs_err *e);

/* This machine's bytes for `check` over n elements on a device: a CPU
 * device's worker holds a, b and out in this machine's memory, and check's
 * shared memory with it one more output (4 buffers); a GPU's worker only
 * the shared output (and `shared_min` bytes at least: the speed pass's
 * read-back); each with the program's margin. */
uint64_t gs_check_host_bytes(int is_gpu, uint64_t n, uint64_t shared_min);

/* GS_OK when `need` bytes (gs_check_host_bytes of every device run side by
 * side, the largest n of them `n`) fit this machine's available memory
 * (MemAvailable; not checked where unknown); else GS_USAGE and one line
 * with the bytes and the fix. */
int gs_memory_preflight_host(uint64_t need, uint64_t n, struct gs_err *e);

/* The largest n of elements of `type` that fits dev, at most `want`; 0 when
 * none does. */
uint64_t gs_memory_max_n_of(struct gs_device *dev, uint64_t want, enum gs_type type);

#endif
