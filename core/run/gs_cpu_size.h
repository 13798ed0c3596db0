/* SPDX-License-Identifier: MIT */
/* The default size of `bandwidth` and `bandwidth --sweep` on a CPU device
 * (the host backend, an OpenCL CPU driver such as PoCL): chosen from the
 * machine's own caches and cores, so that a run ends in seconds.
 *
 * A memory benchmark wants buffers well past the last-level cache: 4x it per
 * buffer. A CPU moves far less per second than a GPU, and every row is
 * verified and timed 20 times (the sweep: 19 sizes x 3 variants x 55
 * launches), so the size is capped at GS_CPU_BENCH_BYTES_PER_UNIT per core:
 * PoCL on 2 cores took 117 s for the row table and 163 s for the sweep at the
 * old fixed 64 MiB, and about a quarter of that at 8 MiB. A server CPU's
 * large L3 shared by few cores (a VM's slice of a 480 MiB L3) is then not
 * left behind: the sentence says so. */
#ifndef GS_CPU_SIZE_H
#define GS_CPU_SIZE_H

#include <stddef.h>
#include <stdint.h>

#define GS_CPU_BENCH_BYTES_PER_UNIT (4ull << 20)
#define GS_CPU_BENCH_BYTES_MIN (1ull << 20)
/* Without a cache size: the old fixed default. */
#define GS_CPU_BENCH_BYTES_UNKNOWN (64ull << 20)

/* Bytes per buffer for a CPU device of `units` cores whose last-level cache
 * is `llc` bytes at level `level` (0, 0: unknown): 4 x llc, at most
 * GS_CPU_BENCH_BYTES_PER_UNIT x units, at least GS_CPU_BENCH_BYTES_MIN,
 * rounded down to a power of two. why (may be NULL) gets one sentence:
 * the size and how it was chosen. */
uint64_t gs_cpu_bench_bytes_for(uint64_t llc, unsigned level, unsigned units, char *why,
                                size_t why_size);
/* The same with this machine's last-level cache (gs_host_llc). */
uint64_t gs_cpu_bench_bytes(unsigned units, char *why, size_t why_size);

#endif
