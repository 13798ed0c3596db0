/* SPDX-License-Identifier: MIT */
/* This machine's memory, for the memory preflight and for the backends whose
 * buffers live in it (the host backend, OpenCL CPU devices). */
#ifndef GS_SYSMEM_H
#define GS_SYSMEM_H

#include <stdint.h>

/* Physical memory in bytes; 0 when unknown. */
uint64_t gs_host_total_memory(void);
/* Memory that new allocations can take without swapping (Linux's
 * MemAvailable), in bytes; falls back to free pages; 0 when unknown. */
uint64_t gs_host_available_memory(void);
/* Processors online, at least 1. */
unsigned gs_host_cpus(void);
/* The last-level data cache of the first CPU: its size in bytes and its
 * level, from Linux's sysfs (cpu0/cache/index*), else sysconf's L3 or L2
 * size. Returns 0 (and 0, 0) when neither says. */
int gs_host_llc(uint64_t *bytes, unsigned *level);

#endif
