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

#endif
