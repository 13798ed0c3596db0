/* SPDX-License-Identifier: MIT */
#include "gs_cpu_size.h"

#include <stdio.h>
#include <string.h>

#include "gs_sysmem.h"

static uint64_t floor_pow2(uint64_t v)
{
    uint64_t p = 1;
    while (p <= v / 2)
        p *= 2;
    return p;
}

/* "480 MiB", "2 MiB", "512 KiB": sizes that are whole binary units here. */
static void size_text(uint64_t bytes, char *buf, size_t size)
{
    if (bytes >= (1ull << 30) && bytes % (1ull << 30) == 0)
        snprintf(buf, size, "%llu GiB", (unsigned long long)(bytes >> 30));
    else if (bytes >= (1ull << 20) && bytes % (1ull << 20) == 0)
        snprintf(buf, size, "%llu MiB", (unsigned long long)(bytes >> 20));
    else if (bytes >= (1ull << 10) && bytes % (1ull << 10) == 0)
        snprintf(buf, size, "%llu KiB", (unsigned long long)(bytes >> 10));
    else
        snprintf(buf, size, "%llu bytes", (unsigned long long)bytes);
}

uint64_t gs_cpu_bench_bytes_for(uint64_t llc, unsigned level, unsigned units, char *why,
                                size_t why_size)
{
    char chosen[32], cache[32], cap_text[32], want_text[32];
    const uint64_t cap = GS_CPU_BENCH_BYTES_PER_UNIT * (units ? units : 1);
    const uint64_t want = llc ? 4 * llc : GS_CPU_BENCH_BYTES_UNKNOWN;
    uint64_t bytes = want < cap ? want : cap;
    if (bytes < GS_CPU_BENCH_BYTES_MIN)
        bytes = GS_CPU_BENCH_BYTES_MIN;
    const uint64_t unrounded = bytes;
    bytes = floor_pow2(bytes);
    if (!why || !why_size)
        return bytes;
    size_text(bytes, chosen, sizeof chosen);
    size_text(llc, cache, sizeof cache);
    size_text(cap, cap_text, sizeof cap_text);
    size_text(want, want_text, sizeof want_text);
    if (!llc)
        snprintf(why, why_size,
                 "%s per buffer: the last-level cache is unknown, so %s, at most 4 MiB per "
                 "core x %u cores (%s)",
                 chosen, want_text, units ? units : 1, cap_text);
    else if (want <= cap)
        snprintf(why, why_size, "%s per buffer: 4 x the last-level cache (L%u, %s)", chosen,
                 level, cache);
    else
        snprintf(why, why_size,
                 "%s per buffer: 4 x the last-level cache (L%u, %s) would be %s, capped at "
                 "4 MiB per core x %u cores (%s) so that the run takes seconds",
                 chosen, level, cache, want_text, units ? units : 1, cap_text);
    if (bytes != unrounded) {
        const size_t len = strlen(why);
        snprintf(why + len, why_size - len, ", rounded down to a power of two");
    }
    return bytes;
}

uint64_t gs_cpu_bench_bytes(unsigned units, char *why, size_t why_size)
{
    uint64_t llc = 0;
    unsigned level = 0;
    gs_host_llc(&llc, &level);
    return gs_cpu_bench_bytes_for(llc, level, units, why, why_size);
}
